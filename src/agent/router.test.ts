import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { BudgetTracker } from './budget.js';
import { DEFAULT_PRICES } from './config.js';
import { ROUTE_OF, type TaskKind, SessionModes, classifyTask, modeCommand, routeMessage } from './router.js';

/** One message per row of seed 001's table, with the route the seed gives it. */
const TABLE: [TaskKind, string, 'local' | 'remote'][] = [
  ['simple_question', 'Is it cold in Lisbon?', 'local'],
  ['tool_dispatch', 'list the files in notes', 'local'],
  ['chat', 'Good morning, nice to talk again', 'local'],
  ['status', 'status', 'local'],
  ['memory_retrieval', 'What do you know about my sister?', 'local'],
  ['heartbeat', '[heartbeat] check HEARTBEAT.md', 'local'],
  ['complex_reasoning', 'Analyze the trade-offs between renting and buying for me', 'remote'],
  ['code', 'Refactor this function to be async', 'remote'],
  ['multi_tool_planning', 'Fetch the weather and then publish it to the kitchen display', 'remote'],
  ['documents', 'Draft a proposal for the garden project', 'remote'],
  ['architecture', 'Sketch the architecture of a home automation hub', 'remote'],
  ['research_synthesis', 'Synthesize the research on intermittent fasting', 'remote'],
];

const auto = (message: string, canEscalate = () => true) => routeMessage({ message, mode: 'auto', remoteConfigured: true, canEscalate });

describe('the router (seed 001)', () => {
  it.each(TABLE)('%s: %j → %s', (kind, message, route) => {
    expect(classifyTask(message)).toBe(kind);
    expect(ROUTE_OF[kind]).toBe(route);
    expect(auto(message)).toMatchObject({ kind, route });
  });

  it('reads "code" as programming, not as a code word, a postal code or a dress code', () => {
    expect(classifyTask('remember the code word PELICAN')).toBe('memory_retrieval');
    expect(classifyTask("what's the postal code of the office?")).toBe('simple_question');
    expect(classifyTask('is there a dress code tonight?')).toBe('simple_question');
    expect(classifyTask('review this code for me')).toBe('code');
    expect(classifyTask('the code fails on startup')).toBe('code');
  });

  it('honours /escalate and /local per session, and /auto returns to the table', () => {
    const modes = new SessionModes();
    modes.set('a', modeCommand('/escalate') ?? 'auto');
    modes.set('b', modeCommand(' /LOCAL ') ?? 'auto');
    expect(routeMessage({ message: 'hi', mode: modes.get('a'), remoteConfigured: true, canEscalate: () => true }).route).toBe('remote');
    expect(
      routeMessage({ message: 'Refactor this code', mode: modes.get('b'), remoteConfigured: true, canEscalate: () => true }).route,
    ).toBe('local');
    expect(modes.get('c')).toBe('auto');
    modes.set('a', modeCommand('/auto') ?? 'escalate');
    expect(modes.get('a')).toBe('auto');
    expect(modeCommand('/escalate now')).toBeUndefined();
  });

  it('keeps the heartbeat local even in a session escalated by hand or by its persona', () => {
    const decision = routeMessage({
      message: '[heartbeat] run the tests',
      mode: 'escalate',
      remoteConfigured: true,
      canEscalate: () => true,
    });
    expect(decision).toMatchObject({ route: 'local', kind: 'heartbeat' });
  });

  it('asks the budget only before escalating, and stays local with a note when none is configured', () => {
    let asked = 0;
    routeMessage({ message: 'hello', mode: 'auto', remoteConfigured: true, canEscalate: () => (asked++, true) });
    expect(asked).toBe(0);
    const none = routeMessage({ message: 'Refactor this code', mode: 'escalate', remoteConfigured: false, canEscalate: () => true });
    expect(none).toMatchObject({ route: 'local' });
    expect(none.note).toMatch(/agent\.remote/);
  });

  describe('with a budget exhausted mid-day', () => {
    let store: TestStore;
    beforeEach(() => (store = testStore()));
    afterEach(() => store.cleanup());

    it('escalates in the morning, falls back to local with a note once spent, and escalates again after UTC midnight', () => {
      let now = new Date('2026-11-26T09:00:00.000Z');
      const budget = new BudgetTracker(store.agentCalls, { dailyUsd: 0.5, prices: DEFAULT_PRICES }, { now: () => now });
      const ask = (message: string, mode: 'auto' | 'escalate' = 'auto') =>
        routeMessage({ message, mode, remoteConfigured: true, canEscalate: () => budget.canEscalate() });
      expect(ask('Refactor this function').route).toBe('remote');
      budget.record({ session: 's', provider: 'anthropic', model: 'c', route: 'remote', inputTokens: 100_000, outputTokens: 20_000 });
      now = new Date('2026-11-26T13:00:00.000Z');
      const spent = ask('Refactor this function');
      expect(spent.route).toBe('local');
      expect(spent.note).toMatch(/budget .* spent/);
      expect(ask('anything', 'escalate').route).toBe('local');
      expect(ask('Is it cold?').note).toBeUndefined();
      now = new Date('2026-11-27T00:00:01.000Z');
      expect(ask('Refactor this function').route).toBe('remote');
    });
  });
});
