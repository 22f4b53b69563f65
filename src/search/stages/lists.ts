/**
 * The stages that read ranked lists: the lexical lists (BM25 on words, trigram for CJK and
 * identifiers), the dense list (after lazily repairing missing embeddings among the lexical
 * hits), and pseudo-relevance feedback (words the best lexical hits share, as a second,
 * lighter list).
 */
import { errorMessage } from '../../core/errors.js';
import type { Embedder } from '../embeddings.js';
import { feedbackTerms } from '../feedback.js';
import { type RankedList, ORIGINAL_QUERY_WEIGHT, isStrongBm25, normalizeBm25 } from '../fusion.js';
import { type LexicalList, bm25List, feedbackList, trigramList } from '../lexical.js';
import { denseFactors } from '../profiles.js';
import type { ScoredId } from '../vectors.js';
import type { Pass } from './pass.js';

export interface LexicalLists {
  /** The lists to fuse, of the original query's words and substrings. */
  lists: RankedList[];
  bm25: Pick<LexicalList, 'ids' | 'scores'>;
  /** The BM25 scores normalised to [0, 1), aligned with bm25.ids. */
  normalized: number[];
  /** The strong-BM25 shortcut fired: one lexical hit clearly wins, so the dense list is skipped. */
  shortcut: boolean;
}

export interface DenseList {
  list: RankedList | undefined;
  hits: ScoredId[];
  /** Embeddings repaired during this query. */
  repaired: number;
}

/** A list of the original query, which weighs 2x and earns the rank bonus. */
const originalList = (name: string, ids: readonly number[], scores: readonly number[], weight: number): RankedList => ({
  name,
  ids,
  scores,
  weight: weight * ORIGINAL_QUERY_WEIGHT,
  original: true,
});

export function lexicalStage(pass: Pass): LexicalLists {
  const { documents, plan } = pass;
  const { weights } = plan.tuning;
  const lists: RankedList[] = [];
  let bm25: LexicalLists['bm25'] = { ids: [], scores: [] };
  if (plan.mode !== 'vector') {
    const words = bm25List(documents, plan.text, {
      filter: plan.filter,
      limit: plan.depth,
      terms: plan.lexicalTerms,
      ownSyntax: plan.ownSyntax,
      dropCommon: plan.tuning.dropCommonTerms,
    });
    if (words.fellBack) pass.notes.push('The query is not valid FTS5 syntax; searched its words instead.');
    bm25 = words;
    if (bm25.ids.length && weights.bm25 > 0) lists.push(originalList('bm25', bm25.ids, bm25.scores, weights.bm25));
    const t = weights.trigram > 0 ? trigramList(documents, plan.text, plan.filter, plan.depth) : undefined;
    if (t?.ids.length) lists.push(originalList('trigram', t.ids, t.scores, weights.trigram));
  }
  pass.lap('lexical');
  const normalized = bm25.scores.map(normalizeBm25);
  const shortcut = plan.mode === 'hybrid' && plan.tuning.strongShortcut && isStrongBm25(normalized);
  return { lists, bm25, normalized, shortcut };
}

/** Embeds the lexical hits that lack a vector (at most plan.repair); a failure costs only a note. */
async function repairStep(pass: Pass, embedder: Embedder, lexical: LexicalLists): Promise<number> {
  const changed = embedder.modelChanged();
  if (changed)
    pass.notes.push(
      `The embedding model changed (was ${changed.from.provider}/${changed.from.model}); run \`homunculus embed\` to re-embed every document.`,
    );
  let repaired = 0;
  try {
    repaired = await embedder.repair(lexical.lists.flatMap((l) => l.ids).slice(0, 200), pass.plan.repair);
  } catch (err) {
    // A busy database or a failing model must not cost the query its answer.
    pass.notes.push(`Missing embeddings were not repaired: ${errorMessage(err)}`);
  }
  pass.lap('repair');
  return repaired;
}

/** The nearest documents to the query's embedding; without a model, none (vector mode fails instead). */
async function nearestStep(pass: Pass, embedder: Embedder): Promise<ScoredId[]> {
  const { plan } = pass;
  let hits: ScoredId[] = [];
  try {
    const vector = await embedder.embedQuery(plan.text);
    pass.lap('query_embedding');
    hits = embedder.index.search(vector, plan.depth, plan.filter);
  } catch (err) {
    if (plan.mode === 'vector') throw err;
    pass.notes.push(`Embeddings unavailable (${errorMessage(err)}); ranked by full-text search only.`);
  }
  pass.lap('vector');
  return hits;
}

export async function denseStage(pass: Pass, lexical: LexicalLists): Promise<DenseList> {
  const { embedder, plan } = pass;
  const { mode, tuning } = plan;
  if (mode === 'vector' && embedder === null) pass.notes.push('Embeddings are turned off; vector mode has nothing to search.');
  const wanted = mode === 'vector' || (mode === 'hybrid' && !lexical.shortcut && tuning.weights.vector > 0);
  if (embedder === null || !wanted) return { list: undefined, hits: [], repaired: 0 };
  const repaired = await repairStep(pass, embedder, lexical);
  const hits = await nearestStep(pass, embedder);
  // Nothing shares a word with the query: the vector list still ranks something first, and
  // its score says nothing of whether it answers (nonsense scores like a good question).
  if (mode === 'hybrid' && lexical.lists.length === 0 && hits.length > 0)
    pass.notes.push('No document shares a word with the query: the results are only the nearest in meaning, and may not answer it.');
  const list = hits.length
    ? {
        ...originalList(
          'vector',
          hits.map((d) => d.id),
          hits.map((d) => d.score),
          tuning.weights.vector,
        ),
        factors: denseFactors(plan.profiles, hits),
      }
    : undefined;
  return { list, hits, repaired };
}

export function feedbackStage(pass: Pass, bm25: LexicalLists['bm25']): RankedList | undefined {
  const { documents, plan } = pass;
  const { prf, weights } = plan.tuning;
  let list: RankedList | undefined;
  if (plan.mode === 'hybrid' && prf && weights.feedback > 0 && bm25.ids.length > 0) {
    const best = bm25.ids.slice(0, prf.docs);
    const rows = documents.byRowIds(best);
    const extra = feedbackTerms(
      best.map((id) => rows.get(id)?.text ?? ''),
      plan.terms,
      prf.terms,
    );
    if (extra.length) {
      const f = feedbackList(documents, extra, plan.filter, plan.depth);
      if (f.ids.length) list = { name: 'feedback', ids: f.ids, scores: f.scores, weight: weights.feedback, original: false };
    }
  }
  pass.lap('feedback');
  return list;
}
