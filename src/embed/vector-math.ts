/** Vector arithmetic for embeddings: normalisation, dot products, sign-bit codes. Pure. */

export function l2normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  const out = new Float32Array(v.length);
  const norm = Math.sqrt(sum);
  if (norm === 0 || !Number.isFinite(norm)) return out;
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) / norm;
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** Cosine similarity (vectors need not be normalised); vectors of different lengths (two models) are never similar. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  const d = dot(a, b);
  const na = Math.sqrt(dot(a, a));
  const nb = Math.sqrt(dot(b, b));
  return na === 0 || nb === 0 ? 0 : d / (na * nb);
}

/** One bit per dimension (1 when positive), packed little-endian into 32-bit words. */
export function signCode(v: Float32Array): Uint32Array {
  const words = new Uint32Array(Math.ceil(v.length / 32));
  for (let i = 0; i < v.length; i++) {
    if ((v[i] as number) > 0) words[i >>> 5] = (words[i >>> 5] as number) | (1 << (i & 31));
  }
  return words;
}

export function vectorToBuffer(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function bufferToVector(b: Buffer | Uint8Array): Float32Array {
  // Copy: SQLite blobs are not guaranteed to be 4-byte aligned.
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}
