/**
 * The memory chat's words: retrieved items as numbered sources, the model's prompt over them,
 * and its answer with only the citations of sources that exist. Pure.
 */
import { RELATION_LABELS } from '../core/graph-vocabulary.js';
import type { RetrievedFact } from '../context/retrieve.js';
import { MIRRORED_COLLECTIONS } from '../search/documents.js';
import type { SearchHit } from '../search/search.js';
import { matchedTerms } from '../text/stem.js';
import { promptTerms } from '../text/terms.js';
import { fenceMemory } from '../context/fence.js';

/** What a source shows of its text. */
const MAX_SOURCE_CHARS = 500;
/** Facts from the graph and memories from search, each at most this many. */
export const SOURCES_PER_KIND = 5;

export interface Source {
  n: number;
  kind: 'fact' | 'memory';
  title: string;
  text: string;
  ts: string | null;
  /** Where it is kept: the fact's id, or the memory's collection and id. */
  ref: string;
  /** A memory the user may forget (memory.delete): one kept for itself, not mirrored from a session, instinct or episode. */
  forget?: { collection: string; id: string };
}

const cut = (s: string): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_SOURCE_CHARS ? `${one.slice(0, MAX_SOURCE_CHARS - 1)}…` : one;
};

/** A name for a memory without a title: a session's turn by its session and place, else its collection. */
function untitled(h: SearchHit): string {
  const turn = h.collection === 'turns' ? /^(.+)#(\d+)$/.exec(h.id) : null;
  return turn ? `Session ${turn[1]?.slice(0, 8)}, turn ${Number(turn[2]) + 1}` : h.collection;
}

/**
 * The sources that name most of the question's words first, numbered from 1: "Helix" is
 * answered by the memory that says it before "cli uses xxd", and a fact the graph's
 * neighbourhood brought along for one common word comes after the session that names three.
 * Among equals the graph's facts lead (they are what the memory holds true now), then the
 * memories in their search order.
 */
export function numberSources(
  facts: readonly RetrievedFact[],
  hits: readonly SearchHit[],
  question = '',
  lead: readonly Omit<Source, 'n'>[] = [],
): Source[] {
  const fromFacts = facts.slice(0, SOURCES_PER_KIND).map(({ fact }) => ({
    kind: 'fact' as const,
    title: `${fact.source} ${RELATION_LABELS[fact.relation]} ${fact.target}`,
    text: cut(fact.description),
    ts: fact.valid_at,
    ref: `fact ${fact.id}`,
  }));
  const fromHits = hits.slice(0, SOURCES_PER_KIND).map((h) => ({
    kind: 'memory' as const,
    title: h.title || untitled(h),
    text: cut(h.text),
    ts: h.ts,
    ref: `${h.collection}/${h.id}`,
    ...(MIRRORED_COLLECTIONS.includes(h.collection) ? {} : { forget: { collection: h.collection, id: h.id } }),
  }));
  const terms = promptTerms(question);
  const named = (x: { title: string; text: string }): number => (terms.length ? matchedTerms(terms, `${x.title} ${x.text}`) : 0);
  // What the question asks for by what it is (the last session) comes first, and once.
  const led = new Set(lead.map((l) => l.ref));
  const ranked = [...fromFacts, ...fromHits.filter((h) => !led.has(h.ref))]
    .map((source, i) => ({ source, named: named(source), i }))
    .sort((a, b) => b.named - a.named || a.i - b.i)
    .map(({ source }) => source);
  return [...lead, ...ranked].map((source, i) => ({ n: i + 1, ...source }));
}

export const CHAT_SYSTEM = [
  "You answer questions about the user's own coding work from their memory.",
  'Use only the numbered sources given. Cite every claim with its source number in square brackets, like [1] or [2][3].',
  'If the sources do not answer the question, say so in one sentence. Be brief: at most 120 words.',
].join(' ');

/**
 * The question and its sources, fenced as every block of memory given to a model is: what was
 * stored (a pasted page, a planted prompt) is data between the tags, never instructions.
 */
export function chatPrompt(question: string, sources: readonly Source[]): string {
  const listed = sources.map((s) => `[${s.n}] ${s.title}${s.ts ? ` (${s.ts.slice(0, 10)})` : ''}: ${s.text}`).join('\n');
  return `Question: ${question}\n\nSources:\n${fenceMemory(listed)}\n\nAnswer as JSON {"answer": "..."} citing the sources by number.`;
}

/** The answer without citations of sources that do not exist, and the numbers it cites (ascending, once each). */
export function checkCitations(answer: string, count: number): { answer: string; cited: number[] } {
  const cited = new Set<number>();
  const kept = answer.replace(/\s?\[(\d{1,4})\]/g, (whole, k: string) => {
    const n = Number(k);
    if (n < 1 || n > count) return '';
    cited.add(n);
    return whole;
  });
  return { answer: kept.trim(), cited: [...cited].sort((a, b) => a - b) };
}
