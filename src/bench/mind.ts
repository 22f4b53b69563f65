/**
 * npm run bench:mind — what recall costs a cycle of the mind (seed 004: N recent plus top K by
 * meaning through our search), beside the baseline every cycle pays anyway: reading the whole
 * memory log. First cycle (the index is built, each memory embedded once) and the median of
 * the next ones (one new memory each), for a log read by BM25 alone and with the bundled encoder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMindIndex } from '../app/mind-recall.js';
import { appendMemory, readMemories } from '../mind/files.js';
import type { Memory } from '../mind/schemas.js';
import { median } from './measure.js';

const WORDS = ['garden', 'compiler', 'lunch', 'train', 'tax', 'test', 'rain', 'music', 'friend', 'book', 'code', 'river', 'coffee', 'bug'];
const clock = { now: () => new Date('2026-03-01T00:00:00Z') };

const memory = (i: number): Memory => ({
  timestamp: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  author: 'self',
  weight: 0.5,
  situation: 'day',
  description: `${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}, note ${i}`,
});

async function measure(n: number, encoder: 'none' | 'use-lite', runs = 7): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'bench-mind-'));
  const data = join(home, 'mind', 'data');
  try {
    for (let i = 0; i < n; i++) appendMemory(data, memory(i));
    const index = await openMindIndex(join(home, 'mind'), home, { HOMUNCULUS_EMBEDDING: encoder }, clock);
    let t = performance.now();
    await index.recaller(readMemories(data), 'the garden and my friend');
    const first = performance.now() - t;
    const next: number[] = [];
    const reads: number[] = [];
    for (let k = 0; k < runs; k++) {
      appendMemory(data, memory(n + k));
      t = performance.now();
      const log = readMemories(data);
      reads.push(performance.now() - t);
      t = performance.now();
      await index.recaller(log, `coffee with a friend ${k}`);
      next.push(performance.now() - t);
    }
    await index.close();
    const r = median(reads);
    return `| ${n.toLocaleString('en')} | ${encoder} | ${first.toFixed(0)} | ${median(next).toFixed(1)} | ${r.toFixed(1)} | ${(median(next) / r).toFixed(1)}x |`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

console.log('| memories | encoder | first cycle ms | next cycles p50 ms | baseline: read the log p50 ms | recall / baseline |');
console.log('|---|---|---|---|---|---|');
for (const [n, encoder] of [
  [1_000, 'none'],
  [10_000, 'none'],
  [2_000, 'use-lite'],
] as const)
  console.log(await measure(n, encoder));
