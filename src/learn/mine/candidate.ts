/** What a miner proposes: a pattern seen in one session, before the quality gate and the tally. */
import type { Category, Domain } from '../../core/domain.js';
import { redact, redactDeep } from '../../core/redact.js';

type MinerName =
  'error-fix' | 'recovery' | 'preference' | 'rejection' | 'recipe' | 'co-edit' | 'sequence' | 'combo' | 'project-command' | 'llm';

export interface Candidate {
  /** Pattern key (prefix:body). */
  key: string;
  category: Category;
  domain: Domain;
  title: string;
  trigger: string;
  action: string;
  explain: string;
  /** Project fingerprint ('' = global, e.g. a personal preference). */
  project: string;
  projectName: string;
  sessionId: string;
  /** Instant of the last observation that supports it (ISO-8601). */
  ts: string;
  /** What was seen in this session, one short line each. */
  evidence: string[];
  /** The concrete things it names: commands, files, errors, tools. The gate's "specific" test reads these. */
  subjects: string[];
  miner: MinerName;
  /** Worth an episode while it stays below the instinct threshold. */
  notable: boolean;
  tags: string[];
  /** Keys of instincts this observation contradicts. */
  contradicts?: string[];
  /** Extra facts a gate or the apply step needs (e.g. the two files of a co-edit pair). */
  facts?: Record<string, unknown>;
}

/** Keeps the first candidate per key (a session counts once per pattern). */
export function uniqueByKey(candidates: readonly Candidate[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of candidates) {
    const prior = seen.get(c.key);
    if (!prior) seen.set(c.key, { ...c, evidence: [...c.evidence] });
    else {
      prior.evidence.push(...c.evidence.filter((e) => !prior.evidence.includes(e)));
      if (c.ts > prior.ts) prior.ts = c.ts;
    }
  }
  return [...seen.values()];
}

export const backtick = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

/**
 * The candidate's texts redacted again before they are written into instincts, episodes
 * and examples. Miners read redacted observations; this is the second line of defence.
 */
export function redactCandidate(c: Candidate): Candidate {
  return {
    ...c,
    title: redact(c.title),
    trigger: redact(c.trigger),
    action: redact(c.action),
    explain: redact(c.explain),
    evidence: c.evidence.map(redact),
    ...(c.facts ? { facts: redactDeep(c.facts) } : {}),
  };
}
