/**
 * Runs the force layout off the page's thread: the graph stays clickable while it settles.
 * In: the node count and the links as index pairs. Out: positions every few frames' worth
 * of ticks, then once more with `done`.
 */
import { createLayout } from './neural-layout.js';

/** How often positions are sent: often enough to animate, rarely enough to click a node that stands still. */
const POST_EVERY_MS = 150;

interface Job {
  count: number;
  /** Source and target index of each link, flattened. */
  ends: Int32Array;
}

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = (e) => {
  const { count, ends } = e.data;
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < ends.length; i += 2) pairs.push([ends[i] as number, ends[i + 1] as number]);
  const layout = createLayout(count, pairs);
  const post = (done: boolean) => {
    const x = layout.x.slice();
    const y = layout.y.slice();
    scope.postMessage({ x, y, done }, [x.buffer, y.buffer]);
  };
  let last = performance.now();
  while (layout.tick()) {
    if (performance.now() - last < POST_EVERY_MS) continue;
    post(false);
    last = performance.now();
  }
  post(true);
};
