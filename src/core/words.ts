/** Word sets for text similarity (dedup, chunking, restatement). Pure. */

/** Lower-case words of at least `minLength` characters (seed 003: words >= 2 characters). */
export function words(text: string, minLength = 2): Set<string> {
  const out = new Set<string>();
  for (const w of text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u))
    if (w.length >= minLength) out.add(w);
  return out;
}
