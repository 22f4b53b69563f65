import { describe, expect, it } from 'vitest';
import { LoginGate } from './auth.js';

describe('the dashboard login gate', () => {
  it('trades a login token once for a session, within ten minutes', () => {
    let now = 1_000_000;
    const gate = new LoginGate(() => now);
    const token = gate.issueLogin();
    const session = gate.exchange(token);
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(gate.holds(session)).toBe(true);
    // Spent: the same link cannot sign in twice.
    expect(gate.exchange(token)).toBeUndefined();
    const late = gate.issueLogin();
    now += 11 * 60_000;
    expect(gate.exchange(late)).toBeUndefined();
  });

  it('refuses what is not a token, and forgets sessions that ended or went idle', () => {
    let now = 0;
    const gate = new LoginGate(() => now);
    for (const bad of [undefined, '', 'undefined', 42, 'x'.repeat(500), { token: 'a' }]) expect(gate.exchange(bad)).toBeUndefined();
    expect(gate.holds(undefined)).toBe(false);
    expect(gate.holds('not-a-session')).toBe(false);
    const a = gate.exchange(gate.issueLogin());
    const b = gate.exchange(gate.issueLogin());
    gate.end(a);
    expect(gate.holds(a)).toBe(false);
    now += 13 * 60 * 60_000;
    expect(gate.holds(b)).toBe(false);
  });
});
