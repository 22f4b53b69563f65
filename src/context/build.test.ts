import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from '../graph/add-fact.js';
import { hashProvider } from '../embed/hash.js';
import { Embedder } from '../search/embeddings.js';
import { CATEGORY_BUDGETS } from './budget.js';
import { buildPromptContext } from './build.js';
import { MEMORY_HEADER } from './fence.js';

let store: TestStore;
beforeEach(() => {
  store = testStore('2026-01-01T00:00:00.000Z');
  const shop = { name: 'shop', type: 'project', properties: { fingerprint: 'fp-shop' } };
  const add = (target: string, type: string, relation: string, description: string, extra: Record<string, unknown> = {}) =>
    addFact(store, { source: shop, target: { name: target, type }, relation, description, project: 'fp-shop', ...extra });
  add('zod', 'library', 'depends_on', 'shop depends on zod ^4.0.0 (package.json)');
  add('TypeScript', 'tool', 'uses', 'shop is written in TypeScript');
  add('p95 latency', 'concept', 'related_to', 'shop checkout p95 latency is 240 ms');
  addFact(store, {
    source: { name: 'npm test: Cannot find module <value>', type: 'error_pattern' },
    target: { name: 'src/cart.ts', type: 'file' },
    relation: 'solved_by',
    description: 'When npm test fails with "Cannot find module" → edit src/cart.ts',
    project: 'fp-shop',
  });
  addFact(store, {
    source: { name: 'user', type: 'person' },
    target: { name: 'named exports', type: 'preference' },
    relation: 'prefers',
    description: 'The user said: always use named exports',
  });
  // another project sharing zod and the user's preference
  const api = { name: 'api', type: 'project', properties: { fingerprint: 'fp-api' } };
  addFact(store, {
    source: api,
    target: { name: 'zod' },
    relation: 'depends_on',
    description: 'api depends on zod ^4.1.0 (package.json)',
    project: 'fp-api',
  });
  addFact(store, {
    source: api,
    target: { name: 'named exports' },
    relation: 'follows_pattern',
    description: 'api follows the named exports pattern',
    project: 'fp-api',
  });
  addFact(store, {
    source: shop,
    target: { name: 'named exports' },
    relation: 'follows_pattern',
    description: 'shop follows the named exports pattern',
    project: 'fp-shop',
  });
  store.sessions.save({
    id: 's0',
    source: 'claude-code',
    project: 'fp-shop',
    project_name: 'shop',
    cwd: '',
    started_at: '2025-12-31T10:00:00Z',
    ended_at: '2025-12-31T11:00:00Z',
    tools_used: '["Edit","Bash"]',
    tool_counts: '{}',
    files_touched: '["src/cart.ts"]',
    summary: 'Fixed the cart import and added tests',
    continues_from: null,
    transcript_path: null,
    file_name: null,
  });
  store.advanceDays(10);
  addFact(store, {
    source: shop,
    target: { name: 'p95 latency' },
    relation: 'related_to',
    description: 'shop checkout p95 latency improved to 180 ms',
    project: 'fp-shop',
  });
  store.advanceDays(5);
});
afterEach(() => store.cleanup());

describe('buildPromptContext', () => {
  it('injects the thread, the task-relevant graph and related projects, and records the access', async () => {
    const ctx = await buildPromptContext(store, { prompt: 'npm test fails again with cannot find module, fix it', project: 'fp-shop' });
    expect(ctx).toMatchObject({ level: 'full', task: 'bugfix', budgets: { graph: 6000, thread: 5000, sections: 400 } });
    expect(ctx.text.startsWith(MEMORY_HEADER)).toBe(true);
    expect(ctx.text).toContain('## Last session\nLast session (2025-12-31): Fixed the cart import and added tests. Files: src/cart.ts');
    expect(ctx.text).toContain('## Knowledge graph (task: bugfix)');
    expect(ctx.text).toMatch(/### errors: .*\n- When npm test fails with "Cannot find module" → edit src\/cart\.ts \(graph #4\)/);
    // shop depends on zod and uses TypeScript; api shares zod (1/2 x 0.6) and the named-exports pattern (+0.4)
    expect(ctx.related).toEqual([{ name: 'api', relevance: 0.7, shared_dependencies: ['zod'], shared_entities: ['named exports'] }]);
    expect(ctx.text).toContain('- api (graph; relevance 0.7: shares zod, named exports)');
    expect(ctx.chars).toBe(ctx.text.length);
    expect(ctx.facts).toContain(4);
    expect(store.graph.accesses.times([4]).get(4)).toHaveLength(2);
    // the other project's facts stay out of this project's graph section
    expect(ctx.text).not.toContain('api: depends on zod');
  });

  it("keeps to the prompt hook's rules when strict: only what was decided, preferred or learned, matching the prompt; no fixes of one error, thread or related projects", async () => {
    const strict = (prompt: string) =>
      buildPromptContext(store, { prompt, project: 'fp-shop', strict: true, recordAccess: false, ignore: ['shop'] });
    const exports = await strict('did the user say named exports or default exports for the cart module of shop?');
    expect(exports.text).toContain('The user said: always use named exports');
    expect(exports.text).not.toContain('## Last session');
    expect(exports.related).toEqual([]);
    expect(exports.text).not.toMatch(/depends on zod|follows the named exports pattern/);
    // The fix of one error is left to the learned fix instincts.
    expect((await strict('npm test fails again with cannot find module, fix it')).text).not.toContain('Cannot find module');
    // One shared word is not enough, and the project's name is not a shared word.
    expect((await strict('rename the exports of shop')).body).toBe('');
  });

  it('leaves out what one session alone showed and errors the prompt does not name, unless it names them', async () => {
    const shop = { name: 'shop', type: 'project', properties: { fingerprint: 'fp-shop' } };
    const seen = (sessions: string[], fact: Parameters<typeof addFact>[1]) => {
      const id = addFact(store, { ...fact, origin: 'deterministic', project: 'fp-shop' }).fact.id;
      for (const s of sessions)
        store.graph.episodes.record({ sourceRef: s, project: 'fp-shop', timestamp: '2026-01-10T00:00:00Z', entityIds: [], factIds: [id] });
    };
    seen(['s1'], { source: shop, target: { name: 'xxd', type: 'tool' }, relation: 'uses', description: 'shop uses the xxd command' });
    seen(['s1', 's2'], {
      source: shop,
      target: { name: 'vitest', type: 'tool' },
      relation: 'uses',
      description: 'shop uses the vitest command',
    });
    seen(['s1'], {
      source: { name: 'npm run: eslint no-unused-vars', type: 'error_pattern' },
      target: { name: 'src/pay.ts', type: 'file' },
      relation: 'solved_by',
      description: 'When npm run fails with "eslint no-unused-vars" → edit src/pay.ts',
    });
    // What a person added stays, one session or none.
    addFact(store, {
      source: shop,
      target: { name: 'hexdump', type: 'tool' },
      relation: 'uses',
      description: 'shop uses the hexdump command',
      project: 'fp-shop',
    });
    const context = async (prompt: string) => (await buildPromptContext(store, { prompt, project: 'fp-shop', recordAccess: false })).text;
    const tests = await context('how do I run the tests with the command we use');
    expect(tests).toContain('uses the vitest command');
    expect(tests).toContain('uses the hexdump command');
    expect(tests).not.toContain('xxd');
    // "run" names the command, not its error.
    expect(tests).not.toContain('no-unused-vars');
    expect(await context('which command dumps hex, xxd?')).toContain('uses the xxd command');
    expect(await context('npm run fails on no-unused-vars again')).toContain('→ edit src/pay.ts');
  });

  it('answers with the current value, and with the old one for a question about the past', async () => {
    const now = await buildPromptContext(store, { prompt: 'what is the checkout p95 latency?', project: 'fp-shop', recordAccess: false });
    expect(now.text).toContain('improved to 180 ms');
    expect(now.text).not.toContain('240 ms');
    const past = await buildPromptContext(store, {
      prompt: 'what was the checkout p95 latency on 2026-01-05?',
      project: 'fp-shop',
      recordAccess: false,
    });
    expect(past.time?.at).toBe('2026-01-05T23:59:59.999Z');
    expect(past.text).toContain('(task: question; as true on 2026-01-05)');
    expect(past.text).toContain('240 ms');
    expect(past.text).not.toContain('180 ms');
  });

  it('shrinks with the context used: reduced, minimal (no graph), emergency (nothing)', async () => {
    const reduced = await buildPromptContext(store, { prompt: 'add a coupon field with zod', project: 'fp-shop', contextUsedPct: 70 });
    expect(reduced).toMatchObject({ level: 'reduced', budgets: { graph: 4200, thread: 2500, sections: 280 } });
    expect(reduced.chunks.length).toBeGreaterThan(0);
    const minimal = await buildPromptContext(store, { prompt: 'add a coupon field with zod', project: 'fp-shop', contextUsedPct: 85 });
    expect(minimal).toMatchObject({ level: 'minimal', chunks: [], facts: [] });
    expect(minimal.thread?.length).toBeLessThanOrEqual(500);
    expect(minimal.text).not.toContain('Knowledge graph');
    const emergency = await buildPromptContext(store, { prompt: 'add a coupon field with zod', project: 'fp-shop', contextUsedPct: 95 });
    expect(emergency).toMatchObject({ level: 'emergency', text: '', chars: 0 });
    expect(emergency.thread).toBeUndefined();
  });

  it('keeps every category within its budget and the graph within min(6000, 15% remaining)', async () => {
    for (let i = 0; i < 150; i++) {
      addFact(store, {
        source: { name: 'shop' },
        target: { name: `lib${i}`, type: 'library' },
        relation: 'depends_on',
        description: `shop depends on lib${i} ^${i}.0.0 for checkout feature number ${i} with padding text`,
        project: 'fp-shop',
      });
      addFact(store, {
        source: { name: `err${i}`, type: 'error_pattern' },
        target: { name: `file${i}.ts`, type: 'file' },
        relation: 'solved_by',
        description: `When checkout build ${i} fails → edit file${i}.ts and rerun the checkout suite`,
        project: 'fp-shop',
      });
    }
    for (const used of [0, 70]) {
      const ctx = await buildPromptContext(store, {
        prompt: 'fix the checkout build failure in the checkout feature',
        project: 'fp-shop',
        contextUsedPct: used,
        recordAccess: false,
      });
      const graph = ctx.chunks.reduce((n, c) => n + c.lines.join('\n').length + 1, 0);
      expect(graph).toBeLessThanOrEqual(ctx.budgets.graph);
      for (const category of ['stack', 'context', 'decisions', 'errors', 'patterns'] as const) {
        const chars = ctx.chunks.filter((c) => c.category === category).reduce((n, c) => n + c.lines.join('\n').length + 1, 0);
        expect(chars, `${category} at ${used}%`).toBeLessThanOrEqual(CATEGORY_BUDGETS[category] * (used >= 60 ? 0.7 : 1));
      }
      expect(ctx.chunks.length).toBeLessThanOrEqual(5);
      expect(ctx.text.length).toBeLessThanOrEqual(10_000);
    }
  });

  it('searches with an embedder too, and works without a project or any fact', async () => {
    const ctx = await buildPromptContext(store, {
      prompt: 'which validation library do we depend on',
      project: 'fp-shop',
      embedder: new Embedder(store, hashProvider(32)),
    });
    expect(ctx.text).toContain('zod');
    // A model that fails costs the prompt nothing: the same facts come from BM25.
    const failing = new Embedder(store, {
      provider: 'test',
      model: 'broken',
      dims: 4,
      batchSize: 8,
      embed: () => Promise.reject(new Error('model crashed')),
    });
    const fallback = await buildPromptContext(store, {
      prompt: 'which validation library do we depend on',
      project: 'fp-shop',
      embedder: failing,
    });
    expect(fallback.body).toBe(
      (await buildPromptContext(store, { prompt: 'which validation library do we depend on', project: 'fp-shop' })).body,
    );
    const anywhere = await buildPromptContext(store, { prompt: 'zod' });
    expect(anywhere.text).toContain('- api: depends on zod');
    const empty = testStore();
    try {
      expect((await buildPromptContext(empty, { prompt: 'hello' })).text).toBe('');
    } finally {
      empty.cleanup();
    }
  });
});
