/**
 * Stored embeddings and the in-memory vector index.
 *
 * Search is two-stage: a scan of 1-bit sign codes (64 bytes a document at 512-d, a few
 * milliseconds for 100k documents) picks candidates by hamming distance, then the exact
 * cosine of the float vectors of those candidates ranks them. Measured at 100k x 512-d on
 * 2 cores: sqlite-vec 0.1.9 vec0 float KNN 90 ms, vec0 bit KNN 20 ms at k=100 and 115 ms
 * at k=500, a JS float scan 85 ms, the JS sign-code scan 4.4 ms (see BENCHMARKS.md).
 */
import { type EmbeddingFingerprint, fingerprintKey } from '../embed/provider.js';
import { bufferToVector, dot, signCode, vectorToBuffer } from '../embed/vector-math.js';
import type { DocumentFilter, DocumentRepository, VectorWrite } from '../store/documents/index.js';

export interface ScoredId {
  id: number;
  score: number;
  /** The document's collection, when the list knows it. */
  collection?: string;
}

export function readFingerprint(documents: DocumentRepository): EmbeddingFingerprint | undefined {
  const value = documents.fingerprint();
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as EmbeddingFingerprint;
  } catch {
    return undefined;
  }
}

export function writeFingerprint(documents: DocumentRepository, fingerprint: EmbeddingFingerprint): void {
  documents.setFingerprint(JSON.stringify(fingerprint));
}

/** What the store keeps of one document's vector: its bytes and its sign code. */
export function vectorWrite(id: number, vector: Float32Array): VectorWrite {
  const code = signCode(vector);
  return { id, code: new Uint8Array(code.buffer, code.byteOffset, code.byteLength), vector: vectorToBuffer(vector) };
}

/**
 * Candidates re-scored exactly per query: enough that the sign-code stage rarely loses a
 * true top-10 neighbour. Reading the candidates' float vectors from SQLite is most of the
 * exact stage (~5 microseconds a row at 100k documents). Measured: 300 candidates for the
 * 100-deep hybrid list cost 1.3 ms, 150 cost 0.7 ms, with LoCoMo recall@10 0.732 vs 0.733.
 */
export function candidateCount(limit: number): number {
  return Math.max(150, Math.ceil(limit * 1.5));
}

interface Loaded {
  generation: number;
  ids: Int32Array;
  codes: Uint32Array;
  /** The first PREFILTER_WORDS words of every code, side by side, for the coarse pass. */
  prefixes: Uint32Array;
  /** 0..n-1: the rows of an unfiltered query, built once. */
  everyRow: Int32Array;
  collection: Uint16Array;
  project: Uint32Array;
  ts: Float64Array;
  collections: string[];
  projects: Map<string, number>;
}

/** Stores larger than this get the 128-bit first pass. */
export const PREFILTER_MIN = 20_000;
const PREFILTER_WORDS = 4;

/** The per-byte bit counts of a 32-bit word; summed over up to 8 words, one multiply then adds the bytes up. */
const popcountBytes = (x: number): number => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (x + (x >>> 4)) & 0x0f0f0f0f;
};

/** Hamming distances between `q` and the first `words` 32-bit words of the codes at `rows`. */
function hammingDistances(codes: Uint32Array, stride: number, words: number, q: Uint32Array, rows: Int32Array): Uint16Array {
  const out = new Uint16Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const o = (rows[r] as number) * stride;
    let d = 0;
    for (let j = 0; j < words; j += 4) {
      let bytes = 0;
      for (let k = j; k < j + 4 && k < words; k++) bytes += popcountBytes((codes[o + k] as number) ^ (q[k] as number));
      d += Math.imul(bytes, 0x01010101) >>> 24;
    }
    out[r] = d;
  }
  return out;
}

/** hammingDistances over the PREFILTER_WORDS-word prefixes, unrolled: the coarse pass visits every row. */
function prefixDistances(prefixes: Uint32Array, q: Uint32Array, rows: Int32Array): Uint16Array {
  const out = new Uint16Array(rows.length);
  const q0 = q[0] as number;
  const q1 = q[1] as number;
  const q2 = q[2] as number;
  const q3 = q[3] as number;
  for (let r = 0; r < rows.length; r++) {
    const o = (rows[r] as number) * PREFILTER_WORDS;
    const bytes =
      popcountBytes((prefixes[o] as number) ^ q0) +
      popcountBytes((prefixes[o + 1] as number) ^ q1) +
      popcountBytes((prefixes[o + 2] as number) ^ q2) +
      popcountBytes((prefixes[o + 3] as number) ^ q3);
    out[r] = Math.imul(bytes, 0x01010101) >>> 24;
  }
  return out;
}

/** The rows whose distance is within the smallest cut-off that keeps at least `wanted` (ties kept). */
function nearest(rows: Int32Array, dist: Uint16Array, maxDist: number, wanted: number): Int32Array {
  if (rows.length <= wanted) return rows;
  const histogram = new Uint32Array(maxDist + 1);
  for (let r = 0; r < dist.length; r++) histogram[dist[r] as number] = (histogram[dist[r] as number] as number) + 1;
  // `seen` ends as the number of rows within the cut-off (all of them when none is reached).
  let cut = 0;
  let seen = 0;
  for (; cut <= maxDist; cut++) {
    seen += histogram[cut] as number;
    if (seen >= wanted) break;
  }
  const out = new Int32Array(seen);
  for (let r = 0, k = 0; r < dist.length; r++) if ((dist[r] as number) <= cut) out[k++] = rows[r] as number;
  return out;
}

/** The sign codes of one fingerprint, reloaded when another writer changed the vectors. */
export class VectorIndex {
  private loaded: Loaded | undefined;
  private readonly words: number;

  constructor(
    private readonly documents: DocumentRepository,
    readonly fingerprint: EmbeddingFingerprint,
  ) {
    this.words = Math.ceil(fingerprint.dims / 32);
  }

  get key(): string {
    return fingerprintKey(this.fingerprint);
  }

  get size(): number {
    return this.ensure().ids.length;
  }

  /** Forget the loaded codes (the next search reloads). */
  invalidate(): void {
    this.loaded = undefined;
  }

  private ensure(): Loaded {
    const generation = this.documents.vectorGeneration();
    if (this.loaded && this.loaded.generation === generation) return this.loaded;
    const rows = this.documents.signCodes(this.key);
    const n = rows.length;
    const ids = new Int32Array(n);
    const codes = new Uint32Array(n * this.words);
    const codeBytes = new Uint8Array(codes.buffer);
    const collection = new Uint16Array(n);
    const project = new Uint32Array(n);
    const ts = new Float64Array(n);
    const collections: string[] = [];
    const projects = new Map<string, number>();
    const collectionIndex = new Map<string, number>();
    rows.forEach(([id, code, coll, proj, at], i) => {
      ids[i] = id;
      codeBytes.set(code.subarray(0, this.words * 4), i * this.words * 4);
      let c = collectionIndex.get(coll);
      if (c === undefined) {
        c = collections.length;
        collections.push(coll);
        collectionIndex.set(coll, c);
      }
      collection[i] = c;
      let p = projects.get(proj);
      if (p === undefined) {
        p = projects.size;
        projects.set(proj, p);
      }
      project[i] = p;
      ts[i] = at ? Date.parse(at) : Number.NaN;
    });
    const prefixes = new Uint32Array(this.words > PREFILTER_WORDS ? n * PREFILTER_WORDS : 0);
    for (let i = 0; i < prefixes.length / PREFILTER_WORDS; i++) {
      prefixes.set(codes.subarray(i * this.words, i * this.words + PREFILTER_WORDS), i * PREFILTER_WORDS);
    }
    const everyRow = new Int32Array(n);
    for (let i = 0; i < n; i++) everyRow[i] = i;
    this.loaded = { generation, ids, codes, prefixes, everyRow, collection, project, ts, collections, projects };
    return this.loaded;
  }

  /** The `limit` nearest documents by cosine similarity, best first. */
  search(query: Float32Array, limit: number, filter: DocumentFilter = {}): ScoredId[] {
    const idx = this.ensure();
    const n = idx.ids.length;
    if (n === 0 || limit <= 0) return [];
    // Per collection index: the documents a scoped collection admits (undefined: all pass).
    const scopes = this.documents.scopedIds(filter);
    const admitted = idx.collections.map((c) => {
      const scope = scopes.find((s) => s.collection === c);
      return scope && new Set(scope.ids);
    });
    const scoped = scopes.length > 0;
    // Filters become flat arrays and numbers, so the per-document check stays cheap.
    let allowed: Uint8Array | undefined;
    if (filter.collections && filter.collections.length > 0) {
      allowed = new Uint8Array(idx.collections.length);
      for (const c of filter.collections) {
        const i = idx.collections.indexOf(c);
        if (i >= 0) allowed[i] = 1;
      }
    }
    const projectId = filter.project !== undefined ? (idx.projects.get(filter.project) ?? -1) : -2;
    const since = filter.since ? Date.parse(filter.since) : Number.NEGATIVE_INFINITY;
    const until = filter.until ? Date.parse(filter.until) : Number.POSITIVE_INFINITY;
    const timed = Boolean(filter.since || filter.until);
    const filtered = allowed !== undefined || projectId !== -2 || timed || scoped;
    const { collection, project, ts } = idx;
    const passes = (i: number): boolean =>
      (allowed === undefined || allowed[collection[i] as number] === 1) &&
      (projectId === -2 || project[i] === projectId) &&
      (!timed || ((ts[i] as number) >= since && (ts[i] as number) <= until)) &&
      (admitted[collection[i] as number]?.has(idx.ids[i] as number) ?? true);
    // Stage 1: hamming distance of sign codes. Past PREFILTER_MIN documents a first pass
    // reads only the first 128 bits, keeping a generous share for the full 512-bit pass.
    const q = signCode(query);
    const w = this.words;
    let rows = idx.everyRow;
    if (filtered) {
      const all = new Int32Array(n);
      let eligible = 0;
      for (let i = 0; i < n; i++) if (passes(i)) all[eligible++] = i;
      rows = all.subarray(0, eligible);
    }
    const eligible = rows.length;
    if (eligible === 0) return [];
    const wanted = Math.min(eligible, candidateCount(limit));
    if (eligible > PREFILTER_MIN && w > PREFILTER_WORDS) {
      const coarse = prefixDistances(idx.prefixes, q, rows);
      rows = nearest(rows, coarse, PREFILTER_WORDS * 32, Math.max(wanted * 20, Math.ceil(eligible / 16)));
    }
    const full = hammingDistances(idx.codes, w, w, q, rows);
    const collectionOf = new Map<number, string>();
    for (const i of nearest(rows, full, w * 32, wanted))
      collectionOf.set(idx.ids[i] as number, idx.collections[collection[i] as number] as string);
    // Stage 2: exact cosine on the stored float vectors of the candidates.
    const scored = this.documents
      .vectors([...collectionOf.keys()], this.key)
      .map(([id, blob]) => ({ id, score: dot(query, bufferToVector(blob)), collection: collectionOf.get(id) }));
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return scored.slice(0, limit);
  }
}
