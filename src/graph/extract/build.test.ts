import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseCommand } from '../../capture/map/command.js';
import { tempDir } from '../../test-support/cli.js';
import { TRANSCRIPTS, hasShared } from '../../test-support/shared.js';
import { type TestStore, testStore } from '../../test-support/store.js';
import { hashProvider } from '../../embed/hash.js';
import { Embedder } from '../../search/embeddings.js';
import { queryFacts } from '../temporal.js';
import { graphSessionEnd } from '../session-end.js';
import { buildGraphFromSession } from './build.js';

let store: TestStore;
let project: ReturnType<typeof tempDir>;
beforeEach(() => {
  store = testStore('2026-03-01T12:00:00.000Z');
  project = tempDir('homunculus-project-');
  writeFileSync(
    join(project.path, 'package.json'),
    JSON.stringify({ name: 'shop', dependencies: { zod: '^4.0.0' }, devDependencies: { vitest: '^4.1.0', typescript: '5.9' } }),
  );
  writeFileSync(join(project.path, 'tsconfig.json'), '{}');
  mkdirSync(join(project.path, 'src'));
});
afterEach(() => {
  store.cleanup();
  project.cleanup();
});

let n = 0;
function observe(
  session: string,
  o: { event?: string; tool?: string; input?: string; outcome?: 'ok' | 'error'; error?: string; files?: string[] },
): void {
  n++;
  store.observations.insert({
    source: 'claude-code',
    session_id: session,
    tool_use_id: `t${n}`,
    // A second apart, on the test's clock: a session built days later happened days later.
    ts: new Date(store.clock.now().getTime() + n * 1000).toISOString(),
    event: o.event ?? 'tool',
    project: 'fp-shop',
    cwd: project.path,
    tool: o.tool ?? '',
    input: o.input ?? '',
    files: o.files ?? [],
    outcome: o.outcome ?? 'ok',
    error: o.error ?? '',
    // What capture records for a shell command.
    data: { project_name: 'shop', ...(o.tool === 'Bash' ? { base_command: baseCommand(o.input ?? '') } : {}) },
  });
}

function typicalSession(id: string): void {
  observe(id, { event: 'prompt', input: "Always use named exports. Let's go with Drizzle for the ORM." });
  observe(id, {
    tool: 'Bash',
    input: 'npm test',
    outcome: 'error',
    error: `Error: Cannot find module './cart' imported from ${project.path}/src/app.ts:3:4`,
  });
  observe(id, { tool: 'Edit', input: join(project.path, 'src/cart.ts'), files: [join(project.path, 'src/cart.ts')] });
  observe(id, { tool: 'Bash', input: 'npm test' });
  observe(id, { tool: 'Bash', input: 'git status' });
  observe(id, { tool: 'Bash', input: 'npm install drizzle-orm@0.30' });
  observe(id, { tool: 'Bash', input: 'ls -la' });
}

const facts = () =>
  queryFacts(store)
    .map((f) => `${f.source} ${f.relation} ${f.target}`)
    .sort();

describe('building the graph from a session, deterministically', () => {
  it('extracts stack, tools, files, errors with their fix, preferences and decisions', async () => {
    typicalSession('s1');
    const report = await buildGraphFromSession(store, { sessionId: 's1' });
    expect(report).toMatchObject({
      source: 'observations',
      events: 7,
      manifests: ['package.json'],
      llm: { used: false, reason: 'no model configured' },
    });
    expect(report.project).toMatchObject({ name: 'shop', fingerprint: 'fp-shop', root: project.path });
    expect(facts()).toEqual(
      [
        'npm test: Error: Cannot find module <value> imported from <path>:N solved_by src/cart.ts',
        'shop contains src/cart.ts',
        'shop depends_on drizzle-orm',
        'shop depends_on TypeScript', // the library and the language are one entity
        'shop depends_on vitest',
        'shop depends_on zod',
        'shop uses JavaScript',
        'shop uses TypeScript',
        'shop uses git',
        'shop uses npm',
        'user decided_for Drizzle',
        'user prefers always use named exports',
      ]
        .map((s) => s.replace(' contains ', ' has_component '))
        .sort(),
    );
    const fix = queryFacts(store).find((f) => f.relation === 'solved_by');
    expect(fix).toMatchObject({
      memory_type: 'procedural',
      emotional_weight: 1.5,
      source_session: 's1',
      project: 'fp-shop',
      origin: 'deterministic',
    });
    expect(fix?.description).toMatch(/^When npm test fails with ".*" → edit src\/cart\.ts$/);
    const pref = queryFacts(store).find((f) => f.relation === 'prefers');
    // What the user said in a session belongs to its project: another repository never sees it.
    expect(pref).toMatchObject({ project: 'fp-shop', emotional_weight: 1 });
    const episode = store.graph.episodes.get('s1');
    expect(episode?.facts).toHaveLength(report.facts.length);
    expect(episode?.entities.length).toBeGreaterThan(5);
  });

  it('is idempotent: building the same session again adds nothing', async () => {
    typicalSession('s1');
    await buildGraphFromSession(store, { sessionId: 's1' });
    const count = store.graph.facts.count();
    const again = await buildGraphFromSession(store, { sessionId: 's1' });
    expect(again.actions.created).toBe(0);
    expect(store.graph.facts.count()).toBe(count);
  });

  it('supersedes a changed dependency version and retires a removed dependency', async () => {
    typicalSession('s1');
    await buildGraphFromSession(store, { sessionId: 's1' });
    const zod = queryFacts(store).find((f) => f.target === 'zod');
    store.advanceDays(3);
    writeFileSync(
      join(project.path, 'package.json'),
      JSON.stringify({ dependencies: { zod: '^5.0.0' }, devDependencies: { typescript: '5.9' } }),
    );
    observe('s2', { tool: 'Bash', input: 'npm test' });
    const report = await buildGraphFromSession(store, { sessionId: 's2' });
    expect(report.actions.superseded).toBe(1);
    const replacement = queryFacts(store).find((f) => f.target === 'zod');
    expect(replacement?.description).toBe('shop depends on zod ^5.0.0 (package.json)');
    // True from the session that showed it (its last event), which ends the old version.
    expect(replacement?.valid_at).toMatch(/^2026-03-04T12:00:\d\d\.000Z$/);
    expect(store.graph.facts.get(zod?.id ?? -1)).toMatchObject({ expired_reason: 'superseded', invalid_at: replacement?.valid_at });
    expect(report.retired_dependencies).toHaveLength(1);
    expect(facts()).not.toContain('shop depends_on vitest');
    // the install-only dependency is not the manifest's to retire
    expect(facts()).toContain('shop depends_on drizzle-orm');
  });

  it('runs the lifecycle GC after building when it is due', async () => {
    typicalSession('s1');
    const first = await graphSessionEnd(store, { sessionId: 's1' });
    expect(first.build.actions.created).toBeGreaterThan(0);
    expect(first.gc?.ran).toBe(true);
    const second = await graphSessionEnd(store, { sessionId: 's1' });
    expect(second.gc).toMatchObject({ ran: false });
    expect((await graphSessionEnd(store, { sessionId: 's1', gc: false })).gc).toBeUndefined();
  });

  it('reports an unknown session as empty, and embeds new facts when given an embedder', async () => {
    expect(await buildGraphFromSession(store, { sessionId: 'nope' })).toMatchObject({ source: 'none', events: 0, facts: [] });
    typicalSession('s1');
    const report = await buildGraphFromSession(store, { sessionId: 's1', embedder: new Embedder(store, hashProvider(32)) });
    expect(report.embedded).toBe(report.facts.length);
    const current = queryFacts(store).map((f) => String(f.id));
    expect(store.documents.embeddedCount('facts', current)).toBe(current.length);
  });

  const transcripts = TRANSCRIPTS;
  it.runIf(hasShared('reading a real transcript into the graph'))(
    'reads a real Claude Code transcript when the session has no observations',
    async () => {
      const file = readdirSync(transcripts)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()[0] as string;
      const report = await buildGraphFromSession(store, { sessionId: file.replace('.jsonl', ''), transcriptPath: join(transcripts, file) });
      expect(report.source).toBe('transcript');
      expect(report.events).toBeGreaterThan(10);
      expect(report.facts.length).toBeGreaterThan(0);
      expect(queryFacts(store).some((f) => f.relation === 'uses' && f.target_id > 0)).toBe(true);
    },
  );
});

describe('building the graph with a model', () => {
  it('adds the facts a model extracts and applies its contradictions', async () => {
    typicalSession('s1');
    await buildGraphFromSession(store, { sessionId: 's1' });
    const old = queryFacts(store).find((f) => f.target === 'Drizzle');
    const git = queryFacts(store).find((f) => f.target === 'git');
    observe('s2', { event: 'prompt', input: 'Drizzle is too heavy, switch the ORM to Kysely. We moved the repo to Mercurial.' });
    let seen = '';
    const complete = async (prompt: string) => {
      seen = prompt;
      return JSON.stringify({
        entities: [{ name: 'Kysely', type: 'library' }],
        facts: [
          {
            source: 'user',
            target: 'Kysely',
            relation: 'decided_for',
            description: 'The user switched the shop ORM from Drizzle to Kysely because Drizzle felt too heavy for the project.',
            confidence: 0.9,
          },
        ],
        contradictions: [{ fact_id: git?.id, replaced_by: null, reason: 'moved to Mercurial' }],
      });
    };
    const report = await buildGraphFromSession(store, { sessionId: 's2', complete });
    expect(seen).toContain(`- ${old?.id} | user decided_for Drizzle`);
    expect(seen).toContain('[user] Drizzle is too heavy, switch the ORM to Kysely.');
    expect(report.llm).toMatchObject({ used: true, counts: { not_json: 0 } });
    const kysely = queryFacts(store).find((f) => f.target === 'Kysely');
    expect(kysely).toMatchObject({ origin: 'llm', relation: 'decided_for' });
    // the new decision restates the old one (same single-choice relation, same attribute): superseded on insert
    expect(store.graph.facts.get(old?.id ?? -1)).toMatchObject({ expired_reason: 'superseded', superseded_by: kysely?.id });
    // the explicit contradiction closes its fact in both dimensions
    expect(report.contradicted).toEqual([git?.id]);
    expect(store.graph.facts.get(git?.id ?? -1)).toMatchObject({
      expired_reason: 'contradicted',
      superseded_by: null,
      invalid_at: '2026-03-01T12:00:00.000Z',
    });
  });

  it('harms nothing when the model answers garbage or fails', async () => {
    typicalSession('s1');
    await buildGraphFromSession(store, { sessionId: 's1' });
    const before = facts();
    observe('s2', { event: 'prompt', input: 'hello' });
    for (const answer of [
      'not json',
      '{"facts":[{"source":1}], "contradictions":[{"fact_id":1e9}]}',
      '{"facts":[{"source":"user","target":"zod","relation":"destroys","description":"x"}]}',
    ]) {
      const report = await buildGraphFromSession(store, { sessionId: 's2', complete: async () => answer });
      expect(report.llm.used).toBe(true);
      expect(report.contradicted).toEqual([]);
    }
    const failing = await buildGraphFromSession(store, {
      sessionId: 's2',
      complete: async () => Promise.reject(new Error('HTTP 529 overloaded')),
    });
    expect(failing.llm).toEqual({ used: false, reason: 'model call failed: HTTP 529 overloaded', prompt_tokens: expect.any(Number) });
    expect(facts()).toEqual(before);
    const tiny = await buildGraphFromSession(store, { sessionId: 's2', complete: async () => '{}', tokenBudget: 100 });
    expect(tiny.llm.reason).toMatch(/token budget 100 is too small/);
  });
});
