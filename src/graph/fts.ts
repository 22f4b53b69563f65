/**
 * Full-text queries over facts that can never be an FTS5 syntax error: content words
 * (English and French stop words removed) quoted and OR-ed. Documents have their own builder
 * (search/query-text.ts: English stop words, trigram tokens); facts come from French prompts
 * too, so this one also drops French function words.
 */
import type { Db } from '../store/db.js';

const STOP = new Set(
  `a an the and or but if of to in on at by for with from into onto as is are was were be been being am do does did done have has had
  it its this that these those there here what which who whom whose when where why how i me my we our you your he she they them their
  not no yes so than then too very can could should would will shall may might must just also about over under again more most some any
  all each both other such only own same few nor le la les un une des du de et ou mais donc or ni car est sont été être avoir a ai as ont
  ce cet cette ces ça cela ceci qui que quoi dont où je tu il elle on nous vous ils elles me te se mon ton son ma ta sa mes tes ses notre votre
  leur leurs pour par sur sous dans avec sans en au aux ne pas plus moins très comme si tout tous toute toutes fait faire please svp stp`.split(
    /\s+/,
  ),
);

export function ftsTerms(text: string, max = 16): string[] {
  const seen = new Set<string>();
  for (const m of text
    .toLowerCase()
    .normalize('NFKC')
    .matchAll(/[\p{L}\p{N}_]+/gu)) {
    const w = m[0];
    if (w.length < 2 || STOP.has(w) || seen.has(w)) continue;
    seen.add(w);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** `"a" OR "b"`, or '' when the text has no content word. */
export function ftsQuery(text: string, max = 16): string {
  return ftsTerms(text, max)
    .map((t) => `"${t.replace(/"/g, '""')}"`)
    .join(' OR ');
}

/** Fact ids ranked by BM25 (description 2, entity names 1.5, relation 1), best first. */
export function bm25Facts(
  db: Db,
  text: string,
  options: { limit?: number; where?: string; params?: Record<string, unknown> } = {},
): { id: number; score: number }[] {
  const expression = ftsQuery(text);
  if (!expression) return [];
  const where = options.where ? `AND ${options.where}` : '';
  const rows = db
    .prepare(
      `SELECT f.id AS id, -bm25(graph_facts_fts, 2.0, 1.5, 1.0) AS score
       FROM graph_facts_fts JOIN graph_facts f ON f.id = graph_facts_fts.rowid
       WHERE graph_facts_fts MATCH @expression ${where}
       ORDER BY bm25(graph_facts_fts, 2.0, 1.5, 1.0) LIMIT @limit`,
    )
    .all({ ...(options.params ?? {}), expression, limit: options.limit ?? 20 }) as { id: number; score: number }[];
  return rows;
}
