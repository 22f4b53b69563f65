/** The dev transcripts the benches replay, and the checkout they run from. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout this script runs from (it is compiled to a scratch folder, so no fixed depth). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the bench script');
    dir = up;
  }
  return dir;
}

export interface Transcript {
  id: string;
  file: string;
  startedAt: string;
  endedAt: string;
}

/** First and last timestamps of a transcript, read line by line without parsing every record. */
function transcriptSpan(file: string): Pick<Transcript, 'startedAt' | 'endedAt'> {
  const stamps = readFileSync(file, 'utf8').match(/"timestamp":"[^"]+"/g) ?? [];
  const at = (s: string | undefined): string => (s ? s.slice(13, -1) : '');
  const sorted = stamps.map(at).sort();
  return { startedAt: sorted[0] ?? '', endedAt: sorted.at(-1) ?? '' };
}

export function transcripts(dir: string): Transcript[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ id: f.replace(/\.jsonl$/, ''), file: join(dir, f), ...transcriptSpan(join(dir, f)) }));
}
