/** The correction operations as every surface calls them: their inputs validated once, their changes logged with the source. */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HomunculusError, NotFoundError } from '../core/errors.js';
import { observe } from '../learn/instincts.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact, invalidate, supersede } from './graph.js';
import { alias, edit, feedback, forget, getInstinct } from './instincts.js';
import { promote, unpromote } from './lifecycle.js';
import { InputError, invoke } from './operation.js';

const KEY = 'pref:webapp/test=npm-test';
let store: TestStore;
const ctx = () => ({ store, env: {} });
beforeEach(() => {
  store = testStore('2026-03-01T00:00:00.000Z');
  observe(store, { pattern: KEY, trigger: 'when you run the tests', action: 'Use `npm test`.', occurrences: 4 });
});
afterEach(() => store.cleanup());

const row = () => store.instincts.get(KEY);
const kinds = () => store.instincts.events(row()?.id ?? -1).map((e) => [e.kind, e.source]);

describe('instincts.edit', () => {
  it('refuses an empty trigger, a missing change, an unknown source and text too long, leaving the instinct as it was', () => {
    const stored = row();
    const refused = (input: Record<string, unknown>, message: RegExp) => {
      expect(() => invoke(edit, ctx(), { pattern: KEY, ...input } as never)).toThrow(InputError);
      expect(() => invoke(edit, ctx(), { pattern: KEY, ...input } as never)).toThrow(message);
    };
    refused({ trigger: '   ' }, /^trigger must not be empty/);
    refused({ trigger: 'fine', action: '' }, /^action must not be empty/);
    refused({}, /^none of trigger, action and title was given: give a new trigger, a new action, a title, or some of them\.$/);
    refused({ trigger: 'fine', action: 'x'.repeat(4001) }, /action must be at most 4000 characters/);
    refused({ trigger: 'fine', source: 'attacker' }, /source must be one of cli, mcp, dashboard, user/);
    refused({ trigger: 42 }, /trigger must be text/);
    expect(row()).toEqual(stored);
    expect(kinds()).toEqual([['create', '']]);
  });

  it('says an unknown pattern is not found, and changes nothing', () => {
    expect(() => invoke(edit, ctx(), { pattern: 'pref:nope', trigger: 'when x' })).toThrow(NotFoundError);
    expect(() => invoke(edit, ctx(), { pattern: 'no-prefix', trigger: 'when x' })).toThrow(NotFoundError);
    expect(row()?.trigger).toBe('when you run the tests');
  });

  it('edits and logs the source it was given (user when none is)', () => {
    const r = invoke(edit, ctx(), { pattern: KEY, action: 'Use `npm test -- --run`.', source: 'mcp' });
    expect(r.changed).toEqual(['action', 'title']);
    invoke(edit, ctx(), { pattern: KEY, trigger: 'when the tests run' });
    expect(kinds()).toEqual([
      ['create', ''],
      ['edit', 'mcp'],
      ['edit', 'user'],
    ]);
    // The readable file follows.
    expect(readFileSync(`${store.paths.instincts}/${row()?.file_name}`, 'utf8')).toMatch(/trigger: when the tests run/);
  });
});

describe('the readable convictions file', () => {
  it('lists a conviction the user marked wrong as not injected, and as injected again once marked strong', () => {
    invoke(promote, ctx(), { pattern: KEY, source: 'cli' });
    const file = () => readFileSync(store.paths.convictions, 'utf8');
    expect(file()).toMatch(/Use `npm test`\.$/m);
    invoke(feedback, ctx(), { pattern: KEY, verdict: 'wrong', source: 'cli' });
    expect(file()).toMatch(/Use `npm test`\. _\(marked wrong by the user: not injected\)_$/m);
    invoke(feedback, ctx(), { pattern: KEY, verdict: 'strong', source: 'cli' });
    expect(file()).toMatch(/Use `npm test`\.$/m);
  });
});

describe('the other corrections', () => {
  it('log every change with its source: feedback, promote, unpromote, alias, forget', () => {
    observe(store, { pattern: 'pref:webapp/test=npm-run-test', source: 'observer' });
    invoke(feedback, ctx(), { pattern: KEY, verdict: 'strong', source: 'cli' });
    invoke(promote, ctx(), { pattern: KEY, source: 'dashboard' });
    expect(readFileSync(store.paths.convictions, 'utf8')).toMatch(/Use `npm test`\.$/m);
    invoke(unpromote, ctx(), { pattern: KEY, source: 'dashboard' });
    expect(readFileSync(store.paths.convictions, 'utf8')).not.toMatch(/npm test/);
    invoke(alias, ctx(), { pattern: 'pref:webapp/test=npm-run-test', target: KEY, source: 'mcp' });
    expect(kinds()).toEqual([
      ['create', ''],
      // Moved from the merged instinct (events read in time order; the clock stood still).
      ['create', 'observer'],
      ['feedback', 'cli'],
      ['promote', 'dashboard'],
      ['unpromote', 'dashboard'],
      ['alias', 'mcp'],
    ]);
    const r = invoke(forget, ctx(), { pattern: KEY, source: 'dashboard' });
    expect(r).toMatchObject({ pattern: KEY, evidence: 5, conviction: false });
    expect(row()).toBeUndefined();
    expect(
      store.instincts
        .forgottenEvents(KEY)
        .map((e) => [e.kind, e.source])
        .at(-1),
    ).toEqual(['forget', 'dashboard']);
    expect(() => invoke(forget, ctx(), { pattern: KEY })).toThrow(NotFoundError);
    expect(() => invoke(promote, ctx(), { pattern: KEY })).toThrow(NotFoundError);
  });
});

describe('a key merged into another', () => {
  const OLD = 'pref:webapp/test=npm-run-test';
  beforeEach(() => {
    observe(store, { pattern: OLD, occurrences: 2 });
    invoke(alias, ctx(), { pattern: OLD, target: KEY, source: 'cli' });
  });

  it('is not forgotten through the instinct it lives in: refused, naming that key, and nothing is lost', () => {
    const before = row();
    let refused: unknown;
    try {
      invoke(forget, ctx(), { pattern: OLD, source: 'dashboard' });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(HomunculusError);
    expect((refused as HomunculusError).code).toBe('merged');
    expect((refused as HomunculusError).message).toBe(
      `${OLD} was merged into ${KEY}; forget that key to forget it. Nothing was forgotten.`,
    );
    expect(row()).toEqual(before);
    expect(row()?.evidence).toBe(6);
    expect(invoke(forget, ctx(), { pattern: KEY, source: 'cli' })).toMatchObject({ pattern: KEY, evidence: 6 });
  });

  it('is read and marked through the instinct it lives in, and the answer says so', () => {
    expect(invoke(getInstinct, ctx(), { pattern: OLD })).toMatchObject({ pattern: KEY, aliased_from: OLD });
    expect(invoke(getInstinct, ctx(), { pattern: KEY })).not.toHaveProperty('aliased_from');
    expect(invoke(feedback, ctx(), { pattern: OLD, verdict: 'strong', source: 'cli' })).toMatchObject({ pattern: KEY, aliased_from: OLD });
    expect(invoke(feedback, ctx(), { pattern: KEY, verdict: 'weak', source: 'cli' })).not.toHaveProperty('aliased_from');
  });
});

describe('graph.invalidate and graph.supersede', () => {
  const fact = () =>
    invoke(addFact, ctx(), {
      source: 'webapp',
      sourceType: 'project',
      relation: 'uses',
      target: 'jest',
      targetType: 'library',
      description: 'webapp tests with jest',
    }).fact.id;

  it('retracts a fact (kept, closed as retracted, who did it in its metadata), and only once', () => {
    const id = fact();
    store.advanceDays(1);
    const r = invoke(invalidate, ctx(), { id, by: 'dashboard' });
    expect(r.superseded).toMatchObject({
      id,
      expired_reason: 'retracted',
      expired_at: '2026-03-02T00:00:00.000Z',
      invalid_at: '2026-03-02T00:00:00.000Z',
      superseded_by: null,
    });
    expect(r.superseded.metadata).toMatchObject({ closed_by: 'dashboard' });
    expect(r.replacement).toBeUndefined();
    let closed: unknown;
    try {
      invoke(invalidate, ctx(), { id });
    } catch (err) {
      closed = err;
    }
    expect(closed).toBeInstanceOf(HomunculusError);
    expect((closed as HomunculusError).code).toBe('fact_closed');
    expect(() => invoke(invalidate, ctx(), { id: 999 })).toThrow(NotFoundError);
    expect(() => invoke(invalidate, ctx(), { id: 0 } as never)).toThrow(/id must be a whole number of at least 1/);
  });

  it('supersedes with a replacement, recording who', () => {
    const id = fact();
    const r = invoke(supersede, ctx(), { id, description: 'webapp tests with vitest', target: 'vitest', by: 'cli' });
    expect(r.superseded).toMatchObject({ expired_reason: 'superseded', superseded_by: r.replacement?.fact.id });
    expect(r.superseded.metadata).toMatchObject({ closed_by: 'cli' });
    expect(r.replacement?.fact.target).toBe('vitest');
  });
});
