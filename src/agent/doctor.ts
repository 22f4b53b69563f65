/** What `homunculus doctor` says about the agent's models and budget (config.json's `agent` section). Pure. */
import type { Config } from '../core/config.js';
import { type ModelConfig, loadAgentConfig } from './config.js';
import { loadTelegramSettings } from './telegram.js';
import { ollamaApiUrl } from './providers.js';
import type { ToolSettings } from './tool-config.js';

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
    // Anthropic always needs a key; another server needs the one its apiKeyEnv names, when it names one.
    if (m && keyEnv && (m.provider === 'anthropic' || m.apiKeyEnv !== undefined) && !env[keyEnv])
      return {
        name: 'agent',
        status: 'warn',
        detail: `the ${role} model (${describe(m)}) needs $${keyEnv}, which is not set`,
        fix: `Export ${keyEnv}, or set agent.${role}.apiKeyEnv to the variable that holds the key.`,
      };
  }
  try {
    loadTelegramSettings(config, env);
  } catch (err) {
    // `agent serve` would refuse to start with it.
    return { name: 'agent', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
  const remote = agent.remote ? `remote ${describe(agent.remote)}` : 'no remote model (everything stays local)';
  return { name: 'agent', status: 'ok', detail: `local ${describe(agent.local)}; ${remote}; budget $${agent.budget.dailyUsd} a day` };
}

export interface ServeVerdict {
  name: 'gateway' | 'mqtt';
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** The gateway's part of `doctor`: its settings valid, and a token set once the agent is set up. Pure. */
export function gatewayVerdict(settings: ToolSettings | Error, tokenSet: boolean, agentSetUp: boolean): ServeVerdict {
  if (settings instanceof Error)
    return { name: 'gateway', status: 'fail', detail: settings.message, fix: (settings as { hint?: string }).hint };
  const where = `127.0.0.1:${settings.gateway.port}`;
  if (tokenSet) return { name: 'gateway', status: 'ok', detail: `a token is set; \`agent serve\` listens on ${where}` };
  return {
    name: 'gateway',
    status: agentSetUp ? 'warn' : 'ok',
    detail: `no token yet: \`agent serve\` (on ${where}) refuses to start without one`,
    ...(agentSetUp ? { fix: 'Run `homunculus agent token` (it is shown once; keep it).' } : {}),
  };
}

/** The MQTT broker of agent.mqtt, when there is one: whether it answers a TCP connection. Pure. */
export function mqttVerdict(url: string | undefined, reachable: boolean | undefined, why = ''): ServeVerdict | undefined {
  if (url === undefined) return undefined;
  if (reachable) return { name: 'mqtt', status: 'ok', detail: `the broker at ${url} accepts connections` };
  return {
    name: 'mqtt',
    status: 'warn',
    detail: `the broker at ${url} does not answer${why ? ` (${why})` : ''}: the mqtt tool will fail`,
    fix: 'Start the broker (e.g. `mosquitto -d`), or fix agent.mqtt.url in config.json.',
  };
}
