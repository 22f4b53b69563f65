/**
 * Expansion, in hybrid mode: what a hit brings along and what the query says beyond its
 * words. Each step takes the scores and returns new ones, in order: neighbour spreading
 * within a thread, thread evidence, time hints, speaker focus (see tuning.ts). A hit's
 * explanation is what each step added to its score.
 */
import type { DocumentRepository, DocumentRow } from '../../store/documents/index.js';
import { type ThreadPosition, rankByScore, spreadToNeighbours, threadBoost } from '../context-expansion.js';
import type { HitExplain } from '../search.js';
import { focusOnSpeakers, speakerFactor } from '../speakers.js';
import { matchesHint, timeHints } from '../time-hints.js';
import type { Tuning } from '../tuning.js';
import { wordSet } from '../../text/words.js';
import { CONTRACTIONS, COURTESY, ENGLISH, stopSet } from '../../text/stopwords.js';
import type { Fusion } from './fusion.js';
import type { Pass } from './pass.js';

type Scores = ReadonlyMap<number, number>;

export interface Expansion {
  scores: Scores;
  /** The fused documents and the neighbours the expansion brought. */
  rows: Map<number, DocumentRow>;
  explain(id: number, row: DocumentRow): Pick<HitExplain, 'neighbours' | 'thread' | 'time' | 'speaker'>;
}

function threadPositions(rows: ReadonlyMap<number, DocumentRow>): Map<number, ThreadPosition> {
  const out = new Map<number, ThreadPosition>();
  for (const r of rows.values()) {
    out.set(r.id, { id: r.id, thread: r.thread === null ? undefined : `${r.collection}\u0000${r.project}\u0000${r.thread}`, seq: r.seq });
  }
  return out;
}

/** Finds a position's thread neighbours, adding their rows and positions to those known. */
function neighbourFinder(documents: DocumentRepository, rows: Map<number, DocumentRow>, positions: Map<number, ThreadPosition>) {
  return (p: ThreadPosition, radius: number): ThreadPosition[] => {
    const row = rows.get(p.id);
    if (!row || row.thread === null || row.seq === null) return [];
    const place = { collection: row.collection, project: row.project, thread: row.thread, seq: row.seq };
    const found = documents.threadNeighbours(place, radius).map((f) => {
      if (!rows.has(f.id)) rows.set(f.id, f);
      return { id: f.id, thread: p.thread, seq: f.seq };
    });
    for (const f of found) if (!positions.has(f.id)) positions.set(f.id, f);
    return found;
  };
}

const FILLER = stopSet(ENGLISH, COURTESY, CONTRACTIONS);

/**
 * Content words a turn needs to take a whole neighbour's gift; fewer, and it takes that share.
 * On the dev halves, R@10 with 0 (off) / 2 / 3 / 4 / 6: LoCoMo 0.777 / 0.777 / 0.775 / 0.776 /
 * 0.774, REALTALK 0.555 / 0.559 / 0.559 / 0.560 / 0.566.
 */
const SUBSTANTIAL_WORDS = 4;

/** A turn's share of a neighbour's gift by its content words ("Speaker:" aside): filler turns lose to content. */
function substance(text: string): number {
  const words = [...wordSet(text.replace(/^[^:\n]{1,60}:\s*/, ''), 3)].filter((w) => !FILLER.has(w));
  return Math.min(1, words.length / SUBSTANTIAL_WORDS);
}

/** Documents dated in (or just after) a period the query names gain `weight`. */
function timeStep(scores: Scores, rows: ReadonlyMap<number, DocumentRow>, query: string, weight: number): Scores {
  const hints = timeHints(query);
  if (hints.length === 0) return scores;
  const out = new Map(scores);
  for (const [id, score] of out) if (matchesHint(rows.get(id)?.ts ?? null, hints)) out.set(id, score + weight);
  return out;
}

/** The scores after each step; a step that is off hands its input on. */
function expand(pass: Pass, fusion: Fusion, tuning: Tuning) {
  const { rows } = fusion;
  const hybrid = pass.plan.mode === 'hybrid';
  const positions = hybrid && (tuning.neighbours || tuning.thread) ? threadPositions(rows) : new Map<number, ThreadPosition>();
  const base: Scores = fusion.scores;
  const neighbours =
    hybrid && tuning.neighbours
      ? spreadToNeighbours(base, rankByScore(base), positions, neighbourFinder(pass.documents, rows, positions), tuning.neighbours, (id) =>
          substance(rows.get(id)?.text ?? ''),
        )
      : base;
  const thread = hybrid && tuning.thread ? threadBoost(neighbours, rankByScore(neighbours), positions, tuning.thread) : neighbours;
  const time = hybrid && tuning.time ? timeStep(thread, rows, pass.plan.text, tuning.time.weight) : thread;
  const speaker = tuning.speakers;
  const final = hybrid && speaker ? focusOnSpeakers(time, (id) => rows.get(id)?.speaker, pass.plan.named, speaker.factor) : time;
  return { base, neighbours, thread, time, final };
}

export function expansionStage(pass: Pass, fusion: Fusion): Expansion {
  const { named, tuning } = pass.plan;
  const after = expand(pass, fusion, tuning);
  pass.lap('expansion');
  return {
    scores: after.final,
    rows: fusion.rows,
    explain(id, row) {
      const base = after.base.get(id) ?? 0;
      return {
        neighbours: (after.neighbours.get(id) ?? 0) - base,
        thread: (after.thread.get(id) ?? 0) - (after.neighbours.get(id) ?? base),
        time: (after.time.get(id) ?? 0) - (after.thread.get(id) ?? 0),
        speaker: speakerFactor(row.speaker, named, tuning.speakers?.factor ?? 1),
      };
    },
  };
}
