/**
 * Turn-level LoCoMo retrieval (one store per conversation, one document per turn, query =
 * question, gold = evidence ids), categories 1-4: bm25-only, vector-only, plain RRF and
 * the full pipeline side by side, with latency and indexing throughput.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import { useLiteProvider } from '../embed/use-lite.js';
import { Embedder } from '../search/embeddings.js';
import type { SearchMode } from '../search/modes.js';
import { search } from '../search/search.js';
import { type Tuning, DEFAULT_TUNING, PLAIN_RRF } from '../search/tuning.js';
import { openStore } from '../store/store.js';
import { cachedProvider } from './cached-provider.js';
import { type LocomoSample, loadLocomo } from './locomo-data.js';
import { formatTable, percentile } from './measure.js';
import { quality } from './metrics.js';

export interface LocomoOptions {
  data: string;
  /** Samples already read (another dataset in the same turn-level shape); else `data` is read as LoCoMo. */
  samples?: LocomoSample[];
  /** The report's title (LoCoMo's by default). */
  title?: string;
  /** Category labels of the report (LoCoMo's by default). */
  groups?: [string, (r: { category: number }) => boolean][];
  dump?: string;
  /** File remembering embeddings between runs (tuning without re-running the encoder). */
  embedCache?: string;
  /** Overrides of the full pipeline's tuning (experiments). */
  tuning?: Partial<Tuning>;
  /** Only these methods (bm25, vector, rrf, full). */
  only?: string[];
  /** Ask with every speaker's name replaced by "they" (how much hangs on the exact name). */
  replaceNames?: boolean;
  /** Ask as the first speaker, the store's owner: their name becomes "I" / "my", and search knows who "I" is. */
  firstPerson?: boolean;
}

/** The question with these people's names (and their possessives) replaced by a pronoun. */
function renamed(question: string, people: readonly string[], pronoun: string, possessive: string): string {
  let out = question;
  for (const name of people.flatMap((s) => [s, ...s.split(/\s+/)]).filter((n) => n.length >= 2)) {
    const re = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}('s|’s)?\\b`, 'gi');
    out = out.replace(re, (_m, owned: string | undefined) => (owned ? possessive : pronoun));
  }
  return out;
}

/** The question with the speakers' names (and their possessives) replaced by "they" / "their". */
export const withoutNames = (question: string, speakers: readonly string[]): string => renamed(question, speakers, 'they', 'their');

/** The question as the person it names would ask it: "What did Caroline research?" -> "What did I research?". */
export const asFirstPerson = (question: string, owner: string): string => renamed(question, [owner], 'I', 'my');

interface Method {
  name: string;
  mode: SearchMode;
  tuning?: Partial<Tuning>;
}

interface Run {
  sampleId: string;
  question: string;
  category: number;
  gold: string[];
  retrieved: string[];
}

const GROUPS: [string, (r: Run) => boolean][] = [
  ['categories 1-4', () => true],
  ['1 multi-hop', (r) => r.category === 1],
  ['2 temporal', (r) => r.category === 2],
  ['3 open-domain', (r) => r.category === 3],
  ['4 single-hop', (r) => r.category === 4],
];

function qualityTables(methods: readonly string[], runs: ReadonlyMap<string, Run[]>, groups = GROUPS): string[] {
  const out: string[] = [];
  for (const [label, pick] of groups) {
    const rows = methods.map((m) => {
      const q = quality((runs.get(m) ?? []).filter(pick).map((r) => ({ retrieved: r.retrieved, gold: r.gold })));
      return [m, ...[q.r1, q.r5, q.r10, q.r20, q.hit10, q.mrr].map((x) => x.toFixed(3)), String(q.n)];
    });
    out.push(`\n${label}\n`, formatTable(['method', 'R@1', 'R@5', 'R@10', 'R@20', 'hit@10', 'MRR', 'questions'], rows));
  }
  return out;
}

export async function runLocomoBench(options: LocomoOptions): Promise<string> {
  const samples: LocomoSample[] = options.samples ?? loadLocomo(options.data);
  const all: Method[] = [
    { name: 'bm25', mode: 'bm25' },
    { name: 'vector', mode: 'vector' },
    { name: 'rrf', mode: 'hybrid', tuning: PLAIN_RRF },
    { name: 'full', mode: 'hybrid', tuning: { ...DEFAULT_TUNING, ...options.tuning } },
  ];
  const methods = options.only ? all.filter((m) => options.only?.includes(m.name)) : all;
  const base = useLiteProvider();
  const cache = options.embedCache ? cachedProvider(base, options.embedCache) : undefined;
  const provider: EmbeddingProvider = cache ?? base;

  const runs = new Map<string, Run[]>(methods.map((m) => [m.name, []]));
  const latency = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  const embedLatency: number[] = [];
  let docs = 0;
  let ftsMs = 0;
  let embedMs = 0;
  const now = new Date('2030-01-01T00:00:00Z');
  const root = mkdtempSync(join(tmpdir(), 'homunculus-locomo-'));
  try {
    for (const sample of samples) {
      const store = openStore({ home: join(root, sample.sampleId), clock: fixedClock(now) });
      try {
        let t = performance.now();
        store.transaction(() => store.documents.upsert(sample.documents, now.toISOString()));
        ftsMs += performance.now() - t;
        docs += sample.documents.length;
        const embedder = new Embedder(store, provider);
        t = performance.now();
        await embedder.syncAll();
        embedMs += performance.now() - t;
        const speakers = [...new Set(sample.documents.map((d) => d.speaker).filter((x): x is string => !!x))];
        for (const asked of sample.questions) {
          const owner = options.firstPerson ? speakers[0] : undefined;
          const q = options.replaceNames
            ? { ...asked, question: withoutNames(asked.question, speakers) }
            : owner
              ? { ...asked, question: asFirstPerson(asked.question, owner) }
              : asked;
          // Embed once outside the timed searches, so their latency excludes the query embedding.
          const e0 = performance.now();
          await embedder.embedQuery(q.question);
          embedLatency.push(performance.now() - e0);
          for (const m of methods) {
            const t0 = performance.now();
            const self = owner ? [owner] : undefined;
            const res = await search(store, embedder, { query: q.question, mode: m.mode, limit: 50, tuning: m.tuning, repair: 0, self });
            latency.get(m.name)?.push(performance.now() - t0);
            runs.get(m.name)?.push({
              sampleId: sample.sampleId,
              question: q.question,
              category: q.category,
              gold: q.evidence,
              retrieved: res.results.map((r) => r.id),
            });
          }
        }
      } finally {
        store.close();
      }
    }
  } finally {
    cache?.save();
    rmSync(root, { recursive: true, force: true });
  }

  const names = methods.map((m) => m.name);
  const out: string[] = [
    `## ${options.title ?? 'LoCoMo turn-level retrieval'}\n`,
    `${samples.length} conversations, ${docs} turns, ${runs.get(names[0] ?? '')?.length ?? 0} questions; ` +
      `embedding model ${base.provider}/${base.model} (${base.dims}-d)${cache ? '; embedding cache on (indexing and query-embedding times exclude cached embeddings)' : ''}.`,
  ];
  out.push(...qualityTables(names, runs, options.groups));
  out.push(
    '\nquery latency, ms (excluding the query embedding)\n',
    formatTable(
      ['method', 'p50', 'p95'],
      names.map((m) => [m, percentile(latency.get(m) ?? [], 50).toFixed(2), percentile(latency.get(m) ?? [], 95).toFixed(2)]),
    ),
    `\nquery embedding: p50 ${percentile(embedLatency, 50).toFixed(1)} ms, p95 ${percentile(embedLatency, 95).toFixed(1)} ms`,
    `indexing: full-text ${Math.round(docs / (ftsMs / 1000))} docs/s; embeddings ${Math.round(docs / (embedMs / 1000))} docs/s`,
  );
  if (options.dump) {
    const lines = (runs.get('full') ?? []).map((r) =>
      JSON.stringify({
        sample_id: r.sampleId,
        question: r.question,
        category: r.category,
        evidence: r.gold,
        retrieved: r.retrieved.slice(0, 50),
      }),
    );
    writeFileSync(options.dump, `${lines.join('\n')}\n`);
    out.push(`wrote ${lines.length} lines to ${options.dump}`);
  }
  return out.join('\n');
}
