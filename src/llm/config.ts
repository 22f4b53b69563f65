/**
 * The `llm` section of config.json, validated with zod. Absent or `"enabled": false` means
 * no model: everything works deterministically. Errors name the field and how to fix it.
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { HomunculusError } from '../core/errors.js';

const LLM_PROVIDERS = ['anthropic', 'openai-compatible', 'claude-cli'] as const;

export const llmConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    provider: z.enum(LLM_PROVIDERS),
    model: z.string().trim().min(1).optional(),
    baseUrl: z.url().optional(),
    /** Name of the environment variable holding the API key (never the key itself). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as ANTHROPIC_API_KEY')
      .optional(),
    /** The `claude` executable for the claude-cli provider. */
    command: z.string().trim().min(1).default('claude'),
    timeoutMs: z.number().int().min(1_000).max(600_000).default(60_000),
    maxOutputTokens: z.number().int().min(64).max(32_000).default(1_500),
    budget: z
      .object({
        perRunTokens: z.number().int().min(0).default(30_000),
        perDayTokens: z.number().int().min(0).default(150_000),
      })
      .strict()
      .default({ perRunTokens: 30_000, perDayTokens: 150_000 }),
  })
  .strict()
  .superRefine((cfg, ctx) => {
    if (cfg.provider !== 'claude-cli' && !cfg.model) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: `is required for the ${cfg.provider} provider` });
    }
    if (cfg.provider === 'openai-compatible' && !cfg.baseUrl) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: 'is required for an OpenAI-compatible server (e.g. http://127.0.0.1:11434/v1 for Ollama)',
      });
    }
  });

export type LlmConfig = z.infer<typeof llmConfigSchema>;

const EXAMPLE =
  '{"llm": {"provider": "anthropic", "model": "claude-haiku-4-5", "budget": {"perRunTokens": 30000, "perDayTokens": 150000}}}';

/**
 * What uses the `llm` section and how to set it, for a place that found none. The personal
 * agent's models (agent.local, agent.remote) are another section: a user who set those must
 * not read "no model" as their model being broken. Pure.
 */
export function llmSectionHelp(config: Config): string {
  const agent = config.agent;
  const agentModels = typeof agent === 'object' && agent !== null && ('local' in agent || 'remote' in agent);
  const separate = agentModels ? ", not the agent's models (agent.local, agent.remote), which only the personal agent uses" : '';
  return `Learning and the memory chat use the "llm" section of config.json${separate}; to set it: ${EXAMPLE} (docs/instincts.md).`;
}

/** The validated section, or undefined when none is configured or it is disabled. */
export function loadLlmConfig(config: Config): LlmConfig | undefined {
  const raw = config.llm;
  if (raw === undefined || raw === null) return undefined;
  const parsed = llmConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `llm${i.path.length ? `.${i.path.join('.')}` : ''} ${i.message}`).join('; ');
    throw new HomunculusError('config', `Invalid "llm" section in config.json: ${problems}.`, {
      hint: `Fix or remove the section. Example: ${EXAMPLE}. Providers: ${LLM_PROVIDERS.join(', ')}.`,
    });
  }
  return parsed.data.enabled ? parsed.data : undefined;
}
