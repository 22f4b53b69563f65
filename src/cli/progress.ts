/** A progress bar on stderr, drawn only when stderr is a terminal (pipes and logs stay clean). */

export interface Progress {
  update(done: number, total?: number): void;
  finish(): void;
}

const WIDTH = 30;

export function progressBar(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const enabled = Boolean(stream.isTTY);
  let last = -1;
  let max = total;
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
      if (enabled) draw(done);
    },
    finish() {
      if (enabled && last >= 0) stream.write('\n');
    },
  };
}
