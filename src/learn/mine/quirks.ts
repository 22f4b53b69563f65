/**
 * Environment quirks: an error class with one answer whatever the command (zsh refusing an
 * unmatched glob), seen in the project's sessions whether or not the agent then fixed it. The
 * call may even have passed: zsh aborts one command of a list and the rest runs on. Recurring
 * in 3 sessions, it is worth knowing before the next command. Pure functions, no I/O.
 */
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, backtick, seenIn } from './candidate.js';
import { errorSignatures } from './errors.js';

/** One candidate per quirk the session ran into. */
export function mineQuirks(observations: readonly Obs[]): Candidate[] {
  const out = new Map<string, Candidate>();
  for (const o of observations) {
    if (!isBash(o) || o.outcome === 'blocked' || !o.error) continue;
    for (const sig of errorSignatures(o.error, 12)) {
      if (!sig.remedy || out.has(sig.id)) continue;
      const where = o.projectName || 'this project';
      out.set(sig.id, {
        key: `fix:${slugify(where)}/${sig.id}`,
        category: 'fix_pattern',
        domain: 'tooling',
        title: `${where}: ${sig.label}`,
        trigger: `${sig.remedy.when} in ${where}`,
        action: sig.remedy.action,
        explain: `${backtick(truncate(o.input, 100))} hit ${sig.label}: "${sig.headline}".`,
        evidence: [`${backtick(truncate(o.input, 100))}: ${sig.headline}`],
        subjects: [sig.label, o.input],
        miner: 'error-fix',
        notable: true,
        tags: ['tooling', 'shell'],
        ...seenIn(o),
        facts: { error: sig.id, generic: false },
      });
    }
  }
  return [...out.values()];
}
