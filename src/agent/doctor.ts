/** What `homunculus doctor` says about the agent's models and budget (config.json's `agent` section). Pure. */
import type { Config } from '../core/config.js';
import { type ModelConfig, loadAgentConfig } from './config.js';
import { ollamaApiUrl } from './providers.js';

export interface AgentVerdict {
  name: 'agent';
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const KEY_ENV: Readonly<Record<ModelConfig['provider'], string | undefined>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  ollama: undefined,
  'openai-compatible': undefined,
};

const describe = (m: ModelConfig): string =>
  `${m.provider} ${m.model}${m.provider === 'ollama' ? ` at ${ollamaApiUrl(m.baseUrl)}` : m.baseUrl ? ` at ${m.baseUrl}` : ''}`;

/** The verdict on the agent section: invalid fails, a remote model without its key warns. */
export function agentConfigVerdict(config: Config, env: NodeJS.ProcessEnv, agentSetUp: boolean): AgentVerdict {
  if (config.agent === undefined && !agentSetUp) return { name: 'agent', status: 'ok', detail: 'the personal agent is not set up' };
  let agent;
  try {
    agent = loadAgentConfig(config);
  } catch (err) {
    return { name: 'agent', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
  for (const [role, m] of [
    ['local', agent.local],
    ['remote', agent.remote],
  ] as const) {
    const keyEnv = m && (m.apiKeyEnv ?? KEY_ENV[m.provider]);
    if (m && keyEnv && m.provider === 'anthropic' && !env[keyEnv])
      return {
        name: 'agent',
        status: 'warn',
        detail: `the ${role} model (${describe(m)}) needs $${keyEnv}, which is not set`,
        fix: `Export ${keyEnv}, or set agent.${role}.apiKeyEnv to the variable that holds the key.`,
      };
  }
  const remote = agent.remote ? `remote ${describe(agent.remote)}` : 'no remote model (everything stays local)';
  return { name: 'agent', status: 'ok', detail: `local ${describe(agent.local)}; ${remote}; budget $${agent.budget.dailyUsd} a day` };
}
