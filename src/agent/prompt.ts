/**
 * The prompt builder (seed 001): the agent's persona (agents/<name>/SOUL.md), the
 * workspace's AGENTS.md, the tool definitions, the memory Homunculus recalls for the message
 * (instincts, memories and graph facts, fenced as data with their provenance by
 * context/inject.ts, the same block the hooks inject), and matched skills. Skills arrive in
 * a later issue: the hook is typed and matches nothing yet.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectInfo } from '../core/project.js';
import { promptInjection } from '../context/inject.js';
import type { Store } from '../store/store.js';
import type { ToolRegistry } from './tools/registry.js';

export interface MatchedSkill {
  name: string;
  /** The skill's instructions, included as written. */
  body: string;
}

/** Finds the skills a message calls for. */
export type SkillMatcher = (message: string) => MatchedSkill[];

export const noSkills: SkillMatcher = () => [];

export interface PromptParts {
  soul: string;
  agents: string;
  tools: { name: string; description: string; trust: string; confirm: boolean }[];
  /** Already fenced; empty when nothing relevant is known. */
  memory: string;
  skills: MatchedSkill[];
}

const section = (title: string, body: string): string => `## ${title}\n\n${body.trim()}`;

/** The system prompt from its parts, empty parts left out. Pure. */
export function composeSystemPrompt(p: PromptParts): string {
  const tools = p.tools.map((t) => `- ${t.name} (${t.trust}${t.confirm ? ', asks the person first' : ''}): ${t.description}`);
  return [
    p.soul.trim() ? p.soul.trim() : 'You are a helpful personal assistant.',
    p.agents.trim() ? section('Workspace rules (AGENTS.md)', p.agents) : '',
    tools.length ? section('Tools', `Call a tool when it helps; each says how far it reaches.\n${tools.join('\n')}`) : '',
    p.skills.length ? section('Skills', p.skills.map((s) => `### ${s.name}\n${s.body.trim()}`).join('\n\n')) : '',
    p.memory.trim() ? section('Memory', p.memory) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

const readIf = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

export interface PromptSources {
  store: Store;
  workspace: string;
  /** The agent whose SOUL.md is read (agents/<agent>/SOUL.md). */
  agent: string;
  project: ProjectInfo;
  registry: ToolRegistry;
  skills?: SkillMatcher;
}

/** The system prompt for one message of one session. */
export async function buildSystemPrompt(src: PromptSources, message: string, session: string): Promise<string> {
  const memory = await promptInjection(src.store, { project: src.project, prompt: message, sessionId: session });
  return composeSystemPrompt({
    soul: readIf(join(src.workspace, 'agents', src.agent, 'SOUL.md')),
    agents: readIf(join(src.workspace, 'AGENTS.md')),
    tools: src.registry.list().map((t) => ({ name: t.name, description: t.description, trust: t.trust, confirm: t.confirm })),
    memory,
    skills: (src.skills ?? noSkills)(message),
  });
}
