/**
 * The observe hook's capture, after every tool call: map, drop noise, spool. It never opens
 * the database (nor loads SQLite); the next hook, import or learning run drains the spool.
 */
import type { ProjectInfo } from '../core/project.js';
import type { HookInput } from './agents.js';
import { toolObservation } from './build.js';
import { spoolObservation } from './spool/write.js';

interface Observed {
  status: 'spooled' | 'noise' | 'ignored';
  detail?: string;
}

export function observeToolCall(home: string, input: HookInput, project: ProjectInfo): Observed {
  const built = toolObservation(input, project);
  if (!('observation' in built)) return built;
  spoolObservation(home, built.observation);
  return { status: 'spooled' };
}
