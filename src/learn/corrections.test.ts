/** Corrections by hand: edit, forget (and not learning it again from the same sessions), promote and un-promote. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, UsageError } from '../core/errors.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { type Step, type TempStore, stepRows, tempStores } from '../test-support/learning.js';
import { renderAll } from '../view/render.js';
import { editInstinct, forgetInstinct, forgottenBefore, promoteInstinct, unpromoteInstinct } from './corrections.js';
import { convictionText, evolve, listConvictions } from './evolve.js';
import { history, timeline } from './insight.js';
import { aliasPattern, observe } from './instincts.js';
import { runLearn } from './run.js';

const KEY = 'pref:webapp/test=npm-test';

let store: TestStore;
beforeEach(() => {
  store = testStore('2026-03-01T00:00:00.000Z');
  observe(store, { pattern: KEY, trigger: 'when you run the tests', action: 'Use `npm test`.', occurrences: 4, project: 'p1' });
});
afterEach(() => store.cleanup());

const events = (key = KEY) => store.instincts.events(store.instincts.get(key)?.id ?? -1);

describe('editing an instinct', () => {
  it('rewrites the trigger and action, and the event keeps the old text and who changed it', () => {
    store.advanceDays(1);
    const r = editInstinct(
      store,
      KEY,
      { trigger: '  when you run the\n tests in webapp ', action: 'Use `npm test -- --run`.' },
      'dashboard',
    );
    expect(r).toMatchObject({ pattern: KEY, changed: ['trigger', 'action', 'title'], trigger: 'when you run the tests in webapp' });
    expect(r.before).toEqual({ trigger: 'when you run the tests', action: 'Use `npm test`.', title: 'webapp/test=npm-test' });
    const row = store.instincts.get(KEY);
    expect(row).toMatchObject({ trigger: 'when you run the tests in webapp', action: 'Use `npm test -- --run`.', evidence: 4 });
    const edit = events().find((e) => e.kind === 'edit');
    expect(edit).toMatchObject({ source: 'dashboard', ts: '2026-03-02T00:00:00.000Z', delta_evidence: 0, delta_confidence: 0 });
    expect(JSON.parse(edit?.detail ?? '{}')).toEqual({
      trigger: { from: 'when you run the tests', to: 'when you run the tests in webapp' },
      action: { from: 'Use `npm test`.', to: 'Use `npm test -- --run`.' },
      title: { from: 'webapp/test=npm-test', to: 'when you run the tests in webapp' },
    });
    // Search finds it by its new words, not its old ones.
    expect(store.instincts.search('webapp').rows.map((x) => x.key)).toEqual([KEY]);
    // Learning reinforces it later without touching the user's words.
    observe(store, { pattern: KEY, trigger: 'learned words', action: 'learned action' });
    expect(store.instincts.get(KEY)).toMatchObject({ trigger: 'when you run the tests in webapp', evidence: 5 });
  });

  it('changes one field alone, logs nothing when the text is the same, and refuses empty text or an unknown key', () => {
    expect(editInstinct(store, KEY, { action: 'Use `pnpm test`.' }, 'cli').changed).toEqual(['action', 'title']);
    expect(store.instincts.get(KEY)?.trigger).toBe('when you run the tests');
    expect(editInstinct(store, KEY, { action: ' Use `pnpm test`. ' }, 'cli').changed).toEqual([]);
    expect(events().filter((e) => e.kind === 'edit')).toHaveLength(1);
    expect(() => editInstinct(store, KEY, { trigger: ' \n ' }, 'cli')).toThrow(UsageError);
    expect(() => editInstinct(store, KEY, {}, 'cli')).toThrow(/Nothing to edit/);
    expect(() => editInstinct(store, 'pref:nope', { trigger: 'x y' }, 'cli')).toThrow(NotFoundError);
    expect(store.instincts.get(KEY)).toMatchObject({ trigger: 'when you run the tests', action: 'Use `pnpm test`.' });
  });

  it('carries an edit into the conviction the instinct became', () => {
    promoteInstinct(store, KEY, 'cli');
    editInstinct(store, KEY, { action: 'Use `npm test -- --run`.' }, 'cli');
    expect(listConvictions(store).map((c) => c.rule)).toEqual(['Use `npm test -- --run`.']);
  });

  it('gives the conviction and the instinct a title that says what the edited text says, or the one given', () => {
    const key = 'pref:cli/test=mise-run-test:ci';
    const trigger = 'when you run the tests (ci) in cli';
    observe(store, { pattern: key, title: 'run the tests (ci) with mise run test:ci', trigger, action: 'Run `mise run test:ci`.' });
    promoteInstinct(store, key, 'cli');
    editInstinct(store, key, { action: 'Run `make ci` instead; mise is gone.' }, 'cli');
    const said = () => listConvictions(store).map((c) => convictionText(c));
    // Not "run the tests (ci) with mise run test:ci: Run `make ci` instead; mise is gone."
    expect(said()).toEqual([`${trigger}: Run \`make ci\` instead; mise is gone.`]);
    expect(store.instincts.get(key)?.title).toBe(trigger);
    expect(editInstinct(store, key, { title: 'run the tests (ci) with make ci' }, 'cli').changed).toEqual(['title']);
    expect(said()).toEqual(['run the tests (ci) with make ci: Run `make ci` instead; mise is gone.']);
    expect(store.instincts.get(key)?.title).toBe('run the tests (ci) with make ci');
  });
});

describe('forgetting an instinct', () => {
  it('removes it (and its conviction, search entries and file) but keeps its whole log, ending with the forget', () => {
    promoteInstinct(store, KEY, 'cli');
    renderAll(store);
    const files = () => readdirSync(store.paths.instincts);
    expect(files()).toHaveLength(1);
    const id = store.instincts.get(KEY)?.id ?? -1;
    store.advanceDays(2);
    const r = forgetInstinct(store, KEY, 'dashboard');
    expect(r).toMatchObject({ pattern: KEY, evidence: 4, conviction: true, forgotten_at: '2026-03-03T00:00:00.000Z' });
    renderAll(store);
    expect(store.instincts.get(KEY)).toBeUndefined();
    expect(store.instincts.convictions()).toEqual([]);
    expect(store.instincts.search('tests').rows).toEqual([]);
    expect(files()).toEqual([]);
    expect(readFileSync(store.paths.convictions, 'utf8')).not.toMatch(/npm test/);
    expect(store.instincts.events(id)).toEqual([]);
    const log = store.instincts.forgottenEvents(KEY);
    expect(log.map((e) => e.kind)).toEqual(['create', 'promote', 'forget']);
    expect(log.every((e) => e.instinct_id === null && e.pattern === KEY)).toBe(true);
    const forget = log.at(-1);
    expect(forget).toMatchObject({ source: 'dashboard', project: 'p1', delta_evidence: -4, ts: '2026-03-03T00:00:00.000Z' });
    expect(JSON.parse(forget?.detail ?? '{}')).toMatchObject({
      trigger: 'when you run the tests',
      action: 'Use `npm test`.',
      evidence: 4,
      conviction: true,
    });
    expect(store.instincts.forgottenAt(KEY)).toBe('2026-03-03T00:00:00.000Z');
    expect(() => forgetInstinct(store, KEY, 'cli')).toThrow(NotFoundError);
  });

  it('keeps its log apart from a new instinct that later takes the same key, or one the id is given again', () => {
    forgetInstinct(store, KEY, 'cli');
    observe(store, { pattern: 'seq:other' });
    observe(store, { pattern: KEY });
    expect(events().map((e) => e.kind)).toEqual(['create']);
    expect(events('seq:other').map((e) => e.kind)).toEqual(['create']);
    expect(store.instincts.forgottenEvents(KEY).map((e) => e.kind)).toEqual(['create', 'forget']);
  });

  it('still shows its history by its key once it is gone', () => {
    store.advanceDays(1);
    forgetInstinct(store, KEY, 'dashboard');
    expect(timeline(store, KEY).map((t) => [t.kind, t.source, t.delta_evidence])).toEqual([
      ['create', '', 4],
      ['forget', 'dashboard', -4],
    ]);
    expect(history(store, KEY)).toMatchObject({ pattern: KEY, data_points: 1 });
    expect(() => timeline(store, 'pref:never')).toThrow(NotFoundError);
  });

  it('says which sightings learning must leave out: those at or before the forgetting', () => {
    store.advanceDays(1);
    forgetInstinct(store, KEY, 'cli');
    expect(forgottenBefore(store, KEY, '2026-03-01T12:00:00.000Z')).toBe('2026-03-02T00:00:00.000Z');
    expect(forgottenBefore(store, KEY, '2026-03-02T00:00:00.000Z')).toBe('2026-03-02T00:00:00.000Z');
    expect(forgottenBefore(store, KEY, '2026-03-02T00:00:01.000Z')).toBeUndefined();
    expect(forgottenBefore(store, 'pref:never', '2026-03-01T00:00:00.000Z')).toBeUndefined();
  });
});

describe('promoting and un-promoting by hand', () => {
  it('promotes one instinct now, saying what the rule still asked for, and refuses it twice', () => {
    const r = promoteInstinct(store, KEY, 'dashboard');
    expect(r).toMatchObject({ pattern: KEY, title: 'webapp/test=npm-test', rule: 'Use `npm test`.', eligible: false });
    expect(r.blockers.join('; ')).toMatch(/only 0 days old/);
    expect(store.instincts.get(KEY)?.promoted_at).toBe('2026-03-01T00:00:00.000Z');
    expect(listConvictions(store).map((c) => c.pattern)).toEqual([KEY]);
    const promote = events().find((e) => e.kind === 'promote');
    expect(promote?.source).toBe('dashboard');
    expect(promote?.detail).toMatch(/^promoted to conviction by hand \(the rule would not yet: /);
    expect(JSON.parse(store.identity.get('promotions') ?? '[]')).toEqual(['2026-03-01T00:00:00.000Z']);
    expect(() => promoteInstinct(store, KEY, 'dashboard')).toThrow(/already a conviction/);
  });

  it('un-promotes: the conviction goes, the instinct stays, and evolve does not promote it again on its own', () => {
    for (let i = 0; i < 6; i++) {
      observe(store, { pattern: 'pref:named-exports', explain: 'Use named exports, never default exports' });
      store.advanceDays(3);
    }
    for (let i = 0; i < 4; i++) observe(store, { pattern: 'pref:named-exports' });
    expect(evolve(store, { promote: true }).promoted).toEqual(['pref:named-exports']);
    store.advanceDays(1);
    const r = unpromoteInstinct(store, 'pref:named-exports', 'dashboard');
    expect(r).toMatchObject({ pattern: 'pref:named-exports', title: 'named-exports', rule: 'Use named exports, never default exports' });
    const row = store.instincts.get('pref:named-exports');
    expect(row).toMatchObject({ promoted_at: null, promoted_to: null, evidence: 10 });
    expect(store.instincts.convictions()).toEqual([]);
    expect(events('pref:named-exports').map((e) => [e.kind, e.source])).toContainEqual(['unpromote', 'dashboard']);
    const preview = evolve(store, { promote: true, includeIneligible: true });
    expect(preview.promoted).toEqual([]);
    expect(preview.candidates.find((c) => c.pattern === 'pref:named-exports')?.blockers).toEqual([
      'un-promoted by hand on 2026-03-20 (promote it by hand to make it a conviction again)',
    ]);
    // By hand it becomes one again, and then the rule treats it as any conviction.
    promoteInstinct(store, 'pref:named-exports', 'cli');
    expect(store.instincts.convictions().map((c) => c.pattern)).toEqual(['pref:named-exports']);
    expect(() => unpromoteInstinct(store, KEY, 'cli')).toThrow(/not a conviction/);
    expect(() => unpromoteInstinct(store, 'pref:nope', 'cli')).toThrow(NotFoundError);
  });
});

describe('merging (alias) from a surface', () => {
  it('logs who merged them', () => {
    observe(store, { pattern: 'pref:webapp/test=npm-run-test', source: 'observer' });
    aliasPattern(store, 'pref:webapp/test=npm-run-test', KEY, 'dashboard');
    expect(
      events()
        .filter((e) => e.kind === 'alias')
        .map((e) => [e.source, e.detail]),
    ).toEqual([['dashboard', 'absorbed pref:webapp/test=npm-run-test']]);
  });
});

describe('learning after a forgetting', () => {
  const fresh = tempStores('2026-03-05T12:00:00Z');
  let n = 0;
  /** One finished session of `list` on 2026-03-`day`. */
  function session(t: TempStore, list: Step[], day: number): string {
    const sessionId = `forget-${++n}`;
    const d = String(day).padStart(2, '0');
    for (const row of stepRows([...list], { sessionId, start: `2026-03-${d}T10:00:00Z` })) t.store.observations.insert(row);
    t.store.observations.insert({
      source: 'claude-code',
      session_id: sessionId,
      tool_use_id: 'session_end',
      ts: `2026-03-${d}T11:00:00Z`,
      event: 'session_end',
    });
    return sessionId;
  }
  const PNPM: Step[] = [{ prompt: 'No, use pnpm, not npm.' }, { bash: 'pnpm install' }];
  const LEARNED = 'pref:use-pnpm-not-npm';

  it('does not learn it again from the sessions it came from, nor from older ones, only from three new ones', async () => {
    const t = fresh();
    const old = [session(t, PNPM, 2), session(t, PNPM, 2), session(t, PNPM, 2)];
    await runLearn(t.store);
    expect(t.store.instincts.get(LEARNED)?.evidence).toBe(3);
    forgetInstinct(t.store, LEARNED, 'dashboard');

    // The next run, and a session that was already counted getting more activity (its old observations are mined again).
    expect((await runLearn(t.store)).created).toEqual([]);
    for (const row of stepRows([{ bash: 'ls' }], { sessionId: old[0], start: '2026-03-02T10:30:00Z' }))
      t.store.observations.insert({ ...row, tool_use_id: 'late-1' });
    // Older sessions imported after the forgetting (a transcript import): three of them, as many as made it.
    for (let i = 0; i < 3; i++) session(t, PNPM, 1);
    const again = await runLearn(t.store);
    expect(again.created).toEqual([]);
    expect(again.held.map((h) => h.pattern)).toContain(LEARNED);
    expect(again.held.find((h) => h.pattern === LEARNED)?.reason).toMatch(/^forgotten by hand on 2026-03-05/);
    expect(t.store.instincts.get(LEARNED)).toBeUndefined();

    // What happens afterwards counts: three new sessions teach it again, from nothing.
    const later = t.at('2026-03-09T12:00:00Z');
    session(t, PNPM, 6);
    session(t, PNPM, 7);
    await runLearn(later);
    expect(t.store.instincts.get(LEARNED)).toBeUndefined();
    session(t, PNPM, 8);
    await runLearn(later);
    expect(t.store.instincts.get(LEARNED)?.evidence).toBe(3);
    expect(t.store.instincts.forgottenEvents(LEARNED).at(-1)?.kind).toBe('forget');
  });
});

describe('the readable view after corrections', () => {
  it('writes the edited words into the instinct file', () => {
    editInstinct(store, KEY, { action: 'Use `npm test -- --run`.' }, 'dashboard');
    renderAll(store);
    const [file] = readdirSync(store.paths.instincts);
    const text = readFileSync(join(store.paths.instincts, file ?? ''), 'utf8');
    expect(text).toMatch(/action: Use `npm test -- --run`\./);
    expect(existsSync(store.paths.convictions)).toBe(true);
  });
});
