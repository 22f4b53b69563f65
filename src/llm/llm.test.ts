/** Providers over real HTTP on 127.0.0.1 (stubs speaking the real wire formats), a fake `claude` executable, config and budget. */
import { MockLanguageModelV3 } from 'ai/test';
import { rawDatabase } from '../store/testing.js';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HomunculusError } from '../core/errors.js';
import { tempStores } from '../test-support/learning.js';
import { type Stub, anthropicError, anthropicMessage, chatCompletion, startStub } from '../test-support/llm-stub.js';
import { BudgetExceededError, TokenBudget, estimateTokens, generateWithinBudget } from './budget.js';
import { extractJson } from './claude-cli.js';
import { type LlmConfig, llmConfigSchema, loadLlmConfig } from './config.js';
import { type LlmProvider, aiSdkProvider, createProvider } from './provider.js';

const schema = z.object({ patterns: z.array(z.object({ pattern: z.string() })) });
const request = { system: 'You observe.', prompt: 'Session: ...', schema, maxOutputTokens: 300, timeoutMs: 5_000 };
const config = (over: Record<string, unknown>): LlmConfig =>
  llmConfigSchema.parse({ provider: 'anthropic', model: 'claude-haiku-4-5', ...over });

let stubs: Stub[] = [];
let dirs: string[] = [];
const freshStore = tempStores('2026-03-10T12:00:00Z');
afterEach(async () => {
  for (const s of stubs) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  stubs = [];
  dirs = [];
});
async function stub(...args: Parameters<typeof startStub>): Promise<Stub> {
  const s = await startStub(...args);
  stubs.push(s);
  return s;
}

describe('llm config', () => {
  it('fills defaults, and is absent or disabled without a model', () => {
    expect(loadLlmConfig({})).toBeUndefined();
    expect(loadLlmConfig({ llm: { provider: 'claude-cli', enabled: false } })).toBeUndefined();
    expect(loadLlmConfig({ llm: { provider: 'claude-cli' } })).toMatchObject({
      provider: 'claude-cli',
      command: 'claude',
      timeoutMs: 60_000,
      maxOutputTokens: 1_500,
      budget: { perRunTokens: 30_000, perDayTokens: 150_000 },
    });
  });

  it.each([
    [{ provider: 'anthropic' }, 'llm.model is required for the anthropic provider'],
    [{ provider: 'openai-compatible', model: 'qwen' }, 'llm.baseUrl is required'],
    [{ provider: 'gpt' }, 'llm.provider'],
    [{ provider: 'claude-cli', budget: { perRunTokens: -1 } }, 'llm.budget.perRunTokens'],
    [{ provider: 'claude-cli', apiKey: 'sk-123' }, 'apiKey'],
    [{ provider: 'anthropic', model: 'm', apiKeyEnv: 'sk-ant-123' }, 'must be an environment variable name'],
    [{ provider: 'claude-cli', timeoutMs: 10 }, 'llm.timeoutMs'],
    ['anthropic', 'llm'],
  ])('rejects %o with a message naming the field', (llm, message) => {
    let error: unknown;
    try {
      loadLlmConfig({ llm });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HomunculusError);
    expect((error as HomunculusError).message).toContain(message);
    expect((error as HomunculusError).hint).toContain('Example:');
  });
});

describe('token budget', () => {
  it('estimates conservatively and refuses a call whose worst case does not fit the run or the day', () => {
    const t = freshStore();
    expect(estimateTokens('abcd')).toBe(2);
    expect(estimateTokens('é')).toBe(1);
    const insert = rawDatabase(t.store).prepare("INSERT INTO llm_usage (ts, provider, input_tokens, output_tokens) VALUES (?, 'x', ?, 0)");
    insert.run('2026-03-09T23:00:00Z', 5_000); // yesterday: does not count
    insert.run('2026-03-10T01:00:00Z', 600);
    const budget = new TokenBudget(t.store.usage, { perRunTokens: 1_000, perDayTokens: 1_500 }, () => t.store.clock.now());
    expect(budget.usedToday()).toBe(600);
    expect(budget.remaining()).toBe(900);
    budget.record({ provider: 'x', model: 'm', purpose: 'test', inputTokens: 300, outputTokens: 100, ok: true });
    expect(budget.usedThisRun).toBe(400);
    expect(budget.remaining()).toBe(500);
    expect(() => budget.check(501)).toThrow(BudgetExceededError);
    expect(() => budget.check(500)).not.toThrow();
  });

  it('records what a call used, charges a failed one its worst case, and refuses one that cannot fit', async () => {
    const t = freshStore();
    const budget = new TokenBudget(t.store.usage, { perRunTokens: 10_000, perDayTokens: 10_000 }, () => t.store.clock.now());
    const provider = (generate: LlmProvider['generate']): LlmProvider => ({ name: 'fake', model: 'm', generate });
    const ok = provider(async () => ({ object: { patterns: [] } as never, usage: { inputTokens: 40, outputTokens: 7 } }));
    await generateWithinBudget(ok, budget, 'test', request);
    expect(budget.usedThisRun).toBe(47);
    const failing = provider(async () => {
      throw new Error('server went away');
    });
    await expect(generateWithinBudget(failing, budget, 'test', request)).rejects.toThrow('server went away');
    expect(budget.usedThisRun).toBe(47 + estimateTokens(request.system + request.prompt) + request.maxOutputTokens);
    const tight = new TokenBudget(t.store.usage, { perRunTokens: 100, perDayTokens: 100_000 }, () => t.store.clock.now());
    await expect(generateWithinBudget(ok, tight, 'test', request)).rejects.toThrow(BudgetExceededError);
    expect(tight.usedThisRun).toBe(0);
    expect(t.store.usage.tokensSince('2026-03-10T00:00:00Z')).toBe(budget.usedThisRun);
  });
});

describe('Anthropic provider over HTTP', () => {
  it('sends a Messages request with a JSON schema and reads the object and usage back', async () => {
    const s = await stub(() => ({ json: anthropicMessage('{"patterns":[{"pattern":"fix:golangci-errcheck"}]}') }));
    const provider = createProvider(config({ baseUrl: s.baseUrl }), { ANTHROPIC_API_KEY: 'sk-test' });
    const result = await provider.generate(request);
    expect(result).toEqual({ object: { patterns: [{ pattern: 'fix:golangci-errcheck' }] }, usage: { inputTokens: 812, outputTokens: 96 } });
    const [sent] = s.requests;
    expect(sent?.url).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-test');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 300, output_config: { format: { type: 'json_schema' } } });
  });

  it('reads the key from the configured variable, and fails clearly without one', () => {
    expect(() => createProvider(config({}), {})).toThrow(/needs an API key in \$ANTHROPIC_API_KEY/);
    expect(() => createProvider(config({ apiKeyEnv: 'MY_KEY' }), { MY_KEY: 'k' })).not.toThrow();
  });

  it('rejects an error answer, a malformed object and a slow server', async () => {
    const overloaded = await stub(() => ({ status: 529, json: anthropicError('overloaded_error', 'Overloaded') }));
    await expect(createProvider(config({ baseUrl: overloaded.baseUrl }), { ANTHROPIC_API_KEY: 'k' }).generate(request)).rejects.toThrow(
      /Overloaded/,
    );
    const malformed = await stub(() => ({ json: anthropicMessage('{"patterns": "none"}') }));
    await expect(createProvider(config({ baseUrl: malformed.baseUrl }), { ANTHROPIC_API_KEY: 'k' }).generate(request)).rejects.toThrow();
    const slow = await stub(() => ({ json: anthropicMessage('{"patterns":[]}'), delayMs: 3_000 }));
    const started = Date.now();
    await expect(
      createProvider(config({ baseUrl: slow.baseUrl }), { ANTHROPIC_API_KEY: 'k' }).generate({ ...request, timeoutMs: 200 }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});

describe('OpenAI-compatible provider over HTTP', () => {
  it('speaks chat completions with a json_schema response format', async () => {
    const s = await stub(() => ({ json: chatCompletion('{"patterns":[{"pattern":"pref:use-pnpm-not-npm"}]}') }));
    const provider = createProvider(config({ provider: 'openai-compatible', model: 'qwen2.5-coder', baseUrl: s.baseUrl }), {});
    const result = await provider.generate(request);
    expect(result).toEqual({ object: { patterns: [{ pattern: 'pref:use-pnpm-not-npm' }] }, usage: { inputTokens: 700, outputTokens: 80 } });
    expect(s.requests[0]?.url).toBe('/v1/chat/completions');
    expect(s.requests[0]?.body).toMatchObject({
      model: 'qwen2.5-coder',
      response_format: { type: 'json_schema' },
      messages: [{ role: 'system', content: 'You observe.' }, { role: 'user' }],
    });
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('AI SDK mock model', () => {
  it('goes through the same interface', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'text', text: '{"patterns":[]}' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } },
        warnings: [],
      },
    });
    expect(await aiSdkProvider('mock', 'm', model).generate(request)).toEqual({
      object: { patterns: [] },
      usage: { inputTokens: 10, outputTokens: 3 },
    });
    expect(model.doGenerateCalls[0]?.maxOutputTokens).toBe(300);
  });
});

describe('claude -p provider', () => {
  function fakeClaude(script: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'hom-claude-'));
    dirs.push(dir);
    const path = join(dir, 'claude');
    writeFileSync(path, `#!${process.execPath}\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it('pipes the prompt in, sets HOMUNCULUS_OBSERVER=1 and reads the JSON result and usage', async () => {
    const command = fakeClaude(`
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const ok = process.env.HOMUNCULUS_OBSERVER === '1' && process.argv.includes('-p') && process.argv.includes('--output-format') && input.includes('JSON Schema');
  const result = ok ? 'Here you go:\\n\`\`\`json\\n{"patterns":[{"pattern":"seq:gen->build"}]}\\n\`\`\`' : 'bad call: ' + process.argv.join(' ');
  process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result, usage: { input_tokens: 40, cache_read_input_tokens: 2000, output_tokens: 25 } }));
});`);
    const provider = createProvider(config({ provider: 'claude-cli', command, model: undefined }), process.env);
    expect(await provider.generate(request)).toEqual({
      object: { patterns: [{ pattern: 'seq:gen->build' }] },
      usage: { inputTokens: 2040, outputTokens: 25 },
    });
  });

  it('fails on a non-zero exit, non-JSON output, a reported error, or a timeout', async () => {
    const gen = (script: string, timeoutMs = 5_000) =>
      createProvider(config({ provider: 'claude-cli', command: fakeClaude(script), model: undefined }), process.env).generate({
        ...request,
        timeoutMs,
      });
    await expect(gen("process.stderr.write('not logged in'); process.exit(3);")).rejects.toThrow(/exited with code 3: not logged in/);
    await expect(gen("process.stdout.write('hello');")).rejects.toThrow(/not JSON/);
    await expect(gen("process.stdout.write(JSON.stringify({ result: 'quota', is_error: true }));")).rejects.toThrow(
      /reported an error: quota/,
    );
    await expect(gen("process.stdout.write(JSON.stringify({ result: 'no json here' }));")).rejects.toThrow(/without a JSON object/);
    await expect(gen('setTimeout(() => {}, 10000);', 300)).rejects.toThrow(/did not answer within 300 ms/);
    await expect(
      createProvider(config({ provider: 'claude-cli', command: '/nonexistent/claude' }), process.env).generate(request),
    ).rejects.toThrow(/Cannot run/);
  });

  it('extracts JSON from fenced or bare text', () => {
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(extractJson('Sure! {"a": {"b": 2}} done')).toEqual({ a: { b: 2 } });
    expect(() => extractJson('{oops}')).toThrow(/does not parse/);
  });
});
