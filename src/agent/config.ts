/**
 * The `agent` section of config.json, validated with zod: the local model (the default
 * route), the remote one (escalation), the daily budget in USD and the prices it is counted
 * at. Every error names the field and shows a working example. Other parts of the agent (the
 * gateway, web and mqtt tools) keep their own keys in the same section, so unknown top-level
 * keys are left to them; the parts defined here are strict.
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { HomunculusError } from '../core/errors.js';
import { closestWords } from '../core/text.js';
import { schedulerConfigFields } from './scheduler/config.js';

export const MODEL_PROVIDERS = ['ollama', 'anthropic', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as ANTHROPIC_API_KEY')
  .optional();

export const modelConfigSchema = z
  .object({
    provider: z.enum(MODEL_PROVIDERS),
    model: z.string().trim().min(1),
    baseUrl: z.url().optional(),
    /** Name of the environment variable holding the API key (never the key itself). */
    apiKeyEnv: envName,
    maxOutputTokens: z.number().int().min(64).max(64_000).default(4_096),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.provider === 'openai-compatible' && !m.baseUrl)
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: 'is required for an OpenAI-compatible server (e.g. http://127.0.0.1:8080/v1)',
      });
  });

export type ModelConfig = z.infer<typeof modelConfigSchema>;

export const DEFAULT_PRICES = { inputPerMTok: 3, outputPerMTok: 15 } as const;

const budgetSchema = z
  .object({
    dailyUsd: z.number().min(0).max(10_000).default(5),
    /** USD per million tokens for the remote model (seed 001: Claude Sonnet's $3 / $15). */
    prices: z
      .object({ inputPerMTok: z.number().min(0).default(3), outputPerMTok: z.number().min(0).default(15) })
      .strict()
      .default(DEFAULT_PRICES),
  })
  .strict();

export const agentConfigSchema = z.looseObject({
  local: modelConfigSchema.default({ provider: 'ollama', model: 'llama3.2', maxOutputTokens: 4_096 }),
  remote: modelConfigSchema.optional(),
  budget: budgetSchema.default({ dailyUsd: 5, prices: DEFAULT_PRICES }),
  maxSteps: z.number().int().min(1).max(100).default(25),
  /** How many earlier turns of a conversation the model is shown (the oldest are dropped). */
  historyTurns: z.number().int().min(1).max(500).default(30),
  /** false: ask for whole answers instead of streams (a server whose streaming is broken). */
  stream: z.boolean().default(true),
  /** How long a dangerous tool call waits for a yes before it counts as no. */
  confirmTimeoutSeconds: z.number().int().min(5).max(3_600).default(300),
  /** A turn that takes longer stops its agent's worker thread, which restarts with the next message. */
  turnTimeoutSeconds: z.number().int().min(5).max(3_600).default(300),
  /** The scheduler: heartbeat interval, quiet hours, notification rate limit. */
  ...schedulerConfigFields,
});

export type AgentConfig = z.infer<typeof agentConfigSchema>;

const EXAMPLE =
  '{"agent": {"local": {"provider": "ollama", "model": "llama3.2"}, "remote": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "budget": {"dailyUsd": 5}}}';

/** Keys of the section other parts of the agent validate (tool-config.ts, telegram.ts). */
const OTHER_PARTS = ['gateway', 'web', 'mqtt', 'telegram'];

/** A key no part reads is a typo ("budgett"): ignored, the budget the user meant would be the default. */
function refuseUnknownKeys(section: unknown): void {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return;
  const known = [...Object.keys(agentConfigSchema.shape), ...OTHER_PARTS];
  const unknown = Object.keys(section).filter((k) => !known.includes(k));
  if (!unknown.length) return;
  const guesses = unknown.map((k) => {
    const near = closestWords(k, known)[0];
    return near ? `"${k}" (did you mean "${near}"?)` : `"${k}"`;
  });
  throw new HomunculusError(
    'config',
    `Unknown key${unknown.length > 1 ? 's' : ''} in the "agent" section of config.json: ${guesses.join(', ')}.`,
    {
      hint: `Fix the spelling or remove it. The keys are ${[...known].sort().join(', ')}.`,
    },
  );
}

/** A key written into the file where only the name of its environment variable belongs. */
function refuseKeyInFile(section: unknown): void {
  for (const side of ['local', 'remote'] as const) {
    const model = (section as Record<string, unknown> | undefined)?.[side];
    if (typeof model !== 'object' || model === null) continue;
    const written = Object.keys(model).find((k) => /^api[_-]?key$/i.test(k));
    if (written)
      throw new HomunculusError('config', `agent.${side}.${written} holds an API key in config.json; keys are never kept in the file.`, {
        hint: `Remove it, export the key in your shell (e.g. export ANTHROPIC_API_KEY=...), and name that variable instead: "apiKeyEnv": "ANTHROPIC_API_KEY".`,
      });
  }
}

/** The validated section (defaults when absent), or an error naming each bad field. */
export function loadAgentConfig(config: Config): AgentConfig {
  refuseUnknownKeys(config.agent);
  refuseKeyInFile(config.agent);
  const parsed = agentConfigSchema.safeParse(config.agent ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `agent${i.path.length ? `.${i.path.join('.')}` : ''} ${i.message}`).join('; ');
    throw new HomunculusError('config', `Invalid "agent" section in config.json: ${problems}.`, {
      hint: `Fix the section. Example: ${EXAMPLE}. Providers: ${MODEL_PROVIDERS.join(', ')}.`,
    });
  }
  return parsed.data;
}
