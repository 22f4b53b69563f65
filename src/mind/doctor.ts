/** What `homunculus doctor` says about the mind instance: its files valid, its prompts present, data/ under git. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readGoals, readMemories, readSoul, readValues, valuesPath } from './files.js';
import { git, instancePaths, STEPS } from './instance.js';
import { checkPrompts } from './loops.js';
import { LOOPS } from './permissions.js';
import { listSkills } from './skills.js';
import { counted } from '../core/text.js';

export interface MindVerdict {
  name: 'mind';
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

const PROMPT_FILES = [
  ...STEPS.flatMap((s) => [join(s, 'system.md'), join(s, 'prompt.md')]),
  join('situations', 'idle.md'),
  join('situations', 'chat.md'),
];

/** Reads every file the loops read, as they read it: a corrupt one fails with its own fix. */
export function mindVerdict(root: string, year: number): MindVerdict {
  const paths = instancePaths(root);
  if (!existsSync(paths.data)) return { name: 'mind', status: 'ok', detail: 'the mind is not set up (homunculus mind init)' };
  let memories: number;
  try {
    readSoul(paths.data);
    readValues(paths.data);
    readGoals(paths.data, year);
    memories = readMemories(paths.data).length;
  } catch (err) {
    return { name: 'mind', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
  const missing = PROMPT_FILES.filter((f) => !existsSync(join(paths.prompts, f)));
  if (missing.length)
    return {
      name: 'mind',
      status: 'fail',
      detail: `${missing.length} prompt file${missing.length === 1 ? ' is' : 's are'} missing, e.g. prompts/${missing[0]}`,
      fix: 'Run `homunculus mind init`: it restores missing files and keeps the others.',
    };
  try {
    for (const loop of LOOPS) checkPrompts(paths, loop);
  } catch (err) {
    return { name: 'mind', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
  const absent = [
    ...(existsSync(valuesPath(paths.data)) ? [] : ['data/values.json (the mind has no values)']),
    ...(listSkills(paths.skills).includes('chat') ? [] : ['the chat skill (mind chat cannot answer)']),
  ];
  if (absent.length)
    return {
      name: 'mind',
      status: 'warn',
      detail: `missing: ${absent.join('; ')}`,
      fix: 'Run `homunculus mind init`: it restores missing files and keeps the others.',
    };
  if (!existsSync(join(paths.data, '.git')))
    return {
      name: 'mind',
      status: 'warn',
      detail: `${paths.data} is not under git: no rollback or audit`,
      fix: 'Run `homunculus mind init`.',
    };
  const changed = git(paths.data, ['status', '--porcelain']).split('\n').filter(Boolean).length;
  const pending = changed ? `; ${counted(changed, 'file')} changed since the last commit (homunculus mind commit)` : '';
  return { name: 'mind', status: 'ok', detail: `the mind in ${root}: ${memories} memories, every file valid${pending}` };
}
