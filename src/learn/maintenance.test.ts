import { describe, expect, it } from 'vitest';
import { rawDatabase } from '../store/testing.js';
import { NotFoundError } from '../core/errors.js';
import { stepRows, tempStores } from '../test-support/learning.js';
import { effectiveness, history, recordSuggestions, timeline, trending } from './insight.js';
import { aliasPattern, observe } from './instincts.js';
import { consolidate, countChainPairs, detectChains, findDuplicates, housekeep } from './maintenance.js';
import { maintainObservations, toolUsageMonthly } from './tiers.js';

const fresh = tempStores('2026-03-10T12:00:00Z');

describe('find_duplicates and gc/housekeep', () => {
  it('finds near-identical keys, merges them into the one with more evidence, cleans orphans, and is idempotent', () => {
    const t = fresh();
    observe(t.store, { pattern: 'seq:lint->fix', occurrences: 4 });
    observe(t.store, { pattern: 'seq:lint -> fix', occurrences: 1 });
    observe(t.store, { pattern: 'pref:lint->fix' });
    t.store.instincts.setAlias('fix:old', 'fix:gone', '2026-03-01T00:00:00Z');
    expect(findDuplicates(t.store)).toMatchObject({
      count: 1,
      duplicates: [{ pattern_a: 'seq:lint->fix', pattern_b: 'seq:lint -> fix', similarity: 1 }],
    });
    const first = housekeep(t.store);
    expect(first).toEqual({ decay: { decayed: 0, deleted: 0 }, dedup: { found: 1, applied: 1 }, orphans_cleaned: 1, fts_rebuilt: true });
    expect(t.store.instincts.get('seq:lint->fix')?.evidence).toBe(5);
    expect(t.store.instincts.get('seq:lint -> fix')).toBeUndefined();
    expect(t.store.instincts.resolveAlias('seq:lint -> fix')).toBe('seq:lint->fix');
    expect(t.store.instincts.listAliases().map((a) => a.pattern)).toEqual(['seq:lint -> fix']);
    expect(housekeep(t.store)).toEqual({
      decay: { decayed: 0, deleted: 0 },
      dedup: { found: 0, applied: 0 },
      orphans_cleaned: 0,
      fts_rebuilt: true,
    });
  });

  it('never merges across categories or projects, and decays idle instincts once', () => {
    const t = fresh('2026-03-01T00:00:00Z');
    observe(t.store, { pattern: 'fix:missing-import', project: 'a' });
    observe(t.store, { pattern: 'fix:missing-imports', project: 'b' });
    const later = t.at('2026-03-22T00:00:00Z');
    const result = housekeep(later);
    expect(result.dedup).toEqual({ found: 1, applied: 0 });
    expect(result.decay).toEqual({ decayed: 2, deleted: 0 });
    expect(t.store.instincts.get('fix:missing-import')?.confidence).toBe(0.2);
    expect(housekeep(later).decay).toEqual({ decayed: 0, deleted: 0 });
  });

  it('never merges keys that name different values: 3.1 and 3.12, 80 and 8080 each keep their evidence and their own later sightings', () => {
    const t = fresh();
    for (const pattern of ['pref:port=80', 'pref:port=8080', 'pref:python=3.1', 'pref:python=3.12'])
      observe(t.store, { pattern, occurrences: 4 });
    expect(housekeep(t.store).dedup).toEqual({ found: 0, applied: 0 });
    expect(observe(t.store, { pattern: 'pref:python=3.12' })).toMatchObject({ pattern: 'pref:python=3.12', evidence: 5 });
    expect(t.store.instincts.get('pref:port=8080')?.evidence).toBe(4);
  });

  it('moves tallies with the merged key', () => {
    const t = fresh();
    observe(t.store, { pattern: 'fix:a-b', occurrences: 3 });
    observe(t.store, { pattern: 'fix:a b' });
    t.store.learning.addSighting({
      kind: 'pattern',
      key: 'fix:a b',
      project: '',
      session_id: 's1',
      ts: '2026-03-01T00:00:00Z',
      detail: '{}',
    });
    t.store.learning.addSighting({
      kind: 'pattern',
      key: 'fix:a-b',
      project: '',
      session_id: 's1',
      ts: '2026-03-01T00:00:00Z',
      detail: '{}',
    });
    housekeep(t.store);
    const keys = rawDatabase(t.store).prepare('SELECT key, session_id FROM pattern_sightings').all();
    expect(keys).toEqual([{ key: 'fix:a-b', session_id: 's1' }]);
  });
});

describe('detect_chains and consolidate', () => {
  it('counts a pair once per first observation, within the window only', () => {
    const at = (m: number) => Date.parse('2026-03-01T10:00:00Z') + m * 60_000;
    const pairs = countChainPairs(
      [
        { key: 'A', at: at(0) },
        { key: 'B', at: at(2) },
        { key: 'B', at: at(3) },
        { key: 'A', at: at(20) },
        { key: 'B', at: at(26) },
      ],
      5 * 60_000,
    );
    expect([...pairs.values()]).toEqual([{ a: 'A', b: 'B', count: 1 }]);
  });

  it('detects instincts observed one after the other, but creates no chain of instincts (the quality gate refuses them)', () => {
    const t = fresh();
    for (const [i, hour] of ['09', '11', '13'].entries()) {
      observe(t.at(`2026-03-0${i + 1}T${hour}:00:00Z`), { pattern: 'fix:golangci-errcheck' });
      observe(t.at(`2026-03-0${i + 1}T${hour}:03:00Z`), { pattern: 'pref:cli/lint=mise-run-lint' });
    }
    expect(detectChains(t.store)).toEqual({ chains_created: 0, chains_reinforced: 0, candidates_seen: 1, chains_detected: 1 });
    expect(t.store.instincts.list().filter((r) => r.key.startsWith('seq:'))).toEqual([]);
  });

  it('consolidate returns the contract keys and promotes levels', () => {
    const t = fresh();
    observe(t.store, { pattern: 'seq:build->test', occurrences: 10 });
    observe(t.store, { pattern: 'pref:x', occurrences: 5 });
    expect(consolidate(t.store)).toEqual({
      promoted_to_mature: 2,
      promoted_to_rule: 1,
      promoted_to_universal: 0,
      chains_detected: 0,
      chains_created: 0,
      total: 2,
      timestamp: '2026-03-10T12:00:00.000Z',
    });
  });
});

describe('trending, history, effectiveness', () => {
  it('ranks by observations in the window, with a fallback when the window is empty', () => {
    const t = fresh();
    observe(t.at('2026-03-09T00:00:00Z'), { pattern: 'fix:hot', occurrences: 1 });
    for (let i = 0; i < 3; i++) observe(t.at(`2026-03-0${7 + i}T00:00:00Z`), { pattern: 'fix:hot' });
    observe(t.at('2026-01-01T00:00:00Z'), { pattern: 'fix:old', occurrences: 9 });
    const hot = trending(t.store, { days: 7 });
    expect(hot.period_days).toBe(7);
    expect(hot.trending.map((r) => [r.pattern, r.observations_in_period])).toEqual([['fix:hot', 4]]);
    const quiet = trending(t.at('2027-01-01T00:00:00Z'), { days: 1 });
    expect(quiet.trending.map((r) => r.pattern)).toEqual(['fix:old', 'fix:hot']);
    expect(quiet.trending[0]).not.toHaveProperty('observations_in_period');
    expect(() => trending(t.store, { days: 0 })).toThrow(/positive number of days/);
  });

  it('shows a pattern timeline with sources and projects, following aliases', () => {
    const t = fresh();
    observe(t.at('2026-03-01T00:00:00Z'), { pattern: 'fix:x', source: 'claude-code', project: 'p1' });
    observe(t.at('2026-03-05T00:00:00Z'), { pattern: 'fix:x', source: 'codex', project: 'p2', occurrences: 2 });
    t.store.instincts.setAlias('fix:old-x', 'fix:x', '2026-03-05T00:00:00Z');
    expect(history(t.store, 'fix:old-x', { days: 30 })).toEqual({
      pattern: 'fix:x',
      history: [
        { timestamp: '2026-03-01T00:00:00.000Z', source: 'claude-code', project: 'p1', delta: 1 },
        { timestamp: '2026-03-05T00:00:00.000Z', source: 'codex', project: 'p2', delta: 2 },
      ],
      data_points: 2,
      projects: ['p1', 'p2'],
    });
    expect(history(t.store, 'fix:x', { days: 7 }).data_points).toBe(1);
    expect(() => history(t.store, 'fix:nope')).toThrow(NotFoundError);
  });

  it("keeps on a merged instinct's timeline the key each event was recorded under", () => {
    const t = fresh();
    observe(t.at('2026-03-01T00:00:00Z'), { pattern: 'pref:test=npm-test', occurrences: 2 });
    observe(t.at('2026-03-02T00:00:00Z'), { pattern: 'pref:test=npm-test-ci', occurrences: 3 });
    aliasPattern(t.at('2026-03-03T00:00:00Z'), 'pref:test=npm-test-ci', 'pref:test=npm-test');
    const events = timeline(t.store, 'pref:test=npm-test');
    expect(events.map((e) => [e.kind, e.from])).toEqual([
      ['create', ''],
      ['create', 'pref:test=npm-test-ci'],
      ['alias', ''],
    ]);
  });

  it('confirms the most recent unconfirmed suggestion when the pattern is observed again', () => {
    const t = fresh();
    observe(t.at('2026-03-01T00:00:00Z'), { pattern: 'pref:a' });
    observe(t.at('2026-03-01T00:00:00Z'), { pattern: 'pref:b' });
    recordSuggestions(t.at('2026-03-02T00:00:00Z'), ['pref:a', 'pref:b', ' ']);
    recordSuggestions(t.at('2026-03-03T00:00:00Z'), ['pref:a']);
    observe(t.at('2026-03-04T00:00:00Z'), { pattern: 'pref:a' });
    recordSuggestions(t.at('2026-01-01T00:00:00Z'), ['pref:b']);
    const result = effectiveness(t.store, { days: 30 });
    expect(result).toEqual({
      patterns: [
        { pattern: 'pref:a', suggested: 2, confirmed: 1, rate: 0.5 },
        { pattern: 'pref:b', suggested: 1, confirmed: 0, rate: 0 },
      ],
      summary: { total_suggested: 3, total_confirmed: 1, overall_rate: 0.333, period_days: 30 },
    });
    const confirmed = rawDatabase(t.store).prepare('SELECT suggested_at FROM suggestions WHERE confirmed_at IS NOT NULL').all();
    expect(confirmed).toEqual([{ suggested_at: '2026-03-03T00:00:00.000Z' }]);
  });
});

describe('observation tiers', () => {
  it('archives processed observations after 30 days, aggregates their tool usage, and keeps re-imports a no-op', () => {
    const t = fresh('2026-03-10T12:00:00Z');
    const old = stepRows([{ bash: 'mise run lint' }, { edit: 'a.ts' }, { prompt: 'hi' }], {
      sessionId: 'old',
      start: '2026-01-05T10:00:00Z',
    });
    const recent = stepRows([{ bash: 'mise run test' }], { sessionId: 'new', start: '2026-03-09T10:00:00Z' });
    const pendingOld = stepRows([{ bash: 'ls' }], { sessionId: 'late', start: '2026-01-06T10:00:00Z' });
    for (const r of [...old, ...recent, ...pendingOld]) t.store.observations.insert(r);
    const ids = (
      rawDatabase(t.store).prepare("SELECT id FROM observations WHERE session_id IN ('old', 'new')").all() as { id: number }[]
    ).map((r) => r.id);
    t.store.observations.markProcessed(ids, '2026-03-09T12:00:00Z');
    expect(toolUsageMonthly(t.store)).toEqual([
      { month: '2026-01', tools: { Bash: 2, Edit: 1 }, total: 3, topTool: 'Bash' },
      { month: '2026-03', tools: { Bash: 1 }, total: 1, topTool: 'Bash' },
    ]);
    const result = maintainObservations(t.store);
    expect(result).toMatchObject({ archived: 3, months_aggregated: 2 });
    expect(t.store.observations.count()).toBe(2);
    // Same totals after archiving: aggregates plus live rows.
    expect(toolUsageMonthly(t.store)).toEqual([
      { month: '2026-01', tools: { Bash: 2, Edit: 1 }, total: 3, topTool: 'Bash' },
      { month: '2026-03', tools: { Bash: 1 }, total: 1, topTool: 'Bash' },
    ]);
    expect(t.store.observations.insert(old[0] as (typeof old)[number])).toBe(false);
    expect(t.store.observations.count()).toBe(2);
    expect(maintainObservations(t.store)).toMatchObject({ archived: 0, months_aggregated: 0 });
  });

  it('keeps a rolling window of preference signals and forgets tallies that never recurred', () => {
    const t = fresh('2026-09-01T00:00:00Z');
    for (let i = 0; i < 505; i++) {
      t.store.learning.addSignal({
        session_id: `s${i}`,
        ts: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000).toISOString(),
        type: 'explicit',
        signal: 'use pnpm not npm',
        raw: '',
        project: '',
      });
    }
    t.store.learning.addSighting({
      kind: 'pattern',
      key: 'fix:once',
      project: '',
      session_id: 's1',
      ts: '2026-01-01T00:00:00Z',
      detail: '{}',
    });
    t.store.learning.addSighting({
      kind: 'pattern',
      key: 'fix:recent',
      project: '',
      session_id: 's1',
      ts: '2026-08-30T00:00:00Z',
      detail: '{}',
    });
    expect(maintainObservations(t.store)).toMatchObject({ signals_trimmed: 5, tallies_forgotten: 1 });
    const oldest = rawDatabase(t.store).prepare('SELECT MIN(session_id) AS s FROM preference_signals').get() as { s: string };
    expect(oldest.s).not.toBe('s0');
  });
});
