/**
 * A token bucket per client: each holds up to `burst` requests and refills at `perMinute`;
 * a request finding it empty is told how many seconds until the next one fits. Buckets
 * that have refilled are forgotten, so the map stays small. Pure but for the clock it is given.
 */
export interface RateLimit {
  perMinute: number;
  burst: number;
}

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    if (!(limit.perMinute > 0) || !(limit.burst >= 1)) throw new RangeError('perMinute must be > 0 and burst >= 1');
  }

  take(client: string): RateVerdict {
    const now = this.now();
    const perMs = this.limit.perMinute / 60_000;
    const held = this.buckets.get(client);
    const tokens = held ? Math.min(this.limit.burst, held.tokens + (now - held.at) * perMs) : this.limit.burst;
    if (tokens < 1) {
      this.buckets.set(client, { tokens, at: now });
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
    }
    this.buckets.set(client, { tokens: tokens - 1, at: now });
    if (this.buckets.size > 10_000) this.sweep(now, perMs);
    return { ok: true };
  }

  private sweep(now: number, perMs: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (now - b.at) * perMs >= this.limit.burst) this.buckets.delete(k);
  }
}
