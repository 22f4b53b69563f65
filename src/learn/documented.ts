/**
 * What the project's own agent instructions (CLAUDE.md, AGENTS.md) already say: an instinct
 * that restates them is marked documented and never injected or exported, since the agent
 * reads those files anyway. Only distinctive subjects count: a project command or recipe
 * written out in the file, a linter rule named in it. Pure; the learner reads the files.
 */
import type { Candidate } from './mine/candidate.js';
import { escapeRegExp } from '../core/text.js';

export function restates(c: Pick<Candidate, 'miner' | 'facts'>, doc: string): boolean {
  if (!doc) return false;
  const command = typeof c.facts?.command === 'string' ? c.facts.command : '';
  if ((c.miner === 'project-command' || c.miner === 'recipe') && command)
    return new RegExp(`(^|[\\s\`'"])${escapeRegExp(command)}($|[\\s\`'"])`, 'i').test(doc);
  const rule = /^golangci-([a-z][\w]*)/.exec(typeof c.facts?.error === 'string' ? c.facts.error : '')?.[1];
  if (c.miner === 'error-fix' && rule) return new RegExp(`\\b${escapeRegExp(rule)}\\b`, 'i').test(doc);
  return false;
}

/** Whether an instinct's metadata says the project's instructions already state it. */
export const isDocumented = (metadata: Record<string, unknown>): boolean => metadata.documented === true;
