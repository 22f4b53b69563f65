import { describe, expect, it } from 'vitest';
import { progressBar } from './progress.js';

function sink(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream };
}

describe('progress on stderr', () => {
  it('draws a bar on a terminal, redrawing only when the percentage moves', () => {
    const { written, stream } = sink(true);
    const bar = progressBar('embedding', 200, stream);
    bar.update(1);
    bar.update(1);
    bar.update(100);
    bar.finish();
    expect(written).toEqual([expect.stringContaining('  0%'), expect.stringContaining(' 50%'), '\n']);
    expect(written[1]).toMatch(/^\rembedding \[#{15}-{15}\]/);
  });

  it('writes a plain line into a pipe after a second, then at most every five seconds, and where it ended', () => {
    const { written, stream } = sink(false);
    let t = 0;
    const bar = progressBar('importing transcripts', 0, stream, () => t);
    bar.update(1, 116);
    t = 1_000;
    bar.update(10);
    t = 4_000;
    bar.update(40);
    t = 6_000;
    bar.update(80);
    t = 6_500;
    bar.update(116);
    bar.finish();
    expect(written).toEqual([
      'importing transcripts: 10/116\n',
      'importing transcripts: 80/116\n',
      'importing transcripts: 116/116, done\n',
    ]);
  });

  it('stays silent in a pipe when the work is quick', () => {
    const { written, stream } = sink(false);
    const bar = progressBar('embedding', 3, stream, () => 0);
    bar.update(3);
    bar.finish();
    expect(written).toEqual([]);
  });
});
