/**
 * The kernel hands each loop a write capability holding exactly its cells of the permission
 * table. Whatever the model answers, a forbidden write is refused, recorded as a kernel memory,
 * and does not happen.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { writeFileAtomic } from '../core/fs.js';
import * as files from './files.js';
import { type Loop, mayWrite, PERMISSIONS, readableAuthors, type Resource, writableAuthors } from './permissions.js';
import type { Goal, Memory, Value } from './schemas.js';
import { isTriggerMark, MARK } from './triggers.js';

/** A write the kernel allowed (`changed`: false when it held what was there already), or its refusal. */
export type WriteResult = { done: true; changed: boolean; detail?: string } | { done: false; refused: string };

export interface MindWrites {
  readonly loop: Loop;
  writeSoul(text: string): WriteResult;
  writeValues(values: Value[]): WriteResult;
  /** Sets a goal's status, or creates it; weight and perpetual status are reflection's. */
  setGoal(year: number, goal: Goal): WriteResult;
  /** Writes a new skill's files under skills/<name>/ (checking it answers --help is the create-skill tool's). */
  createSkill(name: string, files: Record<string, string>): WriteResult;
  /** A memory the model proposes: as `self` or `goal`, never in a situation the kernel's triggers read. */
  remember(memory: Omit<Memory, 'timestamp'>): WriteResult;
  /** The kernel's own record of what happened in the loop: the model's prediction, its delta, the user's words (`external`). */
  keep(memory: Omit<Memory, 'timestamp'>): WriteResult;
  /** Records a kernel memory (the audit trail; no loop may author one through remember). */
  kernelNote(description: string, situation?: string): void;
  /** The memories this loop may see. */
  memories(date?: string): Memory[];
}

/** Which cell a goal change needs: a new weight, or entering or leaving perpetual, is a reflection change. */
function goalResource(existing: Goal | undefined, next: Goal): Resource {
  if (!existing) return next.status === 'perpetual' ? 'goals.weight' : 'goals.status';
  const perpetualChange = (existing.status === 'perpetual') !== (next.status === 'perpetual');
  return existing.weight !== next.weight || perpetualChange ? 'goals.weight' : 'goals.status';
}

/** Whose a resource is, said in a refusal (seed 004's table). */
const WHOSE: Readonly<Record<Resource, string>> = {
  soul: 'only reflection writes soul.md',
  values: 'only reflection changes the values',
  'goals.status': "a goal's status is written by the loops the table allows",
  'goals.weight': "a goal's weight and whether it is perpetual are reflection's",
  skills: 'only the action loop creates skills',
  memory: "that author is not a loop's to write",
};

/** The values a reflection proposes, kept whole: a value it leaves out is deprecated, never deleted. */
function nextValues(held: readonly Value[], proposed: readonly Value[]): Value[] {
  const named = new Set(proposed.map((v) => v.name));
  return [...proposed, ...held.filter((v) => !named.has(v.name)).map((v) => ({ ...v, status: 'deprecated' as const }))];
}

/** What a reflection changed in the values, in a few words ("honesty deprecated; care 0.6 -> 0.8; play added"). Pure. */
export function valueChanges(held: readonly Value[], next: readonly Value[]): string {
  const before = new Map(held.map((v) => [v.name, v]));
  return next
    .flatMap((v) => {
      const was = before.get(v.name);
      if (!was) return [`${v.name} added`];
      return [
        ...(was.status !== v.status ? [`${v.name} ${v.status === 'deprecated' ? 'deprecated' : 'active again'}`] : []),
        ...(was.weight !== v.weight ? [`${v.name} ${was.weight} -> ${v.weight}`] : []),
      ];
    })
    .join('; ');
}

const duplicateName = (items: readonly { name: string }[]): string | undefined =>
  items.map((i) => i.name).find((name, i, all) => all.indexOf(name) !== i);

/** The instance's folders a loop touches. */
export interface MindDirs {
  data: string;
  skills: string;
}

const SKILL_NAME = /^[a-z][a-z0-9-]{0,39}$/;
const SKILL_FILE = /^[A-Za-z0-9_.-]+$/;

/** Why a new skill's files may not be written, or undefined: names that leave skills/<name>/, or a folder already there. */
function skillProblem(skills: string, name: string, content: Record<string, string>): string | undefined {
  const bad = [name, ...Object.keys(content)].find((n, i) => !(i === 0 ? SKILL_NAME : SKILL_FILE).test(n) || n.startsWith('.'));
  if (bad !== undefined)
    return `a skill may not be named or hold a file named ${JSON.stringify(bad)}: lower-case names such as "weather" and plain file names`;
  // A folder with no entry point the kernel knows is still someone's: a rejected skill is removed whole.
  if (existsSync(join(skills, name))) return `skills/${name}/ is there already without an entry point; it is left as it is`;
  return undefined;
}

export function capability(loop: Loop, dirs: MindDirs, clock: Clock): MindWrites {
  const { data } = dirs;
  const now = () => clock.now().toISOString();
  const kernelNote = (description: string, situation = `${loop} loop`): void =>
    files.appendMemory(data, { timestamp: now(), author: 'kernel', weight: 1, situation, description });
  const refuse = (resource: Resource, what: string, why = WHOSE[resource]): WriteResult => {
    const refused = `The ${loop} loop may not write ${resource} (${what}: ${why}); refused by the kernel.`;
    kernelNote(refused);
    return { done: false, refused };
  };
  /** Writes when the loop may; a write of what is already there is allowed and changes nothing. */
  const guarded = (resource: Resource, what: string, write: () => void, same = false): WriteResult => {
    if (!mayWrite(loop, resource)) return refuse(resource, what);
    if (!same) write();
    return { done: true, changed: !same };
  };
  const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  return {
    loop,
    writeSoul(text) {
      if (mayWrite(loop, 'soul') && !text.trim()) return refuse('soul', 'soul.md', 'an empty soul.md would erase who the mind is');
      return guarded('soul', 'soul.md', () => files.writeSoul(data, text), files.readSoul(data) === text);
    },
    writeValues(values) {
      const twice = duplicateName(values);
      if (mayWrite(loop, 'values') && twice !== undefined) return refuse('values', 'values.json', `"${twice}" is named twice`);
      const held = files.readValues(data);
      const next = nextValues(held, values);
      const result = guarded('values', 'values.json', () => files.writeValues(data, next), sameJson(held, next));
      return result.done && result.changed ? { ...result, detail: valueChanges(held, next) } : result;
    },
    setGoal(year, goal) {
      const goals = files.readGoals(data, year);
      const existing = goals.find((g) => g.name === goal.name);
      if (!existing && mayWrite(loop, 'goals.status') && !PERMISSIONS['goals.status'][loop].includes('create'))
        return refuse('goals.status', `new goal "${goal.name}"`, 'only the explore loop creates goals');
      const next = existing ? goals.map((g) => (g === existing ? goal : g)) : [...goals, goal];
      const write = () => files.writeGoals(data, year, next);
      const result = guarded(goalResource(existing, goal), `goal "${goal.name}"`, write, sameJson(existing, goal));
      // A completed goal is a reason to reflect (triggers.ts).
      if (result.done && result.changed && goal.status === 'done' && existing?.status !== 'done')
        kernelNote(`"${goal.name}" is done`, MARK.completed);
      return result;
    },
    createSkill(name, content) {
      const problem = mayWrite(loop, 'skills') ? skillProblem(dirs.skills, name, content) : undefined;
      if (problem) return refuse('skills', `skill "${name}"`, problem);
      const write = () => Object.entries(content).forEach(([file, text]) => writeFileAtomic(join(dirs.skills, name, file), text));
      return guarded('skills', `skill "${name}"`, write);
    },
    remember(memory) {
      if (!writableAuthors.includes(memory.author)) return refuse('memory', `a memory authored "${memory.author}"`);
      if (isTriggerMark(memory.situation))
        return refuse('memory', `a memory in the situation "${memory.situation}"`, 'the kernel records that situation itself');
      return guarded('memory', 'a memory', () => files.appendMemory(data, { timestamp: now(), ...memory }));
    },
    keep: (memory) => guarded('memory', 'a memory', () => files.appendMemory(data, { timestamp: now(), ...memory })),
    kernelNote,
    memories: (date) => files.readMemories(data, date).filter((m) => readableAuthors(loop).includes(m.author)),
  };
}
