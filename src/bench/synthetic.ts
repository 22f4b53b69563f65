/**
 * Synthetic stores for the search benches: documents over a Zipf-distributed made-up
 * vocabulary, unit vectors clustered like sentence embeddings, and queries taken from the
 * documents' own words. Deterministic for a seed.
 */
import { l2normalize } from '../embed/vector-math.js';
import type { Embedder } from '../search/embeddings.js';
import { vectorWrite, writeFingerprint } from '../search/vectors.js';
import type { DocumentInput } from '../store/documents/index.js';
import type { Store } from '../store/store.js';

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ran',
  'te',
  'vo',
  'shi',
  'pen',
  'dor',
  'ul',
  'nex',
  'tri',
  'bal',
  'cor',
  'fen',
  'gul',
  'hap',
  'jin',
  'mor',
  'qua',
];

function vocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf-like pick: a few words are frequent, most are rare. */
const zipf = (random: () => number, n: number) => Math.min(n - 1, Math.floor(Math.exp(random() * Math.log(n + 1)) - 1));

export function syntheticDocuments(count: number, seed = 7): DocumentInput[] {
  const random = rng(seed);
  const vocab = vocabulary(20_000, random);
  const docs: DocumentInput[] = [];
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const len = 12 + Math.floor(random() * 30);
    const words: string[] = [];
    for (let j = 0; j < len; j++) words.push(vocab[zipf(random, vocab.length)] as string);
    if (i % 50 === 0) words.push(`handle_${vocab[i % vocab.length]}Request`);
    docs.push({
      id: `doc-${i}`,
      text: words.join(' '),
      collection: i % 10 === 0 ? 'facts' : 'memories',
      ts: new Date(start + i * 60_000).toISOString(),
      project: `project-${i % 20}`,
      thread: `thread-${Math.floor(i / 20)}`,
      seq: (i % 20) + 1,
    });
  }
  return docs;
}

/**
 * Unit vectors with the structure of sentence embeddings: 64 topics, 32 subtopics each,
 * documents scattered around a subtopic. (Pure noise would make every neighbour equally
 * far, which no text embedding does.)
 */
export function syntheticVectors(count: number, dims: number, seed = 11): Float32Array[] {
  const random = rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const jitter = (base: Float32Array, spread: number) =>
    l2normalize(Array.from({ length: dims }, (_, j) => (base[j] as number) + spread * gauss()));
  const topics = Array.from({ length: 64 }, () => l2normalize(Array.from({ length: dims }, gauss)));
  const subtopics = topics.flatMap((t) => Array.from({ length: 32 }, () => jitter(t, 0.04)));
  return Array.from({ length: count }, () => jitter(subtopics[Math.floor(random() * subtopics.length)] as Float32Array, 0.03));
}

export function syntheticQueries(docs: readonly DocumentInput[], count: number, seed = 3): string[] {
  const random = rng(seed);
  return Array.from({ length: count }, () => {
    const words = (docs[Math.floor(random() * docs.length)] as DocumentInput).text.split(' ');
    const start = Math.floor(random() * Math.max(1, words.length - 4));
    return words.slice(start, start + 2 + Math.floor(random() * 3)).join(' ');
  });
}

/** Writes the documents in transactions of 5,000. */
export function ingest(store: Store, docs: readonly DocumentInput[], now: Date): void {
  for (let i = 0; i < docs.length; i += 5000) store.transaction(() => store.documents.upsert(docs.slice(i, i + 5000), now.toISOString()));
}

/** Stores `vectors` as the embeddings of every document not yet embedded (in id order) under the embedder's fingerprint; returns their ids. */
export function writeSyntheticVectors(store: Store, embedder: Embedder, vectors: readonly Float32Array[]): number[] {
  store.transaction(() => writeFingerprint(store.documents, embedder.fingerprint));
  const ids = store.documents.missingVectorIds(embedder.key);
  for (let i = 0; i < ids.length; i += 5000) {
    store.transaction(() =>
      store.documents.writeVectors(
        embedder.key,
        ids.slice(i, i + 5000).map((id, j) => vectorWrite(id, vectors[i + j] as Float32Array)),
      ),
    );
  }
  return ids;
}
