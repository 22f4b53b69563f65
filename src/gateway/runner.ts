/**
 * The runner `agent serve` talks to. The agent's loop (router, budget, prompt builder) is
 * built beside this part; it plugs in here. Until then every chat is refused with 503 and
 * says why, so the gateway, its token and its checks can already be run and tested.
 */
import type { AgentRunner } from '../agent/runner.js';
import { HomunculusError } from '../core/errors.js';

export const UNAVAILABLE = 'agent_unavailable';

export function unavailableRunner(): AgentRunner {
  const refuse = () =>
    Promise.reject(
      new HomunculusError(UNAVAILABLE, 'The agent loop is not part of this build yet, so the gateway cannot answer chats.', {
        hint: 'Update homunculus; /health and /api/v1/status work meanwhile.',
      }),
    );
  return { turn: refuse, confirm: refuse };
}
