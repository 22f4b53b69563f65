/**
 * The agent's language models from its config: Ollama (`/api/chat` through
 * ollama-ai-provider-v2), the Anthropic Messages API, and any OpenAI-compatible server. API
 * keys are read from the environment variable the config names, never from the file.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { HomunculusError } from '../core/errors.js';
import type { ModelConfig } from './config.js';

export interface AgentModel {
  provider: ModelConfig['provider'];
  /** The model's id as configured. */
  id: string;
  model: LanguageModel;
  maxOutputTokens: number;
}

const DEFAULT_OLLAMA = 'http://127.0.0.1:11434';

/** Ollama's API lives under /api; a base URL given as the server's root gets it appended. Pure. */
export function ollamaApiUrl(baseUrl: string | undefined): string {
  const root = (baseUrl ?? DEFAULT_OLLAMA).replace(/\/+$/, '');
  return root.endsWith('/api') ? root : `${root}/api`;
}

function key(config: ModelConfig, fallbackEnv: string, env: NodeJS.ProcessEnv, required: boolean): string | undefined {
  const name = config.apiKeyEnv ?? fallbackEnv;
  const value = env[name];
  if (required && !value)
    throw new HomunculusError('llm_key', `The agent's ${config.provider} model ${config.model} needs an API key in $${name}.`, {
      hint: `Export ${name}=..., or set agent.remote.apiKeyEnv (or agent.local.apiKeyEnv) in config.json to the variable that holds it.`,
    });
  return value || undefined;
}

export function createAgentModel(config: ModelConfig, env: NodeJS.ProcessEnv = process.env): AgentModel {
  const base = { provider: config.provider, id: config.model, maxOutputTokens: config.maxOutputTokens };
  switch (config.provider) {
    case 'ollama':
      return { ...base, model: createOllama({ baseURL: ollamaApiUrl(config.baseUrl) }).chat(config.model) };
    case 'anthropic': {
      const anthropic = createAnthropic({
        apiKey: key(config, 'ANTHROPIC_API_KEY', env, true),
        ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      });
      return { ...base, model: anthropic(config.model) };
    }
    case 'openai-compatible': {
      const server = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseUrl as string,
        apiKey: key(config, 'OPENAI_API_KEY', env, false),
      });
      return { ...base, model: server.chatModel(config.model) };
    }
  }
}
