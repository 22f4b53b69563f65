/**
 * What the agent already reads at session start: the rules Homunculus exported into the
 * project's rule files that this agent loads (Claude Code: CLAUDE.md; Codex: AGENTS.md; Gemini
 * CLI: GEMINI.md; Cursor: its rules). Given again in the start block, each reached the model twice.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../capture/agents.js';
import { learnedKeys } from '../core/rule-markers.js';

const FILES: Readonly<Record<Agent, readonly string[]>> = {
  'claude-code': ['CLAUDE.md', 'CLAUDE.local.md', '.claude/CLAUDE.md'],
  codex: ['AGENTS.md'],
  gemini: ['GEMINI.md'],
  cursor: ['AGENTS.md', '.cursorrules'],
};

/** A rule file is small; a huge one is not read in a hook. */
const MAX_BYTES = 512 * 1024;

const readSmall = (path: string): string => {
  try {
    return statSync(path).size <= MAX_BYTES ? readFileSync(path, 'utf8') : '';
  } catch {
    return '';
  }
};

/** Cursor's rules folder: every .mdc in it is loaded. */
function cursorRules(root: string): string[] {
  const dir = join(root, '.cursor', 'rules');
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.mdc'))
      .map((f) => join('.cursor', 'rules', f));
  } catch {
    return [];
  }
}

const filesOf = (root: string, agent: Agent): string[] => [...FILES[agent], ...(agent === 'cursor' ? cursorRules(root) : [])];

/** The instinct keys exported into the rule files `agent` loads from `root`; none without a root. */
export function exportedKeys(root: string, agent: Agent): Set<string> {
  if (!root) return new Set();
  return new Set(filesOf(root, agent).flatMap((f) => keysIn(root, f)));
}

/** The rule files every agent loads from `root` (relative paths). */
export const agentRuleFiles = (root: string): string[] => [
  ...new Set((Object.keys(FILES) as Agent[]).flatMap((agent) => filesOf(root, agent))),
];

/** The instinct keys the learned block of `root`/`file` holds; none when it is missing or too large. */
export const keysIn = (root: string, file: string): string[] => learnedKeys(readSmall(join(root, file)));
