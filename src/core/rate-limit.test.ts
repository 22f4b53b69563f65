import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './rate-limit.js';

describe('TokenBuckets', () => {
  it('lets a burst through, then refuses with the seconds until the next request fits', () => {
    let now = 0;
    const b = new TokenBuckets({ perMinute: 60, burst: 3 }, () => now);
    expect([b.take('a'), b.take('a'), b.take('a')].every((v) => v.ok)).toBe(true);
    expect(b.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(b.take('b').ok).toBe(true);
    now += 1000;
    expect(b.take('a').ok).toBe(true);
    expect(b.take('a').ok).toBe(false);
  });

  it('says a longer wait at a slower rate, and refuses a nonsense limit', () => {
    const b = new TokenBuckets({ perMinute: 2, burst: 1 }, () => 0);
    b.take('a');
    expect(b.take('a')).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect(() => new TokenBuckets({ perMinute: 0, burst: 1 })).toThrow(/perMinute/);
  });
});
