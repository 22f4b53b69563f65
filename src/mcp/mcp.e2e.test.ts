/** The instinct MCP contract through the official client over stdio and HTTP. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { type Connected, call, callError, connectHttp, connectStdio, startHttpServer } from '../test-support/mcp.js';
import { MARKER_END, MARKER_START } from '../view/rules.js';

let home: ReturnType<typeof tempDir>;
let repo: string;
let mcp: Connected;

beforeAll(async () => {
  home = tempDir();
  repo = join(home.path, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/widget.git\n');
  mcp = await connectStdio(join(home.path, 'store'), repo);
});
afterAll(async () => {
  await mcp.close();
  home.cleanup();
});

const storeHome = () => join(home.path, 'store');
const SEED_002_TOOLS = [
  'observe',
  'suggest',
  'list_instincts',
  'get_instinct',
  'consolidate',
  'stats',
  'search_instincts',
  'export_rules',
  'alias_pattern',
  'import_patterns',
  'session_summary',
  'detect_chains',
  'effectiveness',
  'trending',
  'export_claude_md',
  'export_skill',
  'inject_claude_md',
  'find_duplicates',
  'import_claude_md',
  'history',
  'export_platform',
  'gc',
  'housekeep',
];
/** Beyond the instinct contract: the rest of the engine's memory. */
const MEMORY_TOOLS = ['memory_context', 'graph_facts', 'memory_search', 'recall_file'];

interface Rec {
  pattern: string;
  confidence: number;
  level: string;
  promoted: number;
  project: string;
  category: string;
  explain: string;
}

describe('tool listing', () => {
  it('lists the tools with annotations, output schemas and short descriptions', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual([...SEED_002_TOOLS, ...MEMORY_TOOLS].sort());
    for (const tool of tools) {
      expect(Buffer.byteLength(tool.description ?? ''), tool.name).toBeLessThan(2048);
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.annotations?.readOnlyHint, tool.name).toBeTypeOf('boolean');
    }
    // A limit of 0 is refused (from 1): the schema says so.
    for (const name of ['list_instincts', 'search_instincts', 'trending']) {
      const limit = (tools.find((t) => t.name === name)?.inputSchema.properties as Record<string, { minimum?: number }>).limit;
      expect(limit?.minimum, name).toBe(1);
    }
    const readOnly = tools
      .filter((t) => t.annotations?.readOnlyHint)
      .map((t) => t.name)
      .sort();
    expect(readOnly).toEqual(
      expect.arrayContaining([
        'export_claude_md',
        'export_platform',
        'export_rules',
        'export_skill',
        'get_instinct',
        'list_instincts',
        'search_instincts',
        'stats',
      ]),
    );
    expect(readOnly).not.toContain('observe');
    expect(mcp.client.getInstructions()).toMatch(/The store holds \d+ patterns/);
  });
});

describe('patterns', () => {
  it('observe creates then reinforces, tagged with the auto-detected project', async () => {
    const first = await call(mcp.client, 'observe', {
      pattern: 'seq:lint->fix->lint',
      explain: 'lint again after a fix',
      source: 'claude-code',
    });
    expect(first).toEqual({ pattern: 'seq:lint->fix->lint', confidence: 1, level: 'seedling', created: true });
    for (let i = 2; i <= 5; i++) {
      expect(await call(mcp.client, 'observe', { pattern: 'seq:lint->fix->lint' })).toMatchObject({ confidence: i, created: false });
    }
    const record = await call<Rec>(mcp.client, 'get_instinct', { pattern: 'seq:lint->fix->lint' });
    expect(record).toMatchObject({
      pattern: 'seq:lint->fix->lint',
      category: 'sequence',
      confidence: 5,
      explain: 'lint again after a fix',
    });
    expect(record.project).toMatch(/^[0-9a-f]{16}$/);
    expect(Object.keys(record).sort()).toEqual(
      [
        'category',
        'confidence',
        'explain',
        'first_seen',
        'last_seen',
        'level',
        'metadata',
        'pattern',
        'project',
        'promoted',
        'source',
      ].sort(),
    );
  });

  it('get_instinct misses with the documented error shape', async () => {
    expect(await call(mcp.client, 'get_instinct', { pattern: 'seq:never-seen' })).toEqual({ error: 'Not found: seq:never-seen' });
  });

  it('suggest returns mature patterns only, compact by default, full on request', async () => {
    await call(mcp.client, 'observe', { pattern: 'fix:only-once' });
    const compact = await call<{ suggestions: unknown[]; count: number; hint: string }>(mcp.client, 'suggest');
    expect(compact.suggestions).toEqual([{ pattern: 'seq:lint->fix->lint', confidence: 5, level: 'raw' }]);
    expect(compact.count).toBe(1);
    expect(compact.hint).toMatch(/get_instinct/);
    // The hint says it in plain words, without the key.
    expect(compact.hint).toContain('- lint again after a fix (seen 5 times, reported by an agent)');
    const full = await call<{ suggestions: Rec[]; hint?: string }>(mcp.client, 'suggest', { compact: false, keyword: 'LINT AGAIN' });
    expect(full.suggestions[0]).toMatchObject({ explain: 'lint again after a fix' });
    expect(full.hint).toBeUndefined();
    expect((await call<{ count: number }>(mcp.client, 'suggest', { keyword: 'nothing-like-this' })).count).toBe(0);
    // A project nobody knows is said to be unknown: what comes back is the global patterns alone.
    const nosuch = await call<{ hint: string }>(mcp.client, 'suggest', { project: 'nosuch' });
    expect(nosuch.hint).toMatch(/^Unknown project "nosuch"\..*These are the global patterns only\./);
    expect((await call<{ hint?: string }>(mcp.client, 'suggest', { project: 'nosuch', compact: false })).hint).toMatch(/Unknown project/);
  });

  it('list_instincts, search_instincts and stats return the documented keys', async () => {
    const list = await call<{ instincts: Rec[]; count: number; hint: string }>(mcp.client, 'list_instincts', { min_confidence: 1 });
    expect(list.instincts.map((r) => r.pattern)).toEqual(['seq:lint->fix->lint', 'fix:only-once']);
    expect(list.hint).toBeTruthy();
    expect((await call<{ count: number }>(mcp.client, 'list_instincts', { min_confidence: 5 })).count).toBe(1);
    const search = await call<{ results: Rec[]; count: number }>(mcp.client, 'search_instincts', { query: 'lint NOT prettier' });
    expect(search.results.map((r) => r.pattern)).toEqual(['seq:lint->fix->lint']);
    expect((await call<{ count: number }>(mcp.client, 'search_instincts', { query: 'only-once(' })).count).toBe(0);
    const stats = await call<{ total: number; raw: number; mature: number; rules: number; universal: number }>(mcp.client, 'stats');
    expect(stats).toMatchObject({ total: 2, raw: 2, mature: 0, rules: 0, universal: 0, max_confidence: 5, avg_confidence: 3 });
    expect(stats.raw + stats.mature + stats.rules + stats.universal).toBe(stats.total);
  });

  it('alias_pattern sums evidence into the target and reports a missing target', async () => {
    for (let i = 0; i < 2; i++) await call(mcp.client, 'observe', { pattern: 'seq:lint -> fix -> lint' });
    expect(await call(mcp.client, 'alias_pattern', { pattern: 'seq:lint -> fix -> lint', target: 'seq:lint->fix->lint' })).toEqual({
      aliased: 'seq:lint -> fix -> lint',
      target: 'seq:lint->fix->lint',
    });
    expect((await call<Rec>(mcp.client, 'get_instinct', { pattern: 'seq:lint->fix->lint' })).confidence).toBe(7);
    expect(await call(mcp.client, 'alias_pattern', { pattern: 'seq:x', target: 'seq:missing' })).toEqual({
      error: "target pattern 'seq:missing' not found",
    });
  });

  it('import_patterns reinforces, raises to a stated count, never lowers, and counts bad rows', async () => {
    const result = await call(mcp.client, 'import_patterns', {
      patterns: [
        { pattern: 'pref:pkg=pnpm', category: 'preference', confidence: 12, explain: 'use pnpm, never npm' },
        { pattern: 'seq:lint->fix->lint', confidence: 3 },
        { pattern: 'combo:pytest+coverage', confidence: 11 },
        { pattern: '' },
        { explain: 'no pattern at all' },
        { pattern: 'nonsense' },
        // A wrongly typed row is skipped alone, with its reason, not the whole call.
        { pattern: 'pref:typed=wrong', confidence: '12' },
      ],
    });
    expect(result).toMatchObject({ imported: 2, updated: 1, errors: 4 });
    expect((result as { hint: string }).hint).toMatch(/^Skipped 4 rows: row 3: .*; row 6: .*evidence.*\. Run consolidate\(\)/);
    expect((await call<Rec>(mcp.client, 'get_instinct', { pattern: 'pref:pkg=pnpm' })).confidence).toBe(12);
    expect((await call<Rec>(mcp.client, 'get_instinct', { pattern: 'seq:lint->fix->lint' })).confidence).toBe(8);
    // Seen twice here, counted up to 6 by an import: the count says part of it was imported.
    for (let i = 0; i < 2; i++) await call(mcp.client, 'observe', { pattern: 'pref:raised=yes', explain: 'raised by an import' });
    await call(mcp.client, 'import_patterns', { patterns: [{ pattern: 'pref:raised=yes', confidence: 6 }] });
    const raised = await call<{ hint: string }>(mcp.client, 'suggest', { keyword: 'raised=yes' });
    expect(raised.hint).toMatch(/raised by an import \(seen 6 times, imported, reported by an agent\)/);
  });
});

describe('exports', () => {
  it('exports nothing until consolidate has made rules, then every format', async () => {
    expect(await call(mcp.client, 'export_rules')).toMatchObject({ rules: [], count: 0 });
    expect(await call(mcp.client, 'export_skill')).toMatchObject({ skill_md: '', rule_count: 0 });
    expect(cli(storeHome(), ['consolidate']).status).toBe(0);
    const rules = await call<{ rules: Rec[]; count: number }>(mcp.client, 'export_rules');
    expect(rules.rules.map((r) => [r.pattern, r.level])).toEqual([
      ['pref:pkg=pnpm', 'rule'],
      ['combo:pytest+coverage', 'rule'],
    ]);
    const md = await call<{ markdown: string; rule_count: number }>(mcp.client, 'export_claude_md');
    expect(md.rule_count).toBe(2);
    expect(md.markdown).toMatch(
      /^- use pnpm, never npm \(said to be seen 12 times, imported, not seen here, reported by an agent\)\n<!-- `pref:pkg=pnpm` \(12\) -->$/m,
    );
    const skill = await call<{ skill_md: string; rule_count: number }>(mcp.client, 'export_skill', { name: 'acme-rules' });
    expect(skill.skill_md).toMatch(/^---\nname: acme-rules\ndescription: Learned patterns from 23 observations\n---/);
    expect(skill.rule_count).toBe(2);
    for (const fmt of ['claude-md', 'cursorrules', 'windsurfrules', 'codex']) {
      const out = await call<{ content: string; format: string; rule_count: number }>(mcp.client, 'export_platform', { fmt });
      expect(out.format).toBe(fmt);
      expect(out.content).toContain('pref:pkg=pnpm');
    }
    const agents = await call<{ content: string }>(mcp.client, 'export_platform', { fmt: 'agents-md' });
    expect(agents.content).toBe((await call<{ content: string }>(mcp.client, 'export_platform', { fmt: 'codex' })).content);
    expect(await callError(mcp.client, 'export_platform', { fmt: 'emacs' })).toMatch(/fmt/);
  });

  it("exports another project's rules when asked by name or fingerprint, and only then", async () => {
    const other = 'bbbbbbbbbbbbbbbb';
    const env = { env: { HOMUNCULUS_NOW: '2026-03-01T00:00:00Z' } };
    expect(
      cli(storeHome(), ['observe', 'pref:api=gh', '--count', '12', '--explain', 'answer PRs with gh api', '--project', other], env).status,
    ).toBe(0);
    expect(cli(storeHome(), ['consolidate'], env).status).toBe(0);
    expect((await call<{ markdown: string }>(mcp.client, 'export_claude_md')).markdown).not.toContain('gh api');
    expect((await call<{ markdown: string }>(mcp.client, 'export_claude_md', { project: other })).markdown).toContain(
      'answer PRs with gh api',
    );
    expect(cli(storeHome(), ['forget', 'pref:api=gh']).status).toBe(0);
  });

  it('inject_claude_md changes only the marked block and is idempotent', async () => {
    const target = join(repo, 'CLAUDE.md');
    writeFileSync(target, '# Widget\n\nKeep this.\n');
    expect(await call(mcp.client, 'inject_claude_md', { target: 'CLAUDE.md' })).toEqual({
      target: 'CLAUDE.md',
      rule_count: 2,
      changed: true,
    });
    expect(await call(mcp.client, 'inject_claude_md', { target: 'CLAUDE.md' })).toEqual({
      target: 'CLAUDE.md',
      rule_count: 2,
      changed: false,
    });
    const text = readFileSync(target, 'utf8');
    expect(text.startsWith('# Widget\n\nKeep this.\n\n')).toBe(true);
    expect(text).toContain(MARKER_START);
    expect(text).toContain(MARKER_END);
    // Reading the block back is the store's own words: nothing counted again, nothing re-explained.
    const before = await call<Rec>(mcp.client, 'get_instinct', { pattern: 'pref:pkg=pnpm' });
    for (let i = 0; i < 2; i++)
      expect(await call(mcp.client, 'import_claude_md', { source: 'CLAUDE.md' })).toEqual({
        imported: 0,
        merged: 0,
        skipped: 2,
        source: 'CLAUDE.md',
      });
    expect(await call<Rec>(mcp.client, 'get_instinct', { pattern: 'pref:pkg=pnpm' })).toEqual(before);
  });

  it('import_claude_md reads backtick patterns with counts and explain text', async () => {
    writeFileSync(
      join(repo, 'RULES.md'),
      '- `fix:null-guard` (6) — guard optional values\n- `weird:thing` skipped\n- `seq:lint->fix->lint` x2\n',
    );
    expect(await call(mcp.client, 'import_claude_md', { source: 'RULES.md' })).toEqual({
      imported: 1,
      merged: 1,
      skipped: 1,
      source: 'RULES.md',
    });
    expect(await call<Rec>(mcp.client, 'get_instinct', { pattern: 'fix:null-guard' })).toMatchObject({
      confidence: 6,
      explain: 'guard optional values',
    });
  });
});

describe('maintenance and insight', () => {
  it('five observations make a pattern mature after consolidate', async () => {
    for (let i = 0; i < 5; i++) await call(mcp.client, 'observe', { pattern: 'fix:missing-await', explain: 'await the promise' });
    expect((await call<Rec>(mcp.client, 'get_instinct', { pattern: 'fix:missing-await' })).level).toBe('raw');
    const result = await call<Record<string, number | string>>(mcp.client, 'consolidate');
    expect(Object.keys(result).sort()).toEqual([
      'chains_created',
      'chains_detected',
      'promoted_to_mature',
      'promoted_to_rule',
      'promoted_to_universal',
      'timestamp',
      'total',
    ]);
    expect(result.promoted_to_mature).toBeGreaterThanOrEqual(1);
    expect(await call<Rec>(mcp.client, 'get_instinct', { pattern: 'fix:missing-await' })).toMatchObject({ level: 'mature', promoted: 1 });
  });

  it('session_summary runs consolidate and reports the documented sections', async () => {
    for (let i = 0; i < 5; i++) await call(mcp.client, 'observe', { pattern: 'combo:vitest+tsc' });
    const summary = await call<{
      session: { patterns_last_24h: number; recent: Rec[] };
      suggestions: { count: number; top: Rec[] };
      stats: { total: number };
      consolidation: { promoted_to_mature: number };
    }>(mcp.client, 'session_summary');
    expect(summary.consolidation.promoted_to_mature).toBeGreaterThanOrEqual(1);
    expect(summary.session.patterns_last_24h).toBeGreaterThanOrEqual(2);
    expect(summary.session.recent.length).toBeLessThanOrEqual(10);
    expect(summary.suggestions.top.length).toBeLessThanOrEqual(5);
    expect(summary.stats.total).toBeGreaterThan(0);
    expect((await call<Rec>(mcp.client, 'get_instinct', { pattern: 'combo:vitest+tsc' })).level).toBe('mature');
  });

  it('suggest logs what it returned and a later observe confirms it (effectiveness)', async () => {
    const before = await call<{ summary: { total_suggested: number; total_confirmed: number } }>(mcp.client, 'effectiveness');
    const { suggestions } = await call<{ suggestions: { pattern: string }[] }>(mcp.client, 'suggest', { keyword: 'missing-await' });
    expect(suggestions.map((s) => s.pattern)).toContain('fix:missing-await');
    await call(mcp.client, 'observe', { pattern: 'fix:missing-await' });
    const after = await call<{
      patterns: { pattern: string; suggested: number; confirmed: number; rate: number }[];
      summary: { total_suggested: number; total_confirmed: number; overall_rate: number; period_days: number };
    }>(mcp.client, 'effectiveness', { days: 30 });
    expect(after.summary.total_suggested).toBe(before.summary.total_suggested + suggestions.length);
    expect(after.summary.total_confirmed).toBe(before.summary.total_confirmed + 1);
    expect(after.summary.period_days).toBe(30);
    expect(after.patterns.find((p) => p.pattern === 'fix:missing-await')).toMatchObject({ confirmed: 1 });
  });

  it('trending, history, find_duplicates and detect_chains return the documented keys', async () => {
    const trend = await call<{ trending: (Rec & { observations_in_period?: number })[]; period_days: number }>(mcp.client, 'trending', {
      days: 1,
      limit: 3,
    });
    expect(trend.period_days).toBe(1);
    expect(trend.trending.length).toBeLessThanOrEqual(3);
    expect(trend.trending[0]?.observations_in_period).toBeGreaterThan(0);
    const hist = await call<{ pattern: string; history: { timestamp: string; delta: number }[]; data_points: number; projects: string[] }>(
      mcp.client,
      'history',
      {
        pattern: 'fix:missing-await',
      },
    );
    expect(hist.pattern).toBe('fix:missing-await');
    expect(hist.data_points).toBe(hist.history.length);
    expect(hist.data_points).toBeGreaterThanOrEqual(6);
    expect(hist.projects).toHaveLength(1);
    expect(await call(mcp.client, 'history', { pattern: 'seq:nope' })).toEqual({ error: 'Not found: seq:nope' });
    await call(mcp.client, 'observe', { pattern: 'fix:missing await' });
    const dups = await call<{ duplicates: { pattern_a: string; pattern_b: string; similarity: number }[]; count: number; hint: string }>(
      mcp.client,
      'find_duplicates',
    );
    expect(dups.duplicates.some((d) => [d.pattern_a, d.pattern_b].sort().join() === 'fix:missing await,fix:missing-await')).toBe(true);
    expect(Object.keys(await call(mcp.client, 'detect_chains', { window_minutes: 5, min_occurrences: 3 })).sort()).toEqual([
      'candidates_seen',
      'chains_created',
      'chains_reinforced',
    ]);
  });

  it('gc and housekeep are the same idempotent maintenance', async () => {
    const first = await call<{ dedup: { applied: number }; fts_rebuilt: boolean }>(mcp.client, 'gc');
    expect(first.dedup.applied).toBeGreaterThanOrEqual(1);
    expect(first.fts_rebuilt).toBe(true);
    const again = await call(mcp.client, 'housekeep', { dedup_threshold: 0.75 });
    // The counts the CLI's gc reports too: observations archived, session files moved.
    expect(again).toEqual({
      decay: { decayed: 0, deleted: 0 },
      dedup: { found: 0, applied: 0 },
      orphans_cleaned: 0,
      fts_rebuilt: true,
      observations: { archived: 0, months_aggregated: 0, signals_trimmed: 0, tallies_forgotten: 0 },
      sessions_archived: 0,
      conversations_forgotten: 0,
    });
    expect(await call(mcp.client, 'gc')).toEqual(again);
    expect(await callError(mcp.client, 'gc', { dedup_threshold: 3 })).toMatch(/dedup_threshold/);
  });
});

describe('memory beyond the instinct contract', () => {
  it('searches every collection with filters and recalls what happened with a file', async () => {
    const hits = await call<{ results: { id: string; collection: string; score: number }[]; count: number }>(mcp.client, 'memory_search', {
      query: 'missing await promise',
      mode: 'bm25',
      collections: ['instincts'],
    });
    expect(hits.results[0]).toMatchObject({ id: 'fix:missing-await', collection: 'instincts' });
    expect(hits.count).toBe(hits.results.length);
    const none = await call<{ count: number }>(mcp.client, 'memory_search', {
      query: 'missing await',
      mode: 'bm25',
      collections: ['sessions'],
    });
    expect(none.count).toBe(0);
    expect(await callError(mcp.client, 'memory_search', { query: 'x', since: 'last tuesday' })).toMatch(
      /since must be an ISO-8601 date or instant/,
    );
    expect(await callError(mcp.client, 'memory_search', { query: 'x', collections: ['passwords'] })).toMatch(/collections/);

    const recall = await call<{ file: string; sessions: unknown[]; episodes: unknown[] }>(mcp.client, 'recall_file', {
      file: 'src/never-touched.ts',
    });
    expect(recall).toEqual({ file: join(repo, 'src', 'never-touched.ts'), sessions: [], episodes: [] });
  });
});

describe('bad input', () => {
  it('answers with a clear error and keeps serving with the store intact', async () => {
    const before = await call<{ total: number }>(mcp.client, 'stats');
    const errors = [
      await callError(mcp.client, 'observe', { pattern: 42 }),
      await callError(mcp.client, 'observe', {}),
      await callError(mcp.client, 'observe', { pattern: 'seq:x', explain: 'y'.repeat(1024 * 1024) }),
      await callError(mcp.client, 'observe', { pattern: 'not-a-key' }),
      await callError(mcp.client, 'list_instincts', { limit: -1 }),
      await callError(mcp.client, 'search_instincts', { query: 'q'.repeat(1024 * 1024) }),
      await callError(mcp.client, 'no_such_tool', {}),
      await callError(mcp.client, 'inject_claude_md', { target: '../../../../etc/homunculus-test.md' }),
      await callError(mcp.client, 'inject_claude_md', { target: '/etc/passwd' }),
      await callError(mcp.client, 'import_claude_md', { source: '../outside.md' }),
      await callError(mcp.client, 'import_claude_md', { source: 'missing.md' }),
      // An argument the tool does not take (`format` where it takes `fmt`) is refused by name, not ignored.
      await callError(mcp.client, 'export_platform', { format: 'bogus' }),
    ];
    expect(errors[0]).toMatch(/pattern/);
    expect(errors[3]).toMatch(/prefix:body/);
    expect(errors[6]).toMatch(/no_such_tool/);
    expect(errors[7]).toMatch(/not a rule file/);
    expect(errors[8]).toMatch(/not a rule file/);
    expect(errors[9]).toMatch(/outside the allowed directories/);
    expect(errors[10]).toMatch(/No such file/);
    for (const e of errors) expect(e.length).toBeGreaterThan(0);
    expect(existsSync('/etc/homunculus-test.md')).toBe(false);
    expect(await call(mcp.client, 'stats')).toEqual(before);
  });

  it('names the allowed values when a choice is not one of them', async () => {
    const wrong = [
      await callError(mcp.client, 'observe', { pattern: 'pref:x=y', category: 'banana' }),
      await callError(mcp.client, 'suggest', { category: 'banana' }),
      await callError(mcp.client, 'memory_search', { query: 'q', mode: 'fuzzy' }),
      await callError(mcp.client, 'memory_search', { query: 'q', collections: ['notes'] }),
      await callError(mcp.client, 'export_platform', { fmt: 'vim' }),
    ];
    expect(wrong[0]).toMatch(/category: must be one of sequence, preference, fix_pattern, combo/);
    expect(wrong[1]).toMatch(/must be one of sequence, preference/);
    expect(wrong[2]).toMatch(/must be one of hybrid, bm25, vector/);
    expect(wrong[3]).toMatch(/must be one of instincts, sessions/);
    expect(wrong[4]).toMatch(/must be one of claude-md, cursorrules, windsurfrules, codex, agents-md/);
    for (const e of wrong) expect(e).not.toMatch(/Invalid input/);
  });
});

describe('a damaged store', () => {
  it('still connects, and the instructions and every tool say what is wrong and the fix', async () => {
    const damaged = join(home.path, 'damaged');
    const store = openStore({ home: damaged });
    store.transaction(() => {
      for (let i = 0; i < 400; i++)
        observe(store, { pattern: `pref:x/rule=r${i}`, trigger: `when rule ${i} applies`, action: 'Do it. '.repeat(40) });
    });
    store.close();
    // Pages in the middle overwritten: SQLite opens the file, then fails reading the instincts.
    const db = join(damaged, 'homunculus.db');
    const bytes = readFileSync(db);
    bytes.fill(0xab, Math.floor(bytes.length / 3), Math.floor(bytes.length / 3) + 64 * 1024);
    writeFileSync(db, bytes);
    const broken = await connectStdio(damaged, repo);
    try {
      expect(broken.client.getInstructions()).toMatch(/^Homunculus cannot read its store: The database file .*homunculus\.db/);
      expect(await callError(broken.client, 'suggest', {})).toMatch(/homunculus\.db.*\(Nothing was changed/);
    } finally {
      await broken.close();
    }
  });
});

describe('Streamable HTTP', () => {
  /** One raw request through node:http, which lets a test set Host and send nothing after the head. */
  const raw = (url: string, headers: Record<string, string>, body?: string, path?: string) =>
    new Promise<number | string>((done) => {
      const target = new URL(url);
      const req = request({ host: target.hostname, port: target.port, path: path ?? target.pathname, method: 'POST', headers }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      // A server that refuses a body mid-way closes the connection: the writer sees EPIPE or a reset.
      req.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
      if (body === undefined) req.flushHeaders();
      else req.end(body);
    });

  it('serves the same tools on 127.0.0.1 to a client holding the token, and refuses everyone else before reading a body', async () => {
    const server = await startHttpServer(storeHome(), repo);
    try {
      const http = await connectHttp(server.url, server.token);
      try {
        expect((await http.client.listTools()).tools.length).toBeGreaterThanOrEqual(14);
        expect(await call(http.client, 'observe', { pattern: 'seq:over-http' })).toMatchObject({ created: true, confidence: 1 });
      } finally {
        await http.close();
      }
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const port = new URL(server.url).port;
      const good = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        host: `127.0.0.1:${port}`,
        authorization: `Bearer ${server.token}`,
      };
      expect(await raw(server.url, { ...good, host: 'evil.example:80' }, body)).toBe(403);
      expect(await raw(server.url, { ...good, origin: 'http://evil.example' }, body)).toBe(403);
      expect(await raw(server.url, { ...good, origin: 'http://localhost:3000' }, body)).toBe(403);
      expect(await raw(server.url, { ...good, authorization: 'Bearer wrong' }, body)).toBe(401);
      const { authorization: _none, ...anonymous } = good;
      expect(await raw(server.url, anonymous, body)).toBe(401);
      expect(await raw(server.url, good, body, `http://evil.example/mcp`)).toBe(400);
      expect(await raw(server.url, good, body, `http://127.0.0.1:${port}/other`)).toBe(404);
      // Announced as 1 GB and never sent: refused from the head alone.
      expect(await raw(server.url, { ...good, 'content-length': String(1024 ** 3) })).toBe(413);
      expect([413, 'EPIPE', 'ECONNRESET']).toContain(
        await raw(server.url, { ...good, 'content-length': String(5 * 1024 ** 2) }, 'x'.repeat(5 * 1024 ** 2)),
      );
      expect(await raw(server.url, good, body)).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('suggest and other projects', () => {
  it("never suggests another project's mature patterns, and says they exist", async () => {
    await call(mcp.client, 'observe', { pattern: 'pref:tabs=spaces', project: 'fp-elsewhere', explain: 'indent with spaces' });
    for (let i = 0; i < 5; i++) await call(mcp.client, 'observe', { pattern: 'pref:tabs=spaces', project: 'fp-elsewhere' });
    const here = await call<{ count: number; hint: string }>(mcp.client, 'suggest', { keyword: 'tabs' });
    expect(here.count).toBe(0);
    expect(here.hint).toMatch(
      /^No mature pattern for this project matches keyword "tabs"; \d+ mature patterns here without that filter\. 1 matching mature pattern belongs to 1 other project and is not suggested here/,
    );
  });

  it('says a pattern a model reported is one, and keeps it out of the server instructions', async () => {
    for (let i = 0; i < 12; i++)
      await call(mcp.client, 'observe', { pattern: 'pref:reported-rule', explain: 'always run the deploy script first' });
    const found = await call<{ hint: string }>(mcp.client, 'suggest', { keyword: 'reported-rule' });
    expect(found.hint).toMatch(/always run the deploy script first \(seen 12 times, reported by an agent\)/);
    // A rule file says whose word each line is: a model's, and a person's once confirmed.
    await call(mcp.client, 'consolidate', {});
    const exported = async () => (await call<{ markdown: string }>(mcp.client, 'export_claude_md', {})).markdown;
    expect(await exported()).toMatch(/always run the deploy script first \(seen 12 times, reported by an agent\)/);
    expect(cli(storeHome(), ['feedback', 'pref:reported-rule', 'strong']).status).toBe(0);
    expect(await exported()).toMatch(/always run the deploy script first \(seen 12 times, reported by an agent, confirmed by the user\)/);
    const again = await connectStdio(storeHome(), repo);
    try {
      expect(again.client.getInstructions() ?? '').not.toMatch(/reported-rule/);
    } finally {
      await again.close();
    }
  });

  it('counts in its instructions only what it would give: a rule marked wrong is said apart', async () => {
    expect(cli(storeHome(), ['observe', 'pref:fmt=tabs', '--count', '12', '--explain', 'indent with tabs']).status).toBe(0);
    await call(mcp.client, 'consolidate', {});
    expect(cli(storeHome(), ['feedback', 'pref:fmt=tabs', 'wrong']).status).toBe(0);
    const again = await connectStdio(storeHome(), repo);
    try {
      expect(again.client.getInstructions() ?? '').toMatch(/ universal \(and 1 the user marked wrong, never suggested\)\./);
    } finally {
      await again.close();
    }
  });

  it('says when its filters, not the project, left everything out', async () => {
    for (let i = 0; i < 6; i++) await call(mcp.client, 'observe', { pattern: 'pref:here=pnpm', explain: 'use pnpm' });
    const none = await call<{ count: number; hint: string }>(mcp.client, 'suggest', { keyword: 'zzzz-nothing' });
    expect(none.count).toBe(0);
    expect(none.hint).toMatch(
      /^No mature pattern for this project matches keyword "zzzz-nothing"; \d+ mature patterns? here without that filter\.$/,
    );
  });

  it('says younger patterns are learned here when none is mature yet, not "nothing yet"', async () => {
    const fresh = await connectStdio(join(home.path, 'young'), repo);
    try {
      for (let i = 0; i < 3; i++) await call(fresh.client, 'observe', { pattern: 'pref:young=uv', explain: 'use uv run pytest' });
      const none = await call<{ count: number; hint: string }>(fresh.client, 'suggest', {});
      expect(none.count).toBe(0);
      expect(none.hint).toMatch(
        /^No mature pattern for this project yet\. 1 younger pattern \(fewer than 5 observations\) is learned here/,
      );
    } finally {
      await fresh.close();
    }
  });
});
