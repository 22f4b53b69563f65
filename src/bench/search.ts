/**
 * Search engine benchmark on synthetic stores (10k and 100k documents): ingest throughput
 * with and without embeddings, hybrid query latency warm (with and without the query
 * embedding), database size and RSS.
 *
 * Vectors of the big stores are synthetic unit vectors (clustered like sentence
 * embeddings): embedding 100k texts with the bundled encoder takes half an hour here.
 * The real encoder's throughput is measured on a sample, against the raw model.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import { useLiteProvider } from '../embed/use-lite.js';
import { bufferToVector, dot, l2normalize } from '../embed/vector-math.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import { Embedder } from '../search/embeddings.js';
import { search } from '../search/search.js';
import { openStore } from '../store/store.js';
import { formatTable, median, percentile } from './measure.js';
import { ingest, rng, syntheticDocuments, syntheticQueries, syntheticVectors, writeSyntheticVectors } from './synthetic.js';
import { mean } from './metrics.js';

const rssMb = () => process.memoryUsage().rss / 2 ** 20;
/** CPU time of this process (user + system), ms. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface SizeResult {
  docs: number;
  ingestDocsPerSec: number;
  /** Per second of this process's CPU time: what the code costs when the machine is shared. */
  ingestDocsPerCpuSec: number;
  hybridCpuP50: number;
  vectorWriteDocsPerSec: number;
  hybridP50: number;
  hybridP95: number;
  bm25P50: number;
  vectorP50: number;
  withEmbeddingP50: number;
  withEmbeddingP95: number;
  vectorRecall: number;
  dbMb: number;
  rssMb: number;
}

async function benchSize(count: number, provider: EmbeddingProvider, queryCount: number): Promise<SizeResult> {
  const home = mkdtempSync(join(tmpdir(), 'homunculus-search-bench-'));
  const now = new Date('2026-03-01T00:00:00Z');
  const store = openStore({ home, clock: fixedClock(now) });
  try {
    const docs = syntheticDocuments(count);
    let t = performance.now();
    const cpu0 = cpuMs();
    ingest(store, docs, now);
    const ingestDocsPerSec = count / ((performance.now() - t) / 1000);
    const ingestDocsPerCpuSec = count / ((cpuMs() - cpu0) / 1000);

    const embedder = new Embedder(store, provider);
    const vectors = syntheticVectors(count, provider.dims);
    t = performance.now();
    const ids = writeSyntheticVectors(store, embedder, vectors);
    const vectorWriteDocsPerSec = count / ((performance.now() - t) / 1000);

    // Warm: the first query loads the sign codes; synthetic query vectors keep the model out of the timing.
    const qs = syntheticQueries(docs, queryCount);
    // Query vectors sit near one document each, as a paraphrase would.
    const qRandom = rng(99);
    const qvs = Array.from({ length: queryCount }, () => {
      const v = vectors[Math.floor(qRandom() * vectors.length)] as Float32Array;
      return l2normalize(Array.from(v, (x) => x + 0.01 * (qRandom() * 2 - 1)));
    });
    const fake = { embedQuery: async (q: string) => qvs[qs.indexOf(q)] ?? (qvs[0] as Float32Array) };
    const embed = embedder.embedQuery.bind(embedder);
    embedder.embedQuery = (q: string) => fake.embedQuery(q);
    await search(store, embedder, { query: qs[0] ?? 'x', repair: 0 });
    const cpuSamples: number[] = [];
    const timeMode = async (mode: 'hybrid' | 'bm25' | 'vector') => {
      const samples: number[] = [];
      for (const q of qs) {
        const s = performance.now();
        const c = cpuMs();
        await search(store, embedder, { query: q, mode, limit: 10, repair: 0 });
        samples.push(performance.now() - s);
        if (mode === 'hybrid') cpuSamples.push(cpuMs() - c);
      }
      return samples;
    };
    const hybrid = await timeMode('hybrid');
    const bm25 = await timeMode('bm25');
    const vector = await timeMode('vector');
    // With the real query embedding (fresh texts, so the cache cannot answer).
    embedder.embedQuery = embed;
    const withEmbedding: number[] = [];
    for (const [i, q] of qs.slice(0, 50).entries()) {
      const s = performance.now();
      await search(store, embedder, { query: `${q} ${i}`, mode: 'hybrid', limit: 10, repair: 0 });
      withEmbedding.push(performance.now() - s);
    }
    // Recall of the sign-code search against exact cosine over every stored vector.
    const probe = qvs.slice(0, 10);
    const exact = probe.map(() => [] as { id: number; score: number }[]);
    for (let i = 0; i < ids.length; i += 5000) {
      for (const [id, blob] of store.documents.vectors(ids.slice(i, i + 5000), embedder.key)) {
        const v = bufferToVector(blob);
        probe.forEach((qv, j) => exact[j]?.push({ id, score: dot(qv, v) }));
      }
    }
    const vectorRecall = mean(
      probe.map((qv, i) => {
        const truth = new Set(
          (exact[i] ?? [])
            .sort((a, b) => b.score - a.score)
            .slice(0, 10)
            .map((e) => e.id),
        );
        return embedder.index.search(qv, 10).filter((h) => truth.has(h.id)).length / 10;
      }),
    );
    const rss = rssMb();
    // Closing the last connection checkpoints the write-ahead log into the file measured below.
    store.close();
    return {
      docs: count,
      ingestDocsPerSec,
      ingestDocsPerCpuSec,
      hybridCpuP50: median(cpuSamples),
      vectorWriteDocsPerSec,
      hybridP50: median(hybrid),
      hybridP95: percentile(hybrid, 95),
      bm25P50: median(bm25),
      vectorP50: median(vector),
      withEmbeddingP50: median(withEmbedding),
      withEmbeddingP95: percentile(withEmbedding, 95),
      vectorRecall,
      dbMb: statSync(store.paths.db).size / 2 ** 20,
      rssMb: rss,
    };
  } finally {
    store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** The encoder alone vs the encoder inside the store's embedding path, on the same texts. */
async function embeddingThroughput(provider: EmbeddingProvider, count: number): Promise<{ raw: number; pipeline: number }> {
  const docs = syntheticDocuments(count, 21).map((d) => ({ ...d, text: d.text.split(' ').slice(0, 14).join(' ') }));
  await provider.embed(['warm up the model']);
  let t = performance.now();
  for (let i = 0; i < docs.length; i += provider.batchSize) await provider.embed(docs.slice(i, i + provider.batchSize).map((d) => d.text));
  const raw = count / ((performance.now() - t) / 1000);
  const home = mkdtempSync(join(tmpdir(), 'homunculus-embed-bench-'));
  const store = openStore({ home });
  try {
    store.transaction(() => store.documents.upsert(docs, new Date().toISOString()));
    const embedder = new Embedder(store, provider);
    t = performance.now();
    await embedder.syncAll();
    return { raw, pipeline: count / ((performance.now() - t) / 1000) };
  } finally {
    store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function runSearchBench(options: { sizes?: number[]; queries?: number; embedSample?: number } = {}): Promise<string> {
  const sizes = options.sizes ?? [10_000, 100_000];
  const provider = useLiteProvider();
  const rows: SizeResult[] = [];
  for (const size of sizes) rows.push(await benchSize(size, provider, options.queries ?? 200));
  const sample = options.embedSample ?? 512;
  const emb = await embeddingThroughput(provider, sample);
  const f = (n: number) => n.toFixed(2);
  return [
    '## Search engine (synthetic stores)\n',
    formatTable(
      [
        'documents',
        'ingest docs/s (no embeddings)',
        'per CPU-s',
        'vector write docs/s',
        'hybrid p50 ms',
        'CPU ms',
        'hybrid p95 ms',
        'bm25 p50 ms',
        'vector p50 ms',
        'vector recall@10 vs exact',
        'hybrid + query embedding p50 ms',
        'p95 ms',
        'db MiB',
        'RSS MiB',
      ],
      rows.map((r) => [
        String(r.docs),
        Math.round(r.ingestDocsPerSec),
        Math.round(r.ingestDocsPerCpuSec),
        Math.round(r.vectorWriteDocsPerSec),
        f(r.hybridP50),
        f(r.hybridCpuP50),
        f(r.hybridP95),
        f(r.bm25P50),
        f(r.vectorP50),
        f(r.vectorRecall),
        f(r.withEmbeddingP50),
        f(r.withEmbeddingP95),
        r.dbMb.toFixed(1),
        r.rssMb.toFixed(0),
      ]),
    ),
    `\nWall-clock figures depend on what else the machine runs (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end); the CPU columns count this process's own CPU time.`,
    `\nEmbedding throughput (${provider.provider}/${provider.model}, ${sample} short texts, batch ${provider.batchSize}): raw model ${emb.raw.toFixed(1)} texts/s, ` +
      `store pipeline (embed + write) ${emb.pipeline.toFixed(1)} docs/s, ratio ${(emb.raw / emb.pipeline).toFixed(2)}x.`,
  ].join('\n');
}
