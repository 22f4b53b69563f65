/**
 * Progress on stderr: a bar on a terminal; into a pipe or a log, a plain line at most every
 * few seconds (and one at the end), so long work is never silent and never floods.
 */
import type { Progress } from '../app/operation.js';

const WIDTH = 30;
const LINE_EVERY_MS = 5_000;
const FIRST_LINE_AFTER_MS = 1_000;

export function progressBar(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): Progress {
  const tty = Boolean(stream.isTTY);
  let last = -1;
  // Into a pipe: a first line after a second (quick work stays silent), then one every few seconds.
  let lastLine = now() - LINE_EVERY_MS + FIRST_LINE_AFTER_MS;
  let wrote = false;
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
        wrote = true;
        stream.write(`${label}: ${done}/${max}\n`);
      }
    },
    finish() {
      if (tty && last >= 0) stream.write('\n');
      // Once it has spoken, it says where it ended: the last line was not the end.
      else if (!tty && wrote) stream.write(`${label}: ${current}/${max}, done\n`);
    },
  };
}
