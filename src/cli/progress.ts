/**
 * Progress on stderr: a bar on a terminal; into a pipe or a log, a plain line at most every
 * few seconds (and one at the end), so long work is never silent and never floods.
 */
import type { Progress } from '../app/operation.js';

const WIDTH = 30;
const LINE_EVERY_MS = 5_000;

export function progressBar(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): Progress {
  const tty = Boolean(stream.isTTY);
  let last = -1;
  let lastLine = now();
  let max = total;
  let current = 0;
  const draw = (done: number) => {
    const ratio = max > 0 ? Math.min(1, done / max) : 1;
    const pct = Math.floor(ratio * 100);
    if (pct === last) return;
    last = pct;
    const filled = Math.round(ratio * WIDTH);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(pct).padStart(3)}%`);
  };
  return {
    update(done, newTotal) {
      if (newTotal !== undefined) max = newTotal;
      current = done;
      if (tty) draw(done);
      else if (now() - lastLine >= LINE_EVERY_MS) {
        lastLine = now();
        stream.write(`${label}: ${done}/${max}\n`);
      }
    },
    finish() {
      if (tty && last >= 0) stream.write('\n');
      else if (!tty && now() - lastLine >= LINE_EVERY_MS) stream.write(`${label}: ${current}/${max}\n`);
    },
  };
}
