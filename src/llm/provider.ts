/**
 * One interface for every model: ask for a JSON object matching a zod schema, within a
 * timeout and an output cap. Providers: the Anthropic API and any OpenAI-compatible server
 * (Ollama, llama.cpp, vLLM) through the AI SDK, and the `claude -p` CLI.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type LanguageModel, Output, generateText } from 'ai';
import type { z } from 'zod';
import { HomunculusError } from '../core/errors.js';
import { runClaudeCli } from './claude-cli.js';
import type { LlmConfig } from './config.js';

export interface StructuredRequest<T> {
  system: string;
  prompt: string;
  schema: z.ZodType<T>;
  maxOutputTokens: number;
  timeoutMs: number;
}

export interface StructuredResult<T> {
  object: T;
  usage: { inputTokens: number; outputTokens: number };
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
}

/** Any AI SDK language model (real providers, or MockLanguageModelV3 in tests). */
export function aiSdkProvider(name: string, modelId: string, model: LanguageModel): LlmProvider {
  return {
    name,
    model: modelId,
    async generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const result = await generateText({
        model,
        system: request.system,
        prompt: request.prompt,
        output: Output.object({ schema: request.schema }),
        maxOutputTokens: request.maxOutputTokens,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(request.timeoutMs),
      });
      return {
        object: result.output as T,
        usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
      };
    },
  };
}

function apiKey(config: LlmConfig, fallbackEnv: string, env: NodeJS.ProcessEnv, required: boolean): string | undefined {
  const name = config.apiKeyEnv ?? fallbackEnv;
  const key = env[name];
  if (required && !key) {
    throw new HomunculusError('llm_key', `The ${config.provider} provider needs an API key in $${name}.`, {
      hint: `Export ${name}=..., set llm.apiKeyEnv to the variable that holds it, or remove the "llm" section to run without a model.`,
    });
  }
  return key || undefined;
}

export function createProvider(config: LlmConfig, env: NodeJS.ProcessEnv = process.env): LlmProvider {
  switch (config.provider) {
    case 'anthropic': {
      const model = config.model as string;
      const anthropic = createAnthropic({
        apiKey: apiKey(config, 'ANTHROPIC_API_KEY', env, true),
        ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      });
      return aiSdkProvider('anthropic', model, anthropic(model));
    }
    case 'openai-compatible': {
      const model = config.model as string;
      const server = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseUrl as string,
        apiKey: apiKey(config, 'OPENAI_API_KEY', env, false),
        supportsStructuredOutputs: true,
      });
      return aiSdkProvider('openai-compatible', model, server.chatModel(model));
    }
    case 'claude-cli':
      return {
        name: 'claude-cli',
        model: config.model ?? 'default',
        generate: (request) => runClaudeCli(config.command, config.model, request, env),
      };
  }
}
