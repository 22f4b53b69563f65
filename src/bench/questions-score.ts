/**
 * Scoring for bench:questions: the rank of the first result that belongs to a session that
 * answers the question (hit@k), and the grep baseline the questions' README describes: each
 * transcript scored by how many distinct question words it holds, ties by how often.
 */
import { z } from 'zod';
import { promptTerms } from '../text/terms.js';

export const questionsFile = z.array(
  z.object({ id: z.string(), question: z.string(), session_ids: z.array(z.string()).min(1), late: z.boolean() }),
);
export type Question = z.infer<typeof questionsFile>[number];

/** The session a search result belongs to: a session itself, or a turn of one. */
export function sessionOf(hit: { collection: string; id: string; thread: string | null }): string | undefined {
  if (hit.collection === 'sessions') return hit.id;
  if (hit.collection === 'turns') return hit.thread ?? hit.id.split('#')[0];
  return undefined;
}

/** The session an `ask` source ref ("turns/<session>#3", "sessions/<session>") is part of; facts and other memories are none. */
export function sessionOfRef(ref: string): string | undefined {
  const [collection, id] = [ref.slice(0, ref.indexOf('/')), ref.slice(ref.indexOf('/') + 1)];
  return sessionOf({ collection, id, thread: null });
}

/** 1-based rank of the first answering session in a ranked list of sessions (duplicates counted once), or 0. */
export function firstHit(sessions: readonly (string | undefined)[], answers: readonly string[]): number {
  const seen: string[] = [];
  for (const s of sessions) {
    if (!s || seen.includes(s)) continue;
    seen.push(s);
    if (answers.includes(s)) return seen.length;
  }
  return 0;
}

/** Sessions ranked by the distinct question words their raw text holds, ties by occurrences. */
export function grepRank(question: string, texts: ReadonlyMap<string, string>): string[] {
  const words = [...new Set(promptTerms(question))];
  const scored = [...texts].map(([id, text]) => {
    let distinct = 0;
    let total = 0;
    for (const w of words) {
      const n = text.split(w).length - 1;
      if (n > 0) distinct++;
      total += n;
    }
    return { id, distinct, total };
  });
  return scored
    .filter((s) => s.distinct > 0)
    .sort((a, b) => b.distinct - a.distinct || b.total - a.total)
    .map((s) => s.id);
}

export interface HitRates {
  questions: number;
  at1: number;
  at5: number;
  at10: number;
}

export function hitRates(ranks: readonly number[]): HitRates {
  const at = (k: number): number => (ranks.length ? ranks.filter((r) => r > 0 && r <= k).length / ranks.length : 0);
  return { questions: ranks.length, at1: at(1), at5: at(5), at10: at(10) };
}
