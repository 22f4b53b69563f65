/**
 * The agent's language models from its config: Ollama (`/api/chat` through
 * ollama-ai-provider-v2), the Anthropic Messages API, and any OpenAI-compatible server. API
 * keys are read from the environment variable the config names, never from the file.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type LanguageModel, type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { HomunculusError } from '../core/errors.js';
import type { ModelConfig } from './config.js';

export interface AgentModel {
  provider: ModelConfig['provider'];
  /** The model's id as configured. */
  id: string;
  model: LanguageModel;
  maxOutputTokens: number;
  /** Where it is served (the provider's default when none is configured), for messages. */
  endpoint: string;
  /** The environment variable its API key is read from, when it is sent one. */
  keyEnv?: string;
  /** Which of the agent's models it is (agent.local or agent.remote), for the fix of a key problem. */
  role: ModelRole;
}

export type ModelRole = 'local' | 'remote';

type CallError = Error & { lastError?: unknown; statusCode?: unknown; responseBody?: unknown; responseHeaders?: Record<string, string> };

/** After its retries the SDK throws a RetryError: the last attempt's error holds the server's status, words and headers. */
const lastAttempt = (outer: CallError): CallError =>
  outer.name === 'AI_RetryError' && outer.lastError instanceof Error ? (outer.lastError as CallError) : outer;

/** A 429 from the model's server, with the wait its Retry-After asks for in words ('' when it names none). */
function rateLimit(outer: CallError): { wait: string } | undefined {
  const err = lastAttempt(outer);
  if (err.statusCode !== 429) return undefined;
  const after = err.responseHeaders?.['retry-after'] ?? '';
  const seconds = /^\d+(\.\d+)?$/.test(after.trim()) ? Number(after) : (Date.parse(after) - Date.now()) / 1000;
  if (!(seconds > 0)) return { wait: '' };
  return { wait: seconds < 120 ? `${Math.ceil(seconds)} s` : `${Math.ceil(seconds / 60)} min` };
}

/** An AI SDK error in one line: the HTTP status and the server's own error message when it sent one. */
function failureText(outer: CallError): string {
  const err = lastAttempt(outer);
  const tries = err !== outer ? ` (${outer.message.split('.')[0]})` : '';
  let said = '';
  try {
    const body = typeof err.responseBody === 'string' ? (JSON.parse(err.responseBody) as { error?: unknown }) : {};
    // Ollama: {"error": "..."}; Anthropic and OpenAI: {"error": {"message": "..."}}.
    const e = body.error;
    said = typeof e === 'string' ? e : typeof (e as { message?: unknown })?.message === 'string' ? (e as { message: string }).message : '';
  } catch {
    said = '';
  }
  const status = typeof err.statusCode === 'number' ? `HTTP ${err.statusCode} ` : '';
  const text = `${status}${err.message}${said && said !== err.message ? `: ${said}` : ''}${tries}`.replace(/\s+/g, ' ').slice(0, 300);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * A model call's failure said with the model and the fix: its server unreachable, or an error
 * the AI SDK reports (an HTTP error, an answer that is not the API's JSON, a timeout). Any
 * other error as it was: it is ours. Pure.
 */
export function modelFailure(err: unknown, model: Pick<AgentModel, 'provider' | 'id' | 'endpoint' | 'keyEnv' | 'role'>): unknown {
  const text = (e: unknown): string => (e instanceof Error ? `${e.message} ${text((e as { cause?: unknown }).cause)}` : '');
  const named = `The model ${model.provider}:${model.id} at ${model.endpoint}`;
  if (/Cannot connect to API|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|fetch failed/i.test(text(err))) {
    const start = model.provider === 'ollama' ? 'start Ollama (`ollama serve`, then `ollama pull ' + model.id + '`)' : 'start that server';
    return new HomunculusError('model_unreachable', `${named} cannot be reached.`, {
      hint: `${start[0]?.toUpperCase()}${start.slice(1)}, or point the agent section of config.json at a model that runs (docs/agent.md).`,
    });
  }
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError')
    return new HomunculusError('model_failed', `${named} did not answer in time.`, {
      hint: 'A large local model may need longer: raise agent.turnTimeoutSeconds in config.json, or use a smaller model.',
    });
  if (!name.startsWith('AI_')) return err;
  const limited = rateLimit(err as CallError);
  if (limited)
    return new HomunculusError(
      'model_rate_limited',
      `${named} is rate-limited (HTTP 429)${limited.wait ? `: it asks to wait ${limited.wait}` : ''}.`,
      {
        hint: `Send the message again ${limited.wait ? 'after that' : 'in a minute'}; nothing of the turn was lost. A limit hit often: a smaller model, or a higher plan with the provider.`,
      },
    );
  return new HomunculusError('model_failed', `${named} failed: ${failureText(err as CallError)}`, {
    hint:
      refusedKeyHint(err as CallError, model.keyEnv, model.role) ??
      'Check the model server (its log says why); the request was not changed by us and can be sent again.',
  });
}

/** A 401 or 403 is the API key, not the server: the fix names the variable it came from. */
function refusedKeyHint(err: CallError, keyEnv: string | undefined, role: ModelRole): string | undefined {
  const status = lastAttempt(err).statusCode;
  if (status !== 401 && status !== 403) return undefined;
  const where = keyEnv ? `the key in $${keyEnv}` : 'an API key';
  return `The server refused ${where}: export a valid key${keyEnv ? ` as ${keyEnv}` : ''}, or set agent.${role}.apiKeyEnv in config.json to the variable that holds it.`;
}

const DEFAULT_OLLAMA = 'http://127.0.0.1:11434';

/** Ollama's API lives under /api; a base URL given as the server's root gets it appended. Pure. */
export function ollamaApiUrl(baseUrl: string | undefined): string {
  const root = (baseUrl ?? DEFAULT_OLLAMA).replace(/\/+$/, '');
  return root.endsWith('/api') ? root : `${root}/api`;
}

/** The Messages API lives under /v1; a base URL given as ANTHROPIC_BASE_URL is (the server's root) gets it appended. Pure. */
export function anthropicApiUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(root) ? root : `${root}/v1`;
}

function key(config: ModelConfig, role: ModelRole, fallbackEnv: string, env: NodeJS.ProcessEnv, required: boolean): string | undefined {
  const name = config.apiKeyEnv ?? fallbackEnv;
  const value = env[name];
  if (required && !value)
    throw new HomunculusError(
      'llm_key',
      `The agent's ${role} model (agent.${role}: ${config.provider} ${config.model}) needs an API key in $${name}.`,
      {
        hint: `Export ${name}=..., or set agent.${role}.apiKeyEnv in config.json to the variable that holds it.`,
      },
    );
  return value || undefined;
}

/**
 * Ollama's /api/chat caps an answer only by `options.num_predict`; the provider sends the SDK's
 * cap as a top-level field Ollama ignores, so a local model could write on until its context
 * filled. This copies the cap where Ollama reads it (an explicit num_predict wins).
 */
export const ollamaOutputCap: LanguageModelMiddleware = {
  specificationVersion: 'v3',
  transformParams: ({ params }) => {
    if (params.maxOutputTokens === undefined) return Promise.resolve(params);
    const ollama = params.providerOptions?.ollama ?? {};
    const options = { num_predict: params.maxOutputTokens, ...(ollama.options as Record<string, unknown> | undefined) };
    return Promise.resolve({ ...params, providerOptions: { ...params.providerOptions, ollama: { ...ollama, options } } });
  },
};

/** The agent's `role` model (agent.local or agent.remote in config.json); a required key missing throws, naming that model. */
export function createAgentModel(config: ModelConfig, role: ModelRole, env: NodeJS.ProcessEnv = process.env): AgentModel {
  const base = { provider: config.provider, id: config.model, maxOutputTokens: config.maxOutputTokens, role };
  const endpoint = config.baseUrl ?? (config.provider === 'ollama' ? DEFAULT_OLLAMA : 'https://api.anthropic.com');
  switch (config.provider) {
    case 'ollama':
      return {
        ...base,
        endpoint,
        model: wrapLanguageModel({
          model: createOllama({ baseURL: ollamaApiUrl(config.baseUrl) }).chat(config.model),
          middleware: ollamaOutputCap,
        }),
      };
    case 'anthropic': {
      const anthropic = createAnthropic({
        apiKey: key(config, role, 'ANTHROPIC_API_KEY', env, true),
        ...(config.baseUrl ? { baseURL: anthropicApiUrl(config.baseUrl) } : {}),
      });
      return { ...base, endpoint, keyEnv: config.apiKeyEnv ?? 'ANTHROPIC_API_KEY', model: anthropic(config.model) };
    }
    case 'openai-compatible': {
      const server = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseUrl as string,
        // A server that needs no key names none; one whose apiKeyEnv is named must not be called without it.
        apiKey: key(config, role, 'OPENAI_API_KEY', env, config.apiKeyEnv !== undefined),
      });
      return { ...base, endpoint, keyEnv: config.apiKeyEnv ?? 'OPENAI_API_KEY', model: server.chatModel(config.model) };
    }
  }
}
