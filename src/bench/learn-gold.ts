/**
 * Scoring for bench:learn: the gold patterns a reader found in the dev sessions, the split of
 * those sessions into a tuning half and a held-out half, and a verdict for every learned
 * instinct (matched to gold, or judged by a stated rule or a reader's note kept in the repo).
 * Pure functions: the runner reads the files and the store.
 */
import { z } from 'zod';

const goldItem = z.object({
  id: z.string(),
  kind: z.string(),
  what: z.string(),
  instinct: z.string(),
  sessions: z.array(z.string()),
  match: z.string(),
  already_in_claude_md: z.boolean().default(false),
  /** Who wrote it: the independent reader's file, or ours (`team`). */
  author: z.enum(['reader', 'team']).default('reader'),
});
export type GoldItem = z.output<typeof goldItem>;
export const goldFile = z.array(goldItem);

const verdictName = z.enum(['useful', 'trivial', 'junk', 'wrong']);
type VerdictName = z.output<typeof verdictName>;

const readerNote = z
  .object({
    /** An exact instinct key, or a regex over its readable text. */
    key: z.string().optional(),
    text: z.string().optional(),
    verdict: verdictName,
    note: z.string().min(1),
    /** The instinct matches a gold pattern's regex by accident (a path, a word): the note's verdict wins. */
    accidental: z.boolean().default(false),
  })
  .refine((n) => n.key !== undefined || n.text !== undefined, { message: 'a note names a key or a text pattern' });
export type ReaderNote = z.output<typeof readerNote>;
export const notesFile = z.array(readerNote);

export interface LearnedInstinct {
  key: string;
  title: string;
  trigger: string;
  action: string;
  evidence: number;
  /** The instinct restates what the project's own CLAUDE.md or AGENTS.md says. */
  documented: boolean;
  /** Rules of the independent audit it fails. */
  auditFailures: string[];
}

/** What a reader sees of an instinct, and what the gold `match` rules read. */
export const readableText = (i: Pick<LearnedInstinct, 'title' | 'trigger' | 'action'>): string => `${i.trigger} ${i.action} ${i.title}`;

export interface SessionStart {
  id: string;
  startedAt: string;
}

/** Sessions sorted by start (ties by id): even positions tune the miners, odd positions are held out. */
export function splitSessions(sessions: readonly SessionStart[]): { tune: Set<string>; heldOut: Set<string> } {
  const ordered = [...sessions].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  return {
    tune: new Set(ordered.filter((_, i) => i % 2 === 0).map((s) => s.id)),
    heldOut: new Set(ordered.filter((_, i) => i % 2 === 1).map((s) => s.id)),
  };
}

/** A pattern can be learned from a set of sessions only when it recurs in 3 of them. */
export const learnableIn = (gold: readonly GoldItem[], sessions: ReadonlySet<string>): GoldItem[] =>
  gold.filter((g) => g.sessions.filter((s) => sessions.has(s)).length >= 3);

export interface Judged {
  instinct: LearnedInstinct;
  verdict: VerdictName | 'unjudged';
  /** The gold item it matches, the rule or the reader's note behind the verdict. */
  why: string;
  gold?: string;
}

function noteFor(i: LearnedInstinct, notes: readonly ReaderNote[]): ReaderNote | undefined {
  return notes.find((n) => (n.key !== undefined ? n.key === i.key : new RegExp(n.text ?? '', 'i').test(readableText(i))));
}

/**
 * Gold first (a match is useful), then the reader's notes, then two stated rules: what the
 * project's docs already say is trivial, what the independent audit rejects is junk.
 */
export function judge(i: LearnedInstinct, gold: readonly GoldItem[], notes: readonly ReaderNote[]): Judged {
  const text = readableText(i);
  const note = noteFor(i, notes);
  const hit = note?.accidental ? undefined : gold.find((g) => new RegExp(g.match, 'i').test(text));
  if (hit) return { instinct: i, verdict: 'useful', why: `gold ${hit.id}`, gold: hit.id };
  if (note) return { instinct: i, verdict: note.verdict, why: `reader: ${note.note}` };
  if (i.documented) return { instinct: i, verdict: 'trivial', why: 'rule: already in the project CLAUDE.md/AGENTS.md' };
  if (i.auditFailures.length) return { instinct: i, verdict: 'junk', why: `rule: fails audit (${i.auditFailures.join(', ')})` };
  return { instinct: i, verdict: 'unjudged', why: 'no gold match, no note, passes the audit' };
}

export interface Score {
  sessions: number;
  learnable: number;
  matched: string[];
  missed: string[];
  recall: number;
  instincts: number;
  counts: Record<VerdictName | 'unjudged', number>;
  /** Junk and wrong over all instincts, unjudged counted as junk (a reader must look at them). */
  junkRate: number;
  usefulPer10: number;
  judged: Judged[];
}

export function score(
  instincts: readonly LearnedInstinct[],
  gold: readonly GoldItem[],
  notes: readonly ReaderNote[],
  sessions: ReadonlySet<string>,
): Score {
  const learnable = learnableIn(gold, sessions);
  const judged = instincts.map((i) => judge(i, gold, notes));
  // One instinct may carry several gold patterns: recall asks of each pattern whether anything says it.
  const counted = instincts.filter((i) => !noteFor(i, notes)?.accidental);
  const matched = learnable.filter((g) => counted.some((i) => new RegExp(g.match, 'i').test(readableText(i)))).map((g) => g.id);
  const counts = { useful: 0, trivial: 0, junk: 0, wrong: 0, unjudged: 0 };
  for (const j of judged) counts[j.verdict]++;
  const n = instincts.length;
  return {
    sessions: sessions.size,
    learnable: learnable.length,
    matched,
    missed: learnable.map((g) => g.id).filter((id) => !matched.includes(id)),
    recall: learnable.length ? matched.length / learnable.length : 0,
    instincts: n,
    counts,
    junkRate: n ? (counts.junk + counts.wrong + counts.unjudged) / n : 0,
    usefulPer10: sessions.size ? (counts.useful / sessions.size) * 10 : 0,
    judged,
  };
}
