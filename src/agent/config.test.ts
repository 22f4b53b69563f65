import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APICallError, RetryError, generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { HomunculusError } from '../core/errors.js';
import { loadAgentConfig } from './config.js';
import { agentConfigVerdict } from './doctor.js';
import { anthropicApiUrl, createAgentModel, modelFailure, ollamaApiUrl } from './providers.js';

describe('the agent section of config.json', () => {
  it('defaults to a local Ollama model, $5 a day at $3 / $15 per million tokens, 25 steps', () => {
    expect(loadAgentConfig({})).toMatchObject({
      local: { provider: 'ollama', model: 'llama3.2' },
      budget: { dailyUsd: 5, prices: { inputPerMTok: 3, outputPerMTok: 15 } },
      maxSteps: 25,
      historyTurns: 30,
      stream: true,
    });
    expect(loadAgentConfig({}).remote).toBeUndefined();
  });

  it('names each bad field and shows an example; keys of other agent parts pass through', () => {
    expect(() => loadAgentConfig({ agent: { local: { provider: 'gpt', model: 'x' } } })).toThrow(/agent\.local\.provider/);
    expect(() => loadAgentConfig({ agent: { remote: { provider: 'openai-compatible', model: 'x' } } })).toThrow(
      /agent\.remote\.baseUrl is required/,
    );
    expect(() => loadAgentConfig({ agent: { budget: { dailyUsd: -1 } } })).toThrow(/agent\.budget\.dailyUsd/);
    expect(() => loadAgentConfig({ agent: { local: { provider: 'ollama', model: 'm', apiKey: 'sk-123' } } })).toThrow(/apiKey/);
    // A key written into the file: said so, with where it goes instead (the message never repeats it).
    let said: unknown;
    try {
      loadAgentConfig({ agent: { remote: { provider: 'anthropic', model: 'c', apiKey: 'sk-live-123' } } });
    } catch (err) {
      said = err;
    }
    expect(said).toMatchObject({
      message: expect.stringMatching(/^agent\.remote\.apiKey holds an API key in config\.json/),
      hint: expect.stringContaining('"apiKeyEnv"'),
    });
    expect(JSON.stringify(said)).not.toContain('sk-live-123');
    expect(loadAgentConfig({ agent: { gateway: { port: 8787 } } }).local.provider).toBe('ollama');
    expect(loadAgentConfig({ agent: { telegram: {}, web: {}, mqtt: {}, heartbeat: {} } }).local.provider).toBe('ollama');
  });

  it('refuses a key no part reads, with the one meant: a budget misspelt would be the default $5', () => {
    expect(() => loadAgentConfig({ agent: { budgett: { dailyUsd: 1 } } })).toThrow(
      /Unknown key in the "agent" section of config\.json: "budgett" \(did you mean "budget"\?\)/,
    );
    expect(() => loadAgentConfig({ agent: { zzz: 1, budget: { dailyUsd: 1 } } })).toThrow(/"zzz"\.$/);
  });
});

describe('the providers', () => {
  it('point Ollama at its /api, whatever form the base URL takes', () => {
    expect(ollamaApiUrl(undefined)).toBe('http://127.0.0.1:11434/api');
    expect(ollamaApiUrl('http://box:11434/')).toBe('http://box:11434/api');
    expect(ollamaApiUrl('http://box:11434/api')).toBe('http://box:11434/api');
  });

  it('refuse an Anthropic model without its key, naming the variable', () => {
    expect(() => createAgentModel({ provider: 'anthropic', model: 'c', maxOutputTokens: 100 }, 'remote', {})).toThrow(
      /\$ANTHROPIC_API_KEY/,
    );
    expect(() => createAgentModel({ provider: 'anthropic', model: 'c', apiKeyEnv: 'MY_KEY', maxOutputTokens: 100 }, 'remote', {})).toThrow(
      /\$MY_KEY/,
    );
    expect(createAgentModel({ provider: 'anthropic', model: 'c', maxOutputTokens: 100 }, 'remote', { ANTHROPIC_API_KEY: 'k' }).id).toBe(
      'c',
    );
  });

  it('name the model whose key is missing, and only its apiKeyEnv in the fix', () => {
    const local = { provider: 'openai-compatible' as const, model: 'qwen', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'LOCAL_KEY' };
    expect(() => createAgentModel({ ...local, maxOutputTokens: 100 }, 'local', {})).toThrow(
      expect.objectContaining({
        message: "The agent's local model (agent.local: openai-compatible qwen) needs an API key in $LOCAL_KEY.",
        hint: 'Export LOCAL_KEY=..., or set agent.local.apiKeyEnv in config.json to the variable that holds it.',
      }),
    );
  });
});

describe('the doctor check', () => {
  it('says not set up, fails an invalid section, warns on a missing key, and sums up a good one', () => {
    expect(agentConfigVerdict({}, {}, false)).toMatchObject({ status: 'ok', detail: 'the personal agent is not set up' });
    expect(agentConfigVerdict({ agent: { maxSteps: 0 } }, {}, true)).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/agent\.maxSteps/),
    });
    const remote = { remote: { provider: 'anthropic', model: 'claude-sonnet-4-5' } };
    expect(agentConfigVerdict({ agent: remote }, {}, true)).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
    // An OpenAI-compatible server needs no key, unless its apiKeyEnv names one: then that must be set.
    const vllm = { provider: 'openai-compatible', model: 'qwen', baseUrl: 'http://127.0.0.1:8000/v1' };
    expect(agentConfigVerdict({ agent: { remote: vllm } }, {}, true).status).toBe('ok');
    expect(agentConfigVerdict({ agent: { remote: { ...vllm, apiKeyEnv: 'VLLM_KEY' } } }, {}, true)).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('needs $VLLM_KEY, which is not set'),
    });
    // agent serve would refuse a bad Telegram section or a missing bot token: doctor says so first.
    const telegram = { telegram: { tokenEnv: 'TG_TOKEN', allowed_user_ids: [42] } };
    expect(agentConfigVerdict({ agent: telegram }, {}, true)).toMatchObject({
      status: 'fail',
      detail: 'The Telegram bot token is missing: the environment variable TG_TOKEN is not set.',
    });
    expect(agentConfigVerdict({ agent: { telegram: { tokenEnv: 'TG_TOKEN', allowed_user_ids: 'x' } } }, {}, true)).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('agent.telegram.allowed_user_ids'),
    });
    expect(agentConfigVerdict({ agent: telegram }, { TG_TOKEN: 't' }, true).status).toBe('ok');
    expect(agentConfigVerdict({ agent: remote }, { ANTHROPIC_API_KEY: 'k' }, true)).toEqual({
      name: 'agent',
      status: 'ok',
      detail: 'local ollama llama3.2 at http://127.0.0.1:11434/api; remote anthropic claude-sonnet-4-5; budget $5 a day',
    });
  });
});

describe('a model that cannot be reached', () => {
  it('is said with where it was looked for and the fix; other errors pass unchanged', async () => {
    const model = createAgentModel(
      { provider: 'ollama', model: 'llama3.2', baseUrl: 'http://127.0.0.1:9', maxOutputTokens: 100 },
      'local',
      {},
    );
    expect(model.endpoint).toBe('http://127.0.0.1:9');
    // A real refused connection, as the AI SDK reports it.
    const refused = await generateText({ model: model.model, prompt: 'hi', maxRetries: 0 }).catch((err: unknown) => err);
    const said = modelFailure(refused, model);
    expect(said).toBeInstanceOf(HomunculusError);
    expect((said as HomunculusError).message).toBe('The model ollama:llama3.2 at http://127.0.0.1:9 cannot be reached.');
    expect((said as HomunculusError).hint).toMatch(/^Start Ollama \(`ollama serve`, then `ollama pull llama3\.2`\)/);
    const other = new Error('the model said no');
    expect(modelFailure(other, model)).toBe(other);
  });

  it('puts the Messages API under /v1 of a base URL given as ANTHROPIC_BASE_URL is, and leaves one with /v1 alone', () => {
    expect(anthropicApiUrl('http://127.0.0.1:18080')).toBe('http://127.0.0.1:18080/v1');
    expect(anthropicApiUrl('https://proxy.example/anthropic/')).toBe('https://proxy.example/anthropic/v1');
    expect(anthropicApiUrl('https://api.anthropic.com/v1')).toBe('https://api.anthropic.com/v1');
  });

  it("says an HTTP error with the server's own words, and a hung model as too slow, with the model named", async () => {
    const model = createAgentModel(
      { provider: 'ollama', model: 'llama3.2', baseUrl: 'http://127.0.0.1:9', maxOutputTokens: 100 },
      'local',
      {},
    );
    const http = new APICallError({
      message: 'Internal Server Error',
      url: 'http://127.0.0.1:9/api/chat',
      requestBodyValues: {},
      statusCode: 500,
      responseBody: '{"error":"llama runner process has terminated"}',
    });
    const said = modelFailure(http, model) as HomunculusError;
    expect(said.code).toBe('model_failed');
    expect(said.message).toBe(
      'The model ollama:llama3.2 at http://127.0.0.1:9 failed: HTTP 500 Internal Server Error: llama runner process has terminated.',
    );
    // After the SDK's retries: the last attempt's words, and how many there were.
    const retried = new RetryError({
      message: 'Failed after 3 attempts. Last error: Internal Server Error',
      reason: 'maxRetriesExceeded',
      errors: [http, http, http],
    });
    expect((modelFailure(retried, model) as HomunculusError).message).toBe(
      'The model ollama:llama3.2 at http://127.0.0.1:9 failed: HTTP 500 Internal Server Error: llama runner process has terminated (Failed after 3 attempts).',
    );
    // A refused key is the key, not the server: the fix names its variable.
    const anthropic = createAgentModel({ provider: 'anthropic', model: 'c', apiKeyEnv: 'MY_KEY', maxOutputTokens: 100 }, 'remote', {
      MY_KEY: 'k',
    });
    const refusedKey = new APICallError({
      message: 'Unauthorized',
      url: 'x',
      requestBodyValues: {},
      statusCode: 401,
      responseBody: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    });
    const keyHint = (modelFailure(refusedKey, anthropic) as HomunculusError).hint;
    expect(keyHint).toMatch(/^The server refused the key in \$MY_KEY: export a valid key as MY_KEY, or set agent\.remote\.apiKeyEnv in/);
    expect(keyHint).not.toMatch(/agent\.local/);
    expect(keyHint).not.toMatch(/Check the model server/);
    // A rate limit says how long the server asks to wait, by seconds or by date.
    const limit = (headers: Record<string, string>) =>
      modelFailure(
        new APICallError({ message: 'Too Many Requests', url: 'x', requestBodyValues: {}, statusCode: 429, responseHeaders: headers }),
        model,
      ) as HomunculusError;
    expect(limit({ 'retry-after': '3' })).toMatchObject({
      code: 'model_rate_limited',
      message: 'The model ollama:llama3.2 at http://127.0.0.1:9 is rate-limited (HTTP 429): it asks to wait 3 s.',
      hint: expect.stringMatching(/^Send the message again after that; nothing of the turn was lost/),
    });
    expect(limit({ 'retry-after': new Date(Date.now() + 600_000).toUTCString() }).message).toMatch(/wait (10|11) min\.$/);
    expect(limit({}).hint).toMatch(/^Send the message again in a minute/);
    // A real call to a server that never answers, cut by the timeout the mind sets.
    const silent = createServer(() => undefined);
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    const { port } = silent.address() as AddressInfo;
    const slow = createAgentModel(
      { provider: 'ollama', model: 'm', baseUrl: `http://127.0.0.1:${port}`, maxOutputTokens: 100 },
      'local',
      {},
    );
    const hung = await generateText({ model: slow.model, prompt: 'hi', abortSignal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    silent.closeAllConnections();
    silent.close();
    expect((modelFailure(hung, slow) as HomunculusError).message).toBe(
      `The model ollama:m at http://127.0.0.1:${port} did not answer in time.`,
    );
  });
});
