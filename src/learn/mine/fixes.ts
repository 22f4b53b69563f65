/**
 * Error -> fix miners. A failing command followed by edits and the same command passing is
 * a fix sequence, keyed by the error's signature so the same fix recurring across sessions
 * adds up. A failing command passing on a plain rerun is a flaky command. A failing command
 * followed at once by a different command with the same purpose that passes is a recovery
 * ("this repo needs X, not Y").
 */
import type { Domain } from '../../core/domain.js';
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash, isEdit, relativeToCwd } from '../observation.js';
import { type Candidate, backtick, seenIn } from './candidate.js';
import { isGitFlow, isNoise, isValidation, meaningfulSegments, purposeOf, signatureSlug, splitCommand } from './commands.js';
import { type ErrorSignature, errorSignatures, isToolGuardError, normaliseMessage } from './errors.js';

const FIX_WINDOW_MS = 30 * 60_000;
const RECOVERY_WINDOW_MS = 3 * 60_000;
/** As many findings as capture keeps of one failed run. */
const FINDINGS = 12;
/** A fix spread over more files than this is a change, not a recurring repair. */
const SAME_WAY_MAX_FILES = 2;

/** The command without output plumbing (2>&1, | tail ...), to tell a plain rerun from a changed one. */
export function coreCommand(command: string): string {
  return command
    .replace(/\s*\|\s*(tail|head|grep|less|cat)\b[^|;&]*/g, '')
    .replace(/\s*\d?>&\d|\s*2>\/dev\/null/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Output piped into another command: the exit code is the last command's (`| grep` passes when it finds the error). */
const pipesOutput = (command: string): boolean => /(?<!\|)\|(?!\|)/.test(command);

/** Two subcommands of one script are not substitutes for each other. */
const sameScript = (a: string, b: string): boolean => {
  const [pa] = a.split(' ');
  const [pb] = b.split(' ');
  return pa === pb && !!pa && (pa.includes('/') || /\.\w+$/.test(pa));
};

const signatures = (command: string): string[] => [
  ...new Set(
    splitCommand(command)
      .map((s) => s.signature)
      .filter((s) => !isNoise(s)),
  ),
];

function domainFor(sig: ErrorSignature): Domain {
  if (/gosec|security|secret/.test(sig.id)) return 'security';
  if (sig.id.startsWith('golangci-') || sig.id.startsWith('eslint-')) return 'code-style';
  if (/test/.test(sig.id)) return 'testing';
  return 'debugging';
}

function editedFiles(between: readonly Obs[]): string[] {
  const files = new Set<string>();
  for (const o of between) {
    if (!isEdit(o)) continue;
    for (const f of o.files) files.add(relativeToCwd(f, o.cwd) ?? f.split('/').pop() ?? f);
  }
  return [...files];
}

const listFiles = (files: readonly string[]): string =>
  files.length <= 3 ? files.map(backtick).join(', ') : `${files.slice(0, 3).map(backtick).join(', ')} and ${files.length - 3} more`;

const isLintFinding = (sig: ErrorSignature): boolean => sig.id.startsWith('golangci-') || sig.id.startsWith('eslint-');

function fixCandidate(failed: Obs, passed: Obs, command: string, sig: ErrorSignature, files: string[], commands: string[]): Candidate {
  const domain = domainFor(sig);
  const where = passed.projectName || 'this project';
  const steps = [files.length ? `editing ${listFiles(files)}` : '', commands.length ? `running ${commands.map(backtick).join(', ')}` : '']
    .filter(Boolean)
    .join(' and ');
  // A lint rule is worth knowing before writing the code; other failures, when they happen.
  const lint = isLintFinding(sig);
  return {
    ...seenIn(passed),
    key: `fix:${sig.id}`,
    category: 'fix_pattern',
    domain,
    title: lint ? `${where} lint enforces ${sig.label.replace(/^golangci-lint /, '')}` : `Fix ${sig.label} reported by ${command}`,
    trigger: lint ? `when writing code that ${backtick(command)} checks in ${where}` : `when ${backtick(command)} fails with ${sig.label}`,
    action: lint
      ? `Satisfy ${sig.label} up front (it fails ${backtick(command)} with e.g. "${sig.headline}"); if it still fires, fix the reported line and rerun ${backtick(command)}.`
      : commands.length && !files.length
        ? `Run ${commands.map(backtick).join(' then ')}, then rerun ${backtick(command)}.`
        : `Fix what it reports (e.g. "${sig.headline}") and rerun ${backtick(command)}; ${steps} cleared it before.`,
    explain: `${backtick(command)} failed with ${sig.label}; ${steps} cleared it on the rerun.`,
    evidence: [`${backtick(truncate(failed.input, 120))} failed: ${sig.headline}; ${steps}; the rerun no longer reported it`],
    subjects: [command, sig.label, ...files, ...commands],
    miner: 'error-fix',
    notable: true,
    tags: [domain, ...sig.id.split('-').slice(0, 2)],
    facts: { error: sig.id, generic: sig.generic, command },
  };
}

/**
 * A compile error is usually fixed where it is reported, which is no lesson. The same error
 * fixed by editing the same files in several sessions is one: keyed on the message and the
 * files, it only becomes an instinct when it recurs that way.
 */
function sameWayCandidate(passed: Obs, command: string, sig: ErrorSignature, files: string[]): Candidate {
  const message = normaliseMessage(sig.headline);
  const where = passed.projectName || 'this project';
  return {
    ...seenIn(passed),
    key: `fix:${sig.id}-${slugify(`${message} ${files.join(' ')}`).slice(0, 80)}`,
    category: 'fix_pattern',
    domain: domainFor(sig),
    title: `${where}: "${truncate(message, 60)}" is fixed in ${listFiles(files)}`,
    trigger: `when ${backtick(command)} fails with "${sig.headline}"`,
    action: `Edit ${listFiles(files)}: that is where this error was fixed before, the same way each time.`,
    explain: `${backtick(command)} failed with "${sig.headline}"; editing ${listFiles(files)} made it pass.`,
    evidence: [`${backtick(command)} failed: ${sig.headline}; edited ${listFiles(files)}; the rerun passed`],
    subjects: [command, ...files],
    miner: 'error-fix',
    // One compile fix is no story: only the tally across sessions matters.
    notable: false,
    tags: [domainFor(sig), 'same-way'],
    facts: { error: sig.id, generic: false, command, files },
  };
}

function flakyCandidate(failed: Obs, passed: Obs, command: string, sig: ErrorSignature): Candidate {
  return {
    ...seenIn(passed),
    key: `fix:flaky-${signatureSlug(command)}-${sig.id}`,
    category: 'fix_pattern',
    domain: 'testing',
    title: `${command} fails intermittently with ${sig.label}`,
    trigger: `when ${backtick(command)} fails with ${sig.label}`,
    action: `Rerun ${backtick(command)} once before changing code: this failure has passed on a plain rerun.`,
    explain: `${backtick(command)} failed with ${sig.label} and passed when rerun with no edit in between.`,
    evidence: [`${backtick(truncate(failed.input, 120))} failed (${sig.headline}); passed on an unchanged rerun`],
    subjects: [command, sig.label],
    miner: 'error-fix',
    notable: true,
    tags: ['testing', 'flaky'],
    facts: { error: sig.id, generic: sig.generic, command },
  };
}

function recoveryCandidate(failed: Obs, next: Obs, from: string, to: string, sig: ErrorSignature | undefined): Candidate {
  const why = sig ? ` with ${sig.label}` : '';
  return {
    ...seenIn(next),
    key: `fix:${signatureSlug(from)}-to-${signatureSlug(to)}`,
    category: 'fix_pattern',
    domain: 'tooling',
    title: `Use ${to} when ${from} fails`,
    trigger: `when ${backtick(from)} fails${why}`,
    action: `Use ${backtick(to)} instead.`,
    explain: `${backtick(from)} failed${why}; ${backtick(to)} right after it passed.`,
    evidence: [
      `${backtick(truncate(failed.input, 100))} failed${sig ? ` (${sig.headline})` : ''}; ${backtick(truncate(next.input, 100))} passed`,
    ],
    subjects: [from, to, ...(sig ? [sig.label] : [])],
    miner: 'recovery',
    notable: true,
    tags: ['tooling', 'recovery'],
    facts: { error: sig?.id ?? '', generic: sig?.generic ?? false, command: from, replacement: to },
  };
}

/** Commands that ran (and passed) between a failure and its rerun: part of the fix. */
function fixCommands(between: readonly Obs[], failedSigs: readonly string[]): string[] {
  const out: string[] = [];
  for (const o of between) {
    if (!isBash(o) || o.outcome !== 'ok') continue;
    for (const s of meaningfulSegments(o.input)) {
      if (!failedSigs.includes(s.signature) && !isValidation(s.signature) && !out.includes(s.signature)) out.push(s.signature);
    }
  }
  return out.slice(0, 3);
}

/** Which of the rerun segments produced this error (a chain like `fmt && lint` fails in one of them). */
export function blame(segments: readonly string[], sig: ErrorSignature): string | undefined {
  const program = (s: string): string => s.split(' ')[0] ?? '';
  const pick = (test: (s: string) => boolean): string | undefined => segments.filter(test).at(-1);
  if (sig.id.startsWith('golangci-') || sig.id.startsWith('eslint-'))
    return pick((s) => purposeOf(s) === 'lint' || purposeOf(s) === 'check');
  if (sig.id.startsWith('git-')) return pick((s) => program(s) === 'git');
  if (sig.id.startsWith('go-') || sig.id === 'go-test-failure')
    return pick((s) => program(s) === 'go' || purposeOf(s) === 'test' || purposeOf(s) === 'build');
  if (sig.id.startsWith('npm-')) return pick((s) => ['npm', 'npx'].includes(program(s)));
  if (sig.id.startsWith('python-')) return pick((s) => /^(python3?|pytest|uv|poetry|pip3?)$/.test(program(s)));
  if (sig.id.startsWith('command-not-found-')) return pick((s) => sig.id.endsWith(`-${program(s)}`)) ?? segments.at(-1);
  return segments.at(-1);
}

/** All fix, flaky and recovery candidates of one session's observations (ordered by time). */
export function mineFixes(observations: readonly Obs[]): Candidate[] {
  const out: Candidate[] = [];
  const events = observations.filter((o) => o.event === 'tool');
  for (let i = 0; i < events.length; i++) {
    const failed = events[i] as Obs;
    if (!isBash(failed) || failed.outcome !== 'error' || isToolGuardError(failed.error)) continue;
    const failedSigs = signatures(failed.input);
    if (failedSigs.length === 0) continue;
    const errors = errorSignatures(failed.error, FINDINGS);
    for (let j = i + 1; j < events.length; j++) {
      const next = events[j] as Obs;
      if (next.at - failed.at > FIX_WINDOW_MS) break;
      if (!isBash(next)) continue;
      const nextSigs = signatures(next.input);
      const shared = failedSigs.filter((s) => nextSigs.includes(s));
      const between = events.slice(i + 1, j);
      const files = editedFiles(between);
      if (shared.length === 0) {
        // A different command straight after the failure, with no edit: a possible recovery.
        if (j === i + 1 && files.length === 0 && next.outcome === 'ok' && next.at - failed.at <= RECOVERY_WINDOW_MS) {
          const from = failedSigs.find((s) => purposeOf(s) !== undefined);
          const to = from && nextSigs.find((s) => purposeOf(s) === purposeOf(from) && !sameScript(s, from));
          if (from && to) out.push(recoveryCandidate(failed, next, from, to, errors[0]));
        }
        continue;
      }
      if (!isToolGuardError(next.error) && next.outcome !== 'blocked') {
        const commands = fixCommands(between, failedSigs);
        // A rerun that still fails has fixed whatever it no longer reports (a lint run clears its findings one by one).
        const remaining = next.outcome === 'ok' ? new Set<string>() : new Set(errorSignatures(next.error, FINDINGS).map((e) => e.id));
        for (const sig of errors.filter((e) => !remaining.has(e.id))) {
          const command = blame(shared, sig);
          if (!command || isGitFlow(command)) continue;
          if (sig.generic && next.outcome === 'ok' && files.length > 0 && files.length <= SAME_WAY_MAX_FILES)
            out.push(sameWayCandidate(next, command, sig, files));
          else if (files.length > 0 || commands.length > 0) out.push(fixCandidate(failed, next, command, sig, files, commands));
          else if (
            next.outcome === 'ok' &&
            !pipesOutput(next.input) &&
            isValidation(command) &&
            coreCommand(failed.input) === coreCommand(next.input)
          )
            out.push(flakyCandidate(failed, next, command, sig));
        }
      }
      break;
    }
  }
  return out;
}
