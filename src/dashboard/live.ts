/**
 * Live updates: while a page listens, the store's change mark is read every half second (after
 * the hooks' spool is drained into rows), and each listener hears when it moves. Nothing is
 * polled while nobody listens, and a page reloads only what it shows.
 */
import { changes } from '../app/lifecycle.js';
import { type AppContext, invoke } from '../app/operation.js';

export const TICK_MS = 500;

export class LiveChanges {
  private readonly listeners = new Set<(mark: string) => void>();
  private timer: NodeJS.Timeout | undefined;
  private mark = '';

  constructor(private readonly ctx: AppContext) {}

  /** Calls `listener` with each new mark until the returned function is called. */
  listen(listener: (mark: string) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.mark = this.read();
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private read(): string {
    try {
      return invoke(changes, this.ctx, {}).mark;
    } catch {
      // A busy or failing read says nothing changed; the next tick tries again.
      return this.mark;
    }
  }

  private tick(): void {
    const mark = this.read();
    if (mark === this.mark) return;
    this.mark = mark;
    for (const listener of this.listeners) listener(mark);
  }
}
