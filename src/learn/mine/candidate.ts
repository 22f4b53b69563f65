/** What a miner proposes: a pattern seen in one session, before the quality gate and the tally. */
import type { Category, Domain } from '../../core/domain.js';
import { redact, redactDeep } from '../../core/redact.js';
import type { Obs } from '../observation.js';

type MinerName =
  | 'error-fix'
  | 'recovery'
  | 'request'
  | 'preference'
  | 'rejection'
  | 'recipe'
  | 'api'
  | 'service'
  | 'co-edit'
  | 'sequence'
  | 'combo'
  | 'project-command'
  | 'commit-style'
  | 'llm';

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

/** Where a candidate was seen: the observation's project and session, and when. */
export const seenIn = (o: Obs): Pick<Candidate, 'project' | 'projectName' | 'sessionId' | 'ts'> => ({
  project: o.project,
  projectName: o.projectName,
  sessionId: o.sessionId,
  ts: o.ts,
});

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

/**
 * Items listed in the examples of an instinct's sightings (each an evidence line of items
 * joined by "; ", dated by the apply step), most sessions first: what the instinct's text
 * names when it is created from every session that backs it.
 */
export function tallyExamples(examples: readonly string[]): [string, number][] {
  const tally = new Map<string, number>();
  for (const e of examples) {
    const items = new Set(e.replace(/^\d{4}-\d\d-\d\d: /, '').split('; '));
    for (const item of items) if (item) tally.set(item, (tally.get(item) ?? 0) + 1);
  }
  return [...tally].sort((a, b) => b[1] - a[1]);
}

/** The words people said, quoted at the end of example lines (`... "too slow."`), each once. */
export function quotedIn(examples: readonly string[], max = 3): string[] {
  return [...new Set(examples.map((e) => /"(.+)"$/.exec(e)?.[1]).filter((q): q is string => !!q))].slice(0, max);
}
