import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, UsageError } from '../core/errors.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { aliasPattern, applyDecay, consolidateLevels, giveFeedback, observe } from './instincts.js';
import { evolve } from './evolve.js';
import { AGENT_REPORT, reportedByAgent } from './records.js';
import { instinctStats } from './stats.js';

let store: TestStore;
beforeEach(() => (store = testStore()));
afterEach(() => store.cleanup());

describe('observe', () => {
  it('creates on first sight at 0.30 and reinforces after, merging on the key', () => {
    const first = observe(store, { pattern: 'pref:pkg=pnpm', explain: 'use pnpm, not npm', source: 'claude-code' });
    expect(first).toMatchObject({ pattern: 'pref:pkg=pnpm', evidence: 1, level: 'raw', created: true, confidence: 0.3 });
    store.advanceDays(1);
    const second = observe(store, { pattern: 'pref:pkg=pnpm' });
    expect(second).toMatchObject({ evidence: 2, created: false, confidence: 0.35 });
    const row = store.instincts.get('pref:pkg=pnpm');
    expect(row).toMatchObject({ category: 'preference', domain: 'general', evidence: 2, explain: 'use pnpm, not npm' });
    expect(row?.last_seen).toBe('2026-01-02T00:00:00.000Z');
    expect(store.instincts.events(row?.id ?? 0).map((e) => e.kind)).toEqual(['create', 'reinforce']);
  });

  it("keeps an agent's later report from relabelling what was seen here, and the label of what an agent brought", () => {
    observe(store, { pattern: 'pref:pkg=pnpm', occurrences: 3, metadata: { examples: ['a'] } });
    observe(store, { pattern: 'pref:pkg=pnpm', metadata: { ...AGENT_REPORT, note: 'x' } });
    expect(JSON.parse(store.instincts.get('pref:pkg=pnpm')?.metadata ?? '{}')).toEqual({ examples: ['a'], note: 'x' });
    observe(store, { pattern: 'pref:agent=said', metadata: { ...AGENT_REPORT } });
    observe(store, { pattern: 'pref:agent=said', metadata: { ...AGENT_REPORT } });
    expect(reportedByAgent(store.instincts.get('pref:agent=said')?.metadata ?? '')).toBe(true);
  });

  it('reports mature at four recent observations thanks to the recency bonus', () => {
    for (let i = 0; i < 3; i++) observe(store, { pattern: 'seq:lint->fix->lint' });
    expect(observe(store, { pattern: 'seq:lint->fix->lint' }).level).toBe('mature');
  });

  it('refuses a category its key prefix contradicts', () => {
    expect(() => observe(store, { pattern: 'fix:null-guard', category: 'preference' })).toThrow(/prefix fix: means fix_pattern/);
    expect(observe(store, { pattern: 'fix:null-guard', category: 'fix_pattern' }).created).toBe(true);
  });

  it('logs what an import states as imported, never as an observation here', () => {
    observe(store, { pattern: 'pref:shared', imported: true });
    observe(store, { pattern: 'pref:shared', imported: true });
    observe(store, { pattern: 'pref:shared' });
    const row = store.instincts.get('pref:shared');
    expect(store.instincts.events(row?.id ?? 0).map((e) => e.kind)).toEqual(['import', 'raise', 'reinforce']);
    expect(store.instincts.provenance([row?.id ?? 0]).get(row?.id ?? 0)).toEqual({
      local_evidence: 1,
      first_local: '2026-01-01T00:00:00.000Z',
      imported: true,
      verdict: null,
      unpromoted_at: null,
    });
  });

  it('rejects keys outside the prefix:body convention and leaves the store untouched', () => {
    for (const bad of ['', 'nocolon', 'weird:thing', 'seq:', ':body', 'seq:\u0000x']) {
      expect(() => observe(store, { pattern: bad })).toThrow(UsageError);
    }
    expect(() => observe(store, { pattern: 'seq:a', domain: 'cooking' as never })).toThrow(/Invalid domain/);
    expect(instinctStats(store).total).toBe(0);
  });
});

describe('an instinct seen in two projects', () => {
  it('belongs to each project it was observed in, though filed under the first, and to no other', () => {
    observe(store, { pattern: 'fix:golangci-wrapcheck', project: 'aaaaaaaaaaaaaaaa', occurrences: 3 });
    observe(store, { pattern: 'fix:golangci-wrapcheck', project: 'bbbbbbbbbbbbbbbb' });
    const keys = (project: string) => store.instincts.list({ project, includeGlobal: true }).map((r) => r.key);
    expect(keys('aaaaaaaaaaaaaaaa')).toEqual(['fix:golangci-wrapcheck']);
    expect(keys('bbbbbbbbbbbbbbbb')).toEqual(['fix:golangci-wrapcheck']);
    expect(keys('cccccccccccccccc')).toEqual([]);
    expect(store.instincts.givenIn(store.instincts.get('fix:golangci-wrapcheck')?.id ?? -1)).toEqual({
      global: false,
      projects: ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'],
    });
    expect(store.instincts.list({ project: '' }).map((r) => r.key)).toEqual([]);
    expect(store.instincts.matchTerms(['wrapcheck'], { project: 'bbbbbbbbbbbbbbbb', limit: 5 }).map((m) => m.row.key)).toEqual([
      'fix:golangci-wrapcheck',
    ]);
  });
});

describe('a pattern filed for every project (a correction the user made)', () => {
  const sighted = (key: string, project: string, session: string) =>
    store.learning.addSighting({ kind: 'pattern', key, project, session_id: session, ts: '2026-02-01T00:00:00Z', detail: '{}' });
  const keys = (project: string) => store.instincts.list({ project, includeGlobal: true }).map((r) => r.key);

  it("belongs to the projects whose sessions showed it, and is global once a second project's showed it again", () => {
    observe(store, { pattern: 'pref:use-pnpm-not-npm', project: '', occurrences: 3 });
    for (const session of ['s1', 's2', 's3']) sighted('pref:use-pnpm-not-npm', 'aaaaaaaaaaaaaaaa', session);
    // Another project's sightings of another pattern change nothing for this one.
    sighted('pref:use-uv-not-pip', 'dddddddddddddddd', 's9');
    expect(keys('aaaaaaaaaaaaaaaa')).toEqual(['pref:use-pnpm-not-npm']);
    expect(keys('bbbbbbbbbbbbbbbb')).toEqual([]);
    expect(store.instincts.matchTerms(['pnpm'], { project: 'bbbbbbbbbbbbbbbb', limit: 5 })).toEqual([]);
    const given = () => store.instincts.givenIn(store.instincts.get('pref:use-pnpm-not-npm')?.id ?? -1);
    // What `get` says: the list filter's rule, not the empty project it is filed under.
    expect(given()).toEqual({ global: false, projects: ['aaaaaaaaaaaaaaaa'] });
    // Said once in a second project: that project's too, not yet every project's (a Python one).
    sighted('pref:use-pnpm-not-npm', 'bbbbbbbbbbbbbbbb', 's4');
    expect(keys('bbbbbbbbbbbbbbbb')).toEqual(['pref:use-pnpm-not-npm']);
    expect(keys('cccccccccccccccc')).toEqual([]);
    expect(given()).toEqual({ global: false, projects: ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'] });
    sighted('pref:use-pnpm-not-npm', 'bbbbbbbbbbbbbbbb', 's5');
    expect(keys('cccccccccccccccc')).toEqual(['pref:use-pnpm-not-npm']);
    expect(given()).toEqual({ global: true, projects: ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'] });
  });

  it('stays global when no sighting names a project (observed by hand, imported, an older store)', () => {
    observe(store, { pattern: 'pref:no-commits-unless-asked', project: '', occurrences: 3 });
    expect(keys('cccccccccccccccc')).toEqual(['pref:no-commits-unless-asked']);
    expect(store.instincts.givenIn(store.instincts.get('pref:no-commits-unless-asked')?.id ?? -1)).toEqual({ global: true, projects: [] });
  });
});

describe('alias', () => {
  it('sums evidence into the target and reroutes later observations', () => {
    for (let i = 0; i < 3; i++) observe(store, { pattern: 'seq:a -> b', project: 'p1' });
    for (let i = 0; i < 4; i++) observe(store, { pattern: 'seq:a->b', project: 'p2' });
    expect(aliasPattern(store, 'seq:a -> b', 'seq:a->b')).toEqual({ aliased: 'seq:a -> b', target: 'seq:a->b', evidence_moved: 3 });
    expect(store.instincts.get('seq:a -> b')).toBeUndefined();
    expect(store.instincts.get('seq:a->b')?.evidence).toBe(7);
    const rerouted = observe(store, { pattern: 'seq:a -> b' });
    expect(rerouted).toMatchObject({ pattern: 'seq:a->b', evidence: 8, aliased_from: 'seq:a -> b' });
  });

  it('refuses a missing target, a self alias and a loop', () => {
    observe(store, { pattern: 'seq:x' });
    observe(store, { pattern: 'seq:y' });
    expect(() => aliasPattern(store, 'seq:x', 'seq:missing')).toThrow(NotFoundError);
    expect(() => aliasPattern(store, 'seq:x', 'seq:x')).toThrow(UsageError);
    aliasPattern(store, 'seq:x', 'seq:y');
    expect(() => aliasPattern(store, 'seq:y', 'seq:x')).toThrow(/already an alias/);
    expect(store.instincts.listAliases()).toHaveLength(1);
    expect(store.instincts.get('seq:y')?.evidence).toBe(2);
  });

  it('takes a target merged into another as that other one, as get finds it', () => {
    observe(store, { pattern: 'seq:x' });
    observe(store, { pattern: 'seq:y' });
    observe(store, { pattern: 'seq:z' });
    aliasPattern(store, 'seq:x', 'seq:y');
    expect(aliasPattern(store, 'seq:z', 'seq:x')).toEqual({ aliased: 'seq:z', target: 'seq:y', evidence_moved: 1 });
    expect(store.instincts.get('seq:y')?.evidence).toBe(3);
  });
});

describe('consolidate levels', () => {
  it('promotes at 5 and 10, makes a rule universal across two projects, never demotes', () => {
    for (let i = 0; i < 5; i++) observe(store, { pattern: 'fix:missing-import', project: 'p1' });
    for (let i = 0; i < 10; i++) observe(store, { pattern: 'combo:pytest+coverage', project: i < 5 ? 'p1' : 'p2' });
    for (let i = 0; i < 10; i++) observe(store, { pattern: 'seq:one-project', project: 'p1' });
    observe(store, { pattern: 'seq:new' });
    store.advanceDays(30);
    const result = consolidateLevels(store);
    expect(result).toEqual({ promoted_to_mature: 3, promoted_to_rule: 2, promoted_to_universal: 1, total: 4 });
    expect(store.instincts.get('fix:missing-import')?.level).toBe(1);
    expect(store.instincts.get('seq:one-project')?.level).toBe(2);
    expect(store.instincts.get('combo:pytest+coverage')?.level).toBe(3);
    expect(store.instincts.get('seq:new')?.level).toBe(0);
    expect(consolidateLevels(store)).toEqual({ promoted_to_mature: 0, promoted_to_rule: 0, promoted_to_universal: 0, total: 4 });
  });
});

describe('decay pass and feedback on the store', () => {
  it('folds and logs decay once per period', () => {
    observe(store, { pattern: 'seq:a', occurrences: 3 });
    store.advanceDays(14);
    expect(applyDecay(store)).toEqual({ decayed: 1, deleted: 0 });
    expect(store.instincts.get('seq:a')?.confidence).toBe(0.4);
    expect(applyDecay(store)).toEqual({ decayed: 0, deleted: 0 });
    store.advanceDays(7);
    applyDecay(store);
    expect(store.instincts.get('seq:a')?.confidence).toBe(0.35);
    const kinds = store.instincts.events(store.instincts.get('seq:a')?.id ?? 0).map((e) => [e.kind, e.delta_confidence]);
    expect(kinds).toEqual([
      ['create', 0.5],
      ['decay', -0.1],
      ['decay', -0.05],
    ]);
  });

  it('applies feedback to the decayed score and logs it', () => {
    observe(store, { pattern: 'seq:a', occurrences: 3 });
    store.advanceDays(7);
    expect(giveFeedback(store, 'seq:a', 'strong')).toEqual({ pattern: 'seq:a', feedback: 'strong', before: 0.45, after: 0.55 });
    // Its score says nothing of a wrong mark (0.20 -> 0.20 when faded): the note says what it did.
    expect(giveFeedback(store, 'seq:a', 'wrong')).toMatchObject({
      after: 0.2,
      note: expect.stringMatching(/^Marked wrong: it is no longer given/),
    });
    // At the floor, weak changes nothing: it says so, and what would.
    expect(giveFeedback(store, 'seq:a', 'weak')).toMatchObject({
      before: 0.2,
      after: 0.2,
      note: expect.stringMatching(/mark it wrong to stop that/),
    });
    expect(giveFeedback(store, 'seq:a', 'strong')).not.toHaveProperty('note');
    expect(() => giveFeedback(store, 'seq:nope', 'weak')).toThrow(NotFoundError);
  });
});

describe('evolve', () => {
  it('promotes an instinct that has earned it, keeps tracking it, and reports it stale after it fades', () => {
    for (let i = 0; i < 6; i++) {
      observe(store, { pattern: 'pref:named-exports', explain: 'Use named exports, never default exports' });
      store.advanceDays(3);
    }
    // 15 days old, last seen 3 days ago, score 0.30 + 5 x 0.05 = 0.55: not yet.
    expect(evolve(store, { promote: true }).promoted).toEqual([]);
    for (let i = 0; i < 4; i++) observe(store, { pattern: 'pref:named-exports' });
    const preview = evolve(store, { promote: false });
    expect(preview.candidates).toHaveLength(1);
    expect(preview.candidates[0]).toMatchObject({ pattern: 'pref:named-exports', eligible: true, confidence: 0.75 });
    expect(store.instincts.get('pref:named-exports')?.promoted_at).toBeNull();

    const done = evolve(store, { promote: true });
    expect(done.promoted).toEqual(['pref:named-exports']);
    expect(evolve(store, { promote: true }).promoted).toEqual([]);
    observe(store, { pattern: 'pref:named-exports' });
    expect(store.instincts.get('pref:named-exports')?.evidence).toBe(11);

    store.advanceDays(7 * 8);
    // 0.80 after the last reinforcement, minus 8 x 0.05: exactly 0.40 is not yet stale.
    expect(evolve(store, { promote: false }).stale).toEqual([]);
    store.advanceDays(7);
    expect(evolve(store, { promote: false }).stale.map((s) => s.confidence)).toEqual([0.35]);
  });
});

describe('search', () => {
  it('finds by FTS5 terms, OR, prefix and NOT, and falls back to substring for unparsable queries', () => {
    observe(store, { pattern: 'seq:lint->fix->lint', explain: 'run eslint after each fix' });
    observe(store, { pattern: 'combo:eslint+prettier', explain: 'format with prettier' });
    observe(store, { pattern: 'fix:missing-import' });
    expect(store.instincts.search('lint').rows.map((r) => r.key)).toEqual(['seq:lint->fix->lint']);
    expect(store.instincts.search('lint OR prettier').rows).toHaveLength(2);
    expect(store.instincts.search('esl*').rows).toHaveLength(2);
    expect(store.instincts.search('eslint NOT prettier').rows.map((r) => r.key)).toEqual(['seq:lint->fix->lint']);
    const fallback = store.instincts.search('missing-import(');
    expect(fallback.mode).toBe('like');
    expect(fallback.rows).toHaveLength(0);
    const substring = store.instincts.search('->fix');
    expect(substring.mode).toBe('like');
    expect(substring.rows.map((r) => r.key)).toEqual(['seq:lint->fix->lint']);
  });
});
