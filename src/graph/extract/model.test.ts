/** The graph builder with a real provider over HTTP: an OpenAI-compatible stub on 127.0.0.1. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenBudget } from '../../llm/budget.js';
import { llmConfigSchema } from '../../llm/config.js';
import { createProvider } from '../../llm/provider.js';
import { type Stub, chatCompletion, startStub } from '../../test-support/llm-stub.js';
import { rawDatabase } from '../../store/testing.js';
import { type TestStore, testStore } from '../../test-support/store.js';
import { queryFacts } from '../temporal.js';
import { buildGraphFromSession } from './build.js';
import { modelComplete } from './model.js';

let store: TestStore;
let stub: Stub | undefined;
beforeEach(() => {
  store = testStore('2026-03-01T12:00:00.000Z');
  store.observations.insert({
    source: 'claude-code',
    session_id: 's1',
    tool_use_id: 'p1',
    ts: '2026-03-01T11:00:00.000Z',
    event: 'prompt',
    project: 'fp-shop',
    input: 'Always use named exports. We moved the shop from Prisma to Drizzle because of cold starts.',
    data: { project_name: 'shop' },
  });
});
afterEach(async () => {
  store.cleanup();
  await stub?.close();
  stub = undefined;
});

const config = (baseUrl: string) =>
  llmConfigSchema.parse({
    provider: 'openai-compatible',
    model: 'qwen2.5-coder',
    baseUrl,
    maxOutputTokens: 800,
    budget: { perRunTokens: 20_000, perDayTokens: 50_000 },
  });

function completeFor(baseUrl: string, budget = new TokenBudget(store.usage, config(baseUrl).budget, () => store.clock.now())) {
  return modelComplete(createProvider(config(baseUrl), {}), budget, config(baseUrl));
}

const usage = () =>
  rawDatabase(store).prepare("SELECT purpose, ok, input_tokens + output_tokens AS tokens FROM llm_usage WHERE purpose = 'graph'").all() as {
    ok: number;
    tokens: number;
  }[];

describe('graph extraction through a configured model', () => {
  it('sends the extraction prompt over HTTP, stores the facts it returns, and charges the budget', async () => {
    const answer = {
      entities: [
        { name: 'shop', type: 'project' },
        { name: 'Drizzle', type: 'library' },
        { name: 'Prisma', type: 'library' },
      ],
      facts: [
        {
          source: 'shop',
          target: 'Drizzle',
          relation: 'migrated_from',
          description: 'The shop project moved its database access from Prisma to Drizzle because of slow cold starts in production',
          confidence: 0.9,
          valid_at: null,
        },
        {
          source: 'shop',
          target: 'Nowhere',
          relation: 'uses',
          description: 'The shop uses a tool that was never named as an entity anywhere in this answer at all',
          confidence: 0.7,
          valid_at: null,
        },
        {
          source: 'shop',
          target: 'Prisma',
          relation: 'is_friends_with',
          description: 'An invented relation that the ontology does not know and which must be skipped or mapped',
          confidence: 0.7,
          valid_at: null,
        },
      ],
      contradictions: [],
    };
    stub = await startStub(() => ({ json: chatCompletion(JSON.stringify(answer)) }));
    const report = await buildGraphFromSession(store, { sessionId: 's1', complete: completeFor(stub.baseUrl) });
    expect(stub.requests).toHaveLength(1);
    const sent = JSON.stringify(stub.requests[0]?.body);
    expect(sent).toContain('migrated_from');
    expect(sent).toContain('Prisma to Drizzle');
    expect(report.llm).toMatchObject({ used: true, reason: 'extracted' });
    expect(queryFacts(store).some((f) => f.relation === 'migrated_from' && f.target === 'Drizzle')).toBe(true);
    expect(queryFacts(store).some((f) => f.target === 'Nowhere')).toBe(false);
    expect(usage()).toEqual([{ purpose: 'graph', ok: 1, tokens: 780 }]);
  });

  it('falls back to the deterministic extraction on a malformed answer, charging its worst case', async () => {
    stub = await startStub(() => ({ json: chatCompletion('this is not json at all') }));
    const report = await buildGraphFromSession(store, { sessionId: 's1', complete: completeFor(stub.baseUrl) });
    expect(report.llm.used).toBe(false);
    expect(report.llm.reason).toMatch(/model call failed/);
    expect(usage()).toHaveLength(1);
    expect(usage()[0]?.ok).toBe(0);
    expect(queryFacts(store).length).toBeGreaterThan(0);
  });

  it('never calls the model past the token budget', async () => {
    stub = await startStub(() => ({ json: chatCompletion('{}') }));
    const tight = new TokenBudget(store.usage, { perRunTokens: 100, perDayTokens: 100 }, () => store.clock.now());
    const report = await buildGraphFromSession(store, { sessionId: 's1', complete: completeFor(stub.baseUrl, tight) });
    expect(stub.requests).toHaveLength(0);
    expect(report.llm.reason).toMatch(/budget/);
    expect(usage()).toEqual([]);
  });
});
