/**
 * Skills (seed 001's Skills Loader): `workspace/skills/<name>/SKILL.md`, YAML front matter
 * (name, description, triggers, tools) and instructions. A message that holds a trigger (a
 * word or phrase, case-insensitive) gets the skill's text in the prompt as a `<skill>` section.
 * Skills are a supply chain: their text is data inside the prompt; they cannot add a tool (one
 * that names an unknown tool is refused) and cannot pass a confirmation or the sandbox, which
 * the registry enforces whatever the prompt says.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseFrontmatter } from '../core/frontmatter.js';
import { containsPhrase } from './agent-routing.js';
import type { Skipped } from './persona.js';
import type { MatchedSkill, SkillMatcher } from './prompt.js';
import { describeIssues } from './tools/registry.js';

const skillMeta = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'must be lowercase letters, digits, - or _, e.g. "daily-review"'),
    description: z.string().min(1).max(500),
    triggers: z.array(z.string().trim().min(1)).min(1, 'needs at least one word or phrase'),
    tools: z.array(z.string().min(1)).default([]),
  })
  .strict();

export interface Skill {
  name: string;
  description: string;
  triggers: string[];
  tools: string[];
  body: string;
}

/** One skill from its SKILL.md; throws with the fix when it is malformed or names a tool that does not exist. Pure. */
export function parseSkill(folder: string, text: string, toolNames: readonly string[]): Skill {
  const { data, body } = parseFrontmatter(text);
  const meta = skillMeta.safeParse(data);
  if (!meta.success) throw new Error(`${describeIssues(meta.error)} (front matter: name, description, triggers: [words], tools: [names])`);
  if (meta.data.name !== folder) throw new Error(`its name "${meta.data.name}" differs from its folder "${folder}"; make them the same`);
  const unknown = meta.data.tools.filter((t) => !toolNames.includes(t));
  if (unknown.length)
    throw new Error(
      `it names tools that do not exist: ${unknown.join(', ')} (skills cannot add tools; the tools are: ${toolNames.join(', ')})`,
    );
  if (!body.trim()) throw new Error('it has no instructions after the front matter');
  return { ...meta.data, body };
}

/** Every skill under `workspace/skills/`, by name, with the ones skipped and why. */
export function loadSkills(workspace: string, toolNames: readonly string[]): { skills: Skill[]; skipped: Skipped[] } {
  const dir = join(workspace, 'skills');
  const skills: Skill[] = [];
  const skipped: Skipped[] = [];
  const folders = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
  for (const { name } of folders.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(dir, name, 'SKILL.md');
    if (!existsSync(file)) {
      skipped.push({ name, reason: `no SKILL.md in skills/${name}/` });
      continue;
    }
    try {
      skills.push(parseSkill(name, readFileSync(file, 'utf8'), toolNames));
    } catch (err) {
      skipped.push({ name, reason: `skills/${name}/SKILL.md: ${(err as Error).message}` });
    }
  }
  return { skills, skipped };
}

/** The skills whose triggers the message holds. Pure. */
export function matchSkills(skills: readonly Skill[], message: string): MatchedSkill[] {
  return skills.filter((s) => s.triggers.some((t) => containsPhrase(message, t))).map((s) => ({ name: s.name, body: s.body }));
}

/** The prompt builder's hook over the skills loaded now. */
export const skillMatcher =
  (skills: readonly Skill[]): SkillMatcher =>
  (message) =>
    matchSkills(skills, message);
