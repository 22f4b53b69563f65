/**
 * `npm run bench:locomo -- --data FILE [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--only full]`
 *
 * Turn-level LoCoMo retrieval (one store per conversation, one document per turn, query =
 * question, gold = evidence ids), categories 1-4: bm25-only, vector-only, plain RRF and
 * the full pipeline side by side, with latency and indexing throughput.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EmbeddingProvider } from '../embed/provider.js';
import { useLiteProvider } from '../embed/use-lite.js';
import { upsertDocuments } from '../search/documents.js';
import { Embedder } from '../search/embeddings.js';
import { type SearchMode, search } from '../search/search.js';
import { type Tuning, DEFAULT_TUNING, PLAIN_RRF } from '../search/tuning.js';
import { writeTx } from '../store/db.js';
import { openStore } from '../store/store.js';
import { cachedProvider } from './cached-provider.js';
import { type LocomoSample, loadLocomo } from './locomo-data.js';
import { type QualityRow, percentile, quality } from './metrics.js';

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

const fmt = (x: number) => x.toFixed(3);

function qualityTable(methods: readonly string[], runs: ReadonlyMap<string, Run[]>): string[] {
  const lines: string[] = [];
  const groups: [string, (r: Run) => boolean][] = [
    ['all (1-4)', () => true],
    ['1 multi-hop', (r) => r.category === 1],
    ['2 temporal', (r) => r.category === 2],
    ['3 open-domain', (r) => r.category === 3],
    ['4 single-hop', (r) => r.category === 4],
  ];
  for (const [label, pick] of groups) {
    lines.push(`\n${label}`);
    lines.push(`  ${'method'.padEnd(10)} ${['R@1', 'R@5', 'R@10', 'R@20', 'hit@10', 'MRR', 'n'].map((h) => h.padStart(7)).join('')}`);
    for (const m of methods) {
      const q: QualityRow = quality((runs.get(m) ?? []).filter(pick).map((r) => ({ retrieved: r.retrieved, gold: r.gold })));
      lines.push(`  ${m.padEnd(10)} ${[q.r1, q.r5, q.r10, q.r20, q.hit10, q.mrr].map((x) => fmt(x).padStart(7)).join('')}${String(q.n).padStart(7)}`);
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      dump: { type: 'string' },
      'embed-cache': { type: 'string' },
      tuning: { type: 'string' },
      only: { type: 'string' },
    },
  });
  if (!values.data) {
    process.stderr.write('usage: npm run bench:locomo -- --data FILE [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--only full]\n');
    process.exit(2);
  }
  const samples: LocomoSample[] = loadLocomo(values.data);
  const override = values.tuning ? (JSON.parse(values.tuning) as Partial<Tuning>) : {};
  const all: Method[] = [
    { name: 'bm25', mode: 'bm25' },
    { name: 'vector', mode: 'vector' },
    { name: 'rrf', mode: 'hybrid', tuning: PLAIN_RRF },
    { name: 'full', mode: 'hybrid', tuning: { ...DEFAULT_TUNING, ...override } },
  ];
  const methods = values.only ? all.filter((m) => values.only?.split(',').includes(m.name)) : all;
  const base = useLiteProvider();
  const cache = values['embed-cache'] ? cachedProvider(base, values['embed-cache']) : undefined;
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
      const store = openStore({ home: join(root, sample.sampleId) });
      try {
        let t = performance.now();
        writeTx(store.db, () => upsertDocuments(store.db, sample.documents, now.toISOString()));
        ftsMs += performance.now() - t;
        docs += sample.documents.length;
        const embedder = new Embedder(store.db, provider);
        t = performance.now();
        await embedder.syncAll();
        embedMs += performance.now() - t;
        for (const q of sample.questions) {
          // Embed once outside the timed search, so latency excludes the query embedding.
          const e0 = performance.now();
          await embedder.embedQuery(q.question);
          embedLatency.push(performance.now() - e0);
          for (const m of methods) {
            const t0 = performance.now();
            const res = await search(store.db, embedder, { query: q.question, mode: m.mode, limit: 50, tuning: m.tuning, repair: 0 }, now);
            latency.get(m.name)?.push(performance.now() - t0);
            runs.get(m.name)?.push({ sampleId: sample.sampleId, question: q.question, category: q.category, gold: q.evidence, retrieved: res.results.map((r) => r.id) });
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
  const out: string[] = [`LoCoMo turn-level retrieval: ${samples.length} conversations, ${docs} turns, ${runs.get(names[0] ?? '')?.length ?? 0} questions (categories 1-4)`];
  out.push(`embedding model: ${base.provider}/${base.model} (${base.dims}-d)${cache ? ' [embedding cache on: indexing figures exclude cached embeddings]' : ''}`);
  out.push(...qualityTable(names, runs));
  out.push('\nquery latency (ms, excluding the query embedding)');
  for (const m of names) {
    const l = latency.get(m) ?? [];
    out.push(`  ${m.padEnd(10)} p50 ${fmt(percentile(l, 50))}  p95 ${fmt(percentile(l, 95))}`);
  }
  out.push(`  query embedding p50 ${fmt(percentile(embedLatency, 50))}  p95 ${fmt(percentile(embedLatency, 95))}`);
  out.push(`indexing: full-text ${Math.round(docs / (ftsMs / 1000))} docs/s; embeddings ${Math.round(docs / (embedMs / 1000))} docs/s`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (values.dump) {
    const lines = (runs.get('full') ?? []).map((r) =>
      JSON.stringify({ sample_id: r.sampleId, question: r.question, category: r.category, evidence: r.gold, retrieved: r.retrieved.slice(0, 50) }),
    );
    writeFileSync(values.dump, `${lines.join('\n')}\n`);
    process.stdout.write(`wrote ${lines.length} lines to ${values.dump}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
