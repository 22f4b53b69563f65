/** An agent runtime over a temporary home and store, its models pointed at loopback stubs. */
import { z } from 'zod';
import { homePaths } from '../core/paths.js';
import { createAgentRuntime, type AgentRuntime, type RuntimeOptions } from '../agent/runtime.js';
import { scaffoldWorkspace } from '../agent/workspace.js';
import { BUILTIN_TOOLS } from '../agent/tools/builtin.js';
import { ToolRegistry, defineTool } from '../agent/tools/registry.js';
import { type TestStore, testStore } from './store.js';

export interface LoopHarness extends AgentRuntime {
  store: TestStore;
  home: string;
  audit: string;
  /** How many times the dangerous `launch` tool ran. */
  launches: () => number;
  cleanup(): void;
}

/** A model section pointing at a stub: Anthropic's base URL ends in /v1, Ollama's is the server's root. */
export const stubModel = (provider: 'anthropic' | 'ollama', baseUrl: string) =>
  provider === 'anthropic'
    ? { provider, model: 'claude-stub', baseUrl: `${baseUrl}/v1`, apiKeyEnv: 'STUB_ANTHROPIC_KEY' }
    : { provider, model: 'llama-stub', baseUrl };

export const STUB_ENV = { STUB_ANTHROPIC_KEY: 'stub-key' };

export function loopHarness(
  agent: Record<string, unknown>,
  now = '2026-11-26T08:00:00.000Z',
  extra: Pick<RuntimeOptions, 'skills'> = {},
): LoopHarness {
  const store = testStore(now);
  const home = store.paths.home;
  scaffoldWorkspace(homePaths(home).workspace);
  let launches = 0;
  const launch = defineTool({
    name: 'launch',
    description: 'Launches something; needs a yes.',
    input: z.object({ target: z.string() }).strict(),
    trust: 'external',
    confirm: true,
    run: (_ctx, input) => {
      launches++;
      return { launched: input.target };
    },
  });
  const runtime = createAgentRuntime({
    store,
    home,
    config: { agent },
    clock: { now: () => store.clock.now() },
    env: STUB_ENV,
    registry: new ToolRegistry([...BUILTIN_TOOLS, launch]),
    ...extra,
  });
  return { ...runtime, store, home, audit: homePaths(home).audit, launches: () => launches, cleanup: () => store.cleanup() };
}
