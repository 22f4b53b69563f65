/**
 * The confirmations a surface (the gateway, Telegram) handed out and is waiting for. An id it never handed out,
 * or one past its expiry, is refused before the runner hears of it; an expired one is
 * declined on the person's behalf, so a held dangerous call never runs because nobody came
 * back (Hermes approved when nobody answered).
 */
import type { AgentRunner, PendingConfirmation } from './runner.js';

const LAPSED_KEPT_MS = 3_600_000;

export type Claim = { ok: true } | { ok: false; why: 'unknown' | 'expired' };

export class PendingBook {
  private readonly held = new Map<string, number>();
  /** Ids that expired unanswered, kept an hour so a late answer hears "expired", not "unknown". */
  private readonly lapsed = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly runner: AgentRunner,
    private readonly now: () => number = Date.now,
    sweepMs = 1000,
    /** Told of each id that expired unanswered, so the surface can say so where the question was asked. */
    private readonly onLapse?: (id: string) => void,
  ) {
    this.timer = setInterval(() => this.sweep(), sweepMs);
    this.timer.unref();
  }

  hold(pending: PendingConfirmation | undefined): void {
    if (pending) this.held.set(pending.id, Date.parse(pending.expiresAt));
  }

  /** Takes an id for an answer: each id is answered once, and only before it expires. */
  claim(id: string): Claim {
    const expires = this.held.get(id);
    if (expires === undefined) return { ok: false, why: this.lapsed.has(id) ? 'expired' : 'unknown' };
    this.held.delete(id);
    if (!(expires > this.now())) {
      this.closeUnanswered(id);
      return { ok: false, why: 'expired' };
    }
    return { ok: true };
  }

  get size(): number {
    return this.held.size;
  }

  /** Answers 'no' for every confirmation nobody answered in time. */
  sweep(): void {
    for (const [id, expires] of this.held)
      if (!(expires > this.now())) {
        this.held.delete(id);
        this.lapsed.set(id, expires);
        this.closeUnanswered(id);
        this.onLapse?.(id);
      }
    for (const [id, expired] of this.lapsed) if (this.now() - expired > LAPSED_KEPT_MS) this.lapsed.delete(id);
  }

  /** Declined for want of an answer; the model is not asked now, so no question of its own goes unseen. */
  private closeUnanswered(id: string): void {
    this.runner.confirm(id, 'expired').catch(() => undefined);
  }

  /** Stops the sweep and declines everything still held. */
  close(): void {
    clearInterval(this.timer);
    for (const id of this.held.keys()) this.closeUnanswered(id);
    this.held.clear();
  }
}
