/**
 * Personas (seed 001's Multi-Agent Manager): one agent per `agents/<name>/SOUL.md`, its
 * front matter optional: `tools` it may use (all when absent), `model` (local, remote or
 * auto) and `keywords` that route a message to it. A persona with bad front matter is
 * skipped with the reason, never half-loaded.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseFrontmatter } from '../core/frontmatter.js';
import { describeIssues } from './tools/registry.js';

export const AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** The scaffolded default SOUL.md's line that says what to write there: no description of anyone. */
export const SOUL_GUIDE = 'Who this agent is: its tone, its values, what it cares about.';

/** Without a `description`, the body's first line that says something: no heading, not the guide line, no list mark. */
function firstRealLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim() && !l.startsWith('#') && l.trim() !== SOUL_GUIDE);
  return line?.trim().replace(/^[-*+]\s+/, '') ?? '';
}

const personaMeta = z
  .object({
    description: z.string().max(300).optional(),
    tools: z.array(z.string().min(1)).optional(),
    model: z.enum(['local', 'remote', 'auto']).default('auto'),
    keywords: z.array(z.string().trim().min(1)).default([]),
  })
  .strict();

export interface Persona {
  name: string;
  description: string;
  /** The tools it may use; undefined: every registered tool. */
  tools?: string[];
  model: 'local' | 'remote' | 'auto';
  keywords: string[];
  soul: string;
}

export interface Skipped {
  name: string;
  reason: string;
}

/** Markdown whose front matter is optional: without a leading `---` block the whole text is the body. */
export function optionalFrontmatter(text: string): { data: Record<string, unknown>; body: string } {
  return /^\uFEFF?---\r?\n/.test(text) ? parseFrontmatter(text) : { data: {}, body: text.trim() };
}

/** One persona from its SOUL.md text; throws with the fix when the front matter is wrong. Pure. */
export function parsePersona(name: string, text: string): Persona {
  const { data, body } = optionalFrontmatter(text);
  const meta = personaMeta.safeParse(data);
  if (!meta.success)
    throw new Error(`${describeIssues(meta.error)} (allowed: description, tools: [names], model: local|remote|auto, keywords: [words])`);
  return {
    name,
    description: meta.data.description ?? firstRealLine(body),
    ...(meta.data.tools ? { tools: meta.data.tools } : {}),
    model: meta.data.model,
    keywords: meta.data.keywords.map((k) => k.toLowerCase()),
    soul: body,
  };
}

/** Every persona under `workspace/agents/`, sorted by name, with the ones skipped and why. */
export function loadPersonas(workspace: string): { personas: Persona[]; skipped: Skipped[] } {
  const dir = join(workspace, 'agents');
  const personas: Persona[] = [];
  const skipped: Skipped[] = [];
  const names = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
  for (const { name } of names.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(dir, name, 'SOUL.md');
    if (!AGENT_NAME.test(name)) skipped.push({ name, reason: 'the folder name must be lowercase letters, digits, - or _ (e.g. "coder")' });
    else if (!existsSync(file)) skipped.push({ name, reason: `no SOUL.md in agents/${name}/` });
    else
      try {
        personas.push(parsePersona(name, readFileSync(file, 'utf8')));
      } catch (err) {
        skipped.push({ name, reason: `agents/${name}/SOUL.md: ${(err as Error).message}` });
      }
  }
  // The default agent always exists: routing falls back to it.
  if (!personas.some((p) => p.name === 'default'))
    personas.unshift({ name: 'default', description: 'The general assistant', model: 'auto', keywords: [], soul: '' });
  return { personas, skipped };
}

const soul = (front: string, title: string, lines: string): string => `---\n${front}\n---\n# ${title}\n\n${lines}\n`;

/** The personas `agent init` offers, besides default (workspace.ts writes default's). */
export const PERSONA_SCAFFOLD: readonly { path: string; content: string }[] = [
  {
    path: 'agents/coder/SOUL.md',
    content: soul(
      'description: Writes, reviews and debugs code\nmodel: remote\nkeywords: [code, bug, function, compile, test, refactor, typescript, python, error]',
      'Soul of the coder',
      '- Precise; shows code, explains the change in a sentence.\n- Runs commands only in the sandbox, after a yes.',
    ),
  },
  {
    path: 'agents/home/SOUL.md',
    content: soul(
      'description: Runs the home (lights, sensors, MQTT)\nmodel: local\ntools: [mqtt_publish, mqtt_subscribe, datetime_now, memory_search]\nkeywords: [light, lights, lamp, temperature, thermostat, sensor, mqtt, heating, door]',
      'Soul of the home agent',
      '- Short answers; says what it switched and what it saw.',
    ),
  },
  {
    path: 'agents/researcher/SOUL.md',
    content: soul(
      'description: Finds and summarises sources\nkeywords: [research, search, find, source, sources, paper, article, compare, summarise, summarize]',
      'Soul of the researcher',
      '- Cites where each fact came from; says when sources disagree.',
    ),
  },
  {
    path: 'agents/planner/SOUL.md',
    content: soul(
      'description: Plans days, projects and steps\nkeywords: [plan, schedule, todo, tomorrow, week, deadline, steps, goal, organise, organize]',
      'Soul of the planner',
      '- Turns goals into short, dated steps; asks what matters most.',
    ),
  },
];
