/**
 * People's names as people write them: "Muhammad" for "Muhhamed", "Nebras" for "Nebraas",
 * "Paula" for "Paola". Two spellings are one name when, lower-cased, without accents and with
 * doubled letters made single, they are equal or one edit apart (two for long names). Pure.
 */

/** Lower case, no accents, no doubled letters: "Muhhamed" -> "muhamed". */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/(.)\1+/g, '$1');
}

/** Edit distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length] as number;
}

/** Whether a word someone wrote names this person (their full name or first name). */
export function namesPerson(word: string, person: string): boolean {
  const w = nameKey(word);
  if (w.length < 4) return false;
  for (const part of [person, ...person.split(/\s+/)]) {
    const p = nameKey(part);
    if (p.length < 4) continue;
    if (w === p) return true;
    const allowed = Math.min(w.length, p.length) >= 7 ? 2 : Math.min(w.length, p.length) >= 5 ? 1 : 0;
    if (allowed && editDistance(w, p, allowed) <= allowed) return true;
  }
  return false;
}
