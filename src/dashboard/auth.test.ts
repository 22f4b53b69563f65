import { describe, expect, it } from 'vitest';
import { LoginGate } from './auth.js';

describe('the dashboard login gate', () => {
  it('trades a login token once for a session in two halves, within ten minutes', () => {
    let now = 1_000_000;
    const gate = new LoginGate(() => now);
    const token = gate.issueLogin();
    const signed = gate.exchange(token);
    expect(signed?.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signed?.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(gate.holds(signed?.session, signed?.key)).toBe(true);
    // Spent: the same link cannot sign in twice.
    expect(gate.exchange(token)).toBeUndefined();
    const late = gate.issueLogin();
    now += 11 * 60_000;
    expect(gate.exchange(late)).toBeUndefined();
  });

  it('takes the cookie alone for nothing but the change stream: a leaked cookie without its key signs nobody in', () => {
    const gate = new LoginGate();
    const signed = gate.exchange(gate.issueLogin());
    const other = gate.exchange(gate.issueLogin());
    expect(gate.holds(signed?.session, undefined)).toBe(false);
    expect(gate.holds(signed?.session, '')).toBe(false);
    expect(gate.holds(signed?.session, other?.key)).toBe(false);
    expect(gate.holds(signed?.session, null)).toBe(true);
  });

  it('refuses what is not a token, and forgets sessions that ended or went idle', () => {
    let now = 0;
    const gate = new LoginGate(() => now);
    for (const bad of [undefined, '', 'undefined', 42, 'x'.repeat(500), { token: 'a' }]) expect(gate.exchange(bad)).toBeUndefined();
    expect(gate.holds(undefined, null)).toBe(false);
    expect(gate.holds('not-a-session', null)).toBe(false);
    const a = gate.exchange(gate.issueLogin());
    const b = gate.exchange(gate.issueLogin());
    gate.end(a?.session);
    expect(gate.holds(a?.session, a?.key)).toBe(false);
    now += 13 * 60 * 60_000;
    expect(gate.holds(b?.session, b?.key)).toBe(false);
  });
});
