/**
 * The observe hook's capture, after every tool call: map, drop noise, spool. It never opens
 * the database (nor loads SQLite); the next hook, import or learning run drains the spool.
 */
import type { ProjectInfo } from '../core/project.js';
import type { HookInput } from './agents.js';
import { toolObservation } from './build.js';
import { eachRolloutCall } from './codex-rollout.js';
import { spoolObservation } from './spool/write.js';

interface Observed {
  status: 'spooled' | 'noise' | 'ignored';
  detail?: string;
}

/** Spools the call (with, for Codex, the patches its hooks never saw); says what became of the call itself. */
export function observeToolCall(home: string, input: HookInput, project: ProjectInfo): Observed {
  const spool = (one: HookInput): Observed => {
    const built = toolObservation(one, project);
    if (!('observation' in built)) return built;
    spoolObservation(home, built.observation);
    return { status: 'spooled' };
  };
  return eachRolloutCall(input, spool);
}
