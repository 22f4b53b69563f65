import { MockLanguageModelV3 } from 'ai/test';
import { rawDatabase } from '../store/testing.js';
import { describe, expect, it } from 'vitest';
import { BudgetExceededError, TokenBudget } from '../llm/budget.js';
import { aiSdkProvider } from '../llm/provider.js';
import { type TempStore, stepRows, steps, tempStores } from '../test-support/learning.js';
import { observe } from './instincts.js';
import { observerSystem, answerToCandidates, buildPrompt, createLlmObserver } from './llm-observer.js';
import { runLearn } from './run.js';

const fresh = tempStores('2026-03-05T12:00:00Z');

const reply = (text: string, input = 2_000, output = 200) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  },
  warnings: [],
});

function observer(t: TempStore, model: MockLanguageModelV3, limits = { perRunTokens: 100_000, perDayTokens: 100_000 }) {
  return createLlmObserver(aiSdkProvider('mock', 'm', model), new TokenBudget(t.store.usage, limits, () => t.store.clock.now()), {
    maxOutputTokens: 400,
    timeoutMs: 5_000,
  });
}

const session = steps([
  { prompt: 'use pnpm, not npm' },
  { bash: 'pnpm install' },
  { bash: 'mise run lint', error: 'boom' },
  { edit: 'src/a.ts' },
]);

describe('buildPrompt', () => {
  it('lists existing instincts to reinforce and the session, cut to the token budget', () => {
    const t = fresh();
    observe(t.store, { pattern: 'pref:use-pnpm-not-npm', trigger: 'when choosing a package manager', action: 'Use pnpm.' });
    const input = { sessionId: 's1', observations: session, instincts: t.store.instincts.list() };
    const prompt = buildPrompt(input, 10_000);
    expect(prompt).toContain('- pref:use-pnpm-not-npm: when choosing a package manager -> Use pnpm.');
    expect(prompt).toContain('USER: use pnpm, not npm');
    expect(prompt).toContain('Bash ERROR: mise run lint => boom');
    const pasted = steps([{ prompt: 'Implement the following plan:\n# Plan: add a cache\nNo new tests needed.' }, { prompt: 'ok go' }]);
    const withPlan = buildPrompt({ ...input, observations: pasted }, 10_000);
    expect(withPlan).toContain('USER: ok go');
    expect(withPlan).not.toContain('No new tests needed');
    const review = steps([{ prompt: 'evaluate this feedback:\n\nStale field\n\nLow Severity\n\nNever copy the struct by hand.' }]);
    const withReview = buildPrompt({ ...input, observations: review }, 10_000);
    expect(withReview).toContain('USER: evaluate this feedback: (+ pasted material');
    expect(withReview).not.toContain('Never copy the struct');
    const refused = steps([{ bash: 'git stash', exit: 1 }]).map((o) => ({
      ...o,
      outcome: 'blocked' as const,
      error: 'rejected by the user: do not stash anything, read the files you need',
    }));
    expect(buildPrompt({ ...input, observations: refused }, 10_000)).toContain(
      'Bash BLOCKED: git stash => rejected by the user: do not stash anything, read the files you need',
    );
    const tight = buildPrompt(input, 180);
    expect(tight).toMatch(/\(\d+ later observations omitted for the token budget\)$/);
  });
});

describe('answerToCandidates', () => {
  it('drops invalid keys, takes the category from the prefix and scopes project-specific patterns', () => {
    const base = {
      domain: 'tooling' as const,
      title: 'Release',
      trigger: 'when releasing',
      action: 'Run `./scripts/release.sh`.',
      evidence: 'seen',
      subjects: [],
      notable: false,
    };
    const out = answerToCandidates(
      {
        patterns: [
          { ...base, pattern: 'not a key', category: 'combo', project_specific: false },
          { ...base, pattern: 'pref:release=script', category: 'sequence', project_specific: true },
        ],
      },
      { sessionId: 's1', observations: session, instincts: [] },
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      key: 'pref:release=script',
      category: 'preference',
      project: 'p-demo',
      miner: 'llm',
      subjects: ['./scripts/release.sh', 'release.sh'],
    });
  });
});

describe('the token budget is never exceeded', () => {
  it('refuses a call that does not fit, without calling the model', async () => {
    const t = fresh();
    const model = new MockLanguageModelV3({ doGenerate: reply('{"patterns":[]}') });
    const tiny = observer(t, model, { perRunTokens: 900, perDayTokens: 100_000 });
    await expect(tiny.extract({ sessionId: 's1', observations: session, instincts: [] })).rejects.toThrow(BudgetExceededError);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('stops calling once the run budget is spent, across a whole run', async () => {
    const t = fresh();
    for (let i = 0; i < 8; i++)
      for (const row of stepRows([{ prompt: 'use pnpm, not npm' }, { bash: 'pnpm install' }], {
        sessionId: `s${i}`,
        start: '2026-03-02T10:00:00Z',
      }))
        t.store.observations.insert(row);
    const model = new MockLanguageModelV3({ doGenerate: reply('{"patterns":[]}', 1_500, 300) });
    const limits = { perRunTokens: 6_000, perDayTokens: 100_000 };
    const report = await runLearn(t.store, { observer: observer(t, model, limits) });
    const spent = t.store.usage.tokensSince('');
    expect(spent).toBeLessThanOrEqual(limits.perRunTokens);
    expect(report.llm.calls).toBe(model.doGenerateCalls.length);
    expect(report.llm.fallbacks.some((f) => /budget/.test(f.reason))).toBe(true);
    expect(t.store.instincts.list().map((r) => r.key)).toEqual(['pref:use-pnpm-not-npm']);
  });

  it('counts the worst case of a failed call, so unknown spend cannot overshoot', async () => {
    const t = fresh();
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('connection reset');
      },
    });
    await expect(observer(t, model).extract({ sessionId: 's1', observations: session, instincts: [] })).rejects.toThrow('connection reset');
    const row = rawDatabase(t.store).prepare('SELECT input_tokens, output_tokens, ok FROM llm_usage').get() as {
      input_tokens: number;
      output_tokens: number;
      ok: number;
    };
    expect(row.ok).toBe(0);
    expect(row.output_tokens).toBe(400);
    expect(row.input_tokens).toBeGreaterThan(observerSystem().length / 2);
  });
});
