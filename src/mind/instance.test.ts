import { scratchDir } from '../test-support/cli.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoals, readValues, writeGoals } from './files.js';
import { commitData, git, initInstance, instancePaths, STEPS } from './instance.js';
import { listSkills } from './skills.js';

const root = () => join(scratchDir('mind-instance-'), 'mind');

describe('mind init', () => {
  it('scaffolds data/ under git with one commit, the chat skill and every step prompt', () => {
    const r = initInstance(root(), 2026);
    const p = instancePaths(r.root);
    expect(readValues(p.data).length).toBeGreaterThan(0);
    expect(readGoals(p.data, 2026)).toEqual([expect.objectContaining({ status: 'perpetual' })]);
    expect(existsSync(join(p.data, 'soul.md'))).toBe(true);
    expect(git(p.data, ['log', '--format=%s']).trim()).toBe('mind init');
    expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(listSkills(p.skills)).toEqual(['chat']);
    for (const step of STEPS)
      for (const file of ['system.md', 'prompt.md'])
        expect(readFileSync(join(p.prompts, step, file), 'utf8').trim(), `${step}/${file}`).not.toBe('');
  });

  it('ships a chat skill that answers --help and says what it reads', () => {
    const p = instancePaths(initInstance(root(), 2026).root);
    const main = join(p.skills, 'chat', 'main.mjs');
    expect(execFileSync(process.execPath, [main, '--help'], { encoding: 'utf8' })).toMatch(/^chat: /);
    expect(execFileSync(process.execPath, [main], { input: 'hello\n', encoding: 'utf8' })).toBe('hello\n');
  });

  it('keeps what is there on a second run and makes no second commit', () => {
    const first = initInstance(root(), 2026);
    writeFileSync(join(first.root, 'data', 'soul.md'), 'changed');
    const again = initInstance(first.root, 2026);
    expect(again.created).toEqual([]);
    expect(again.commit).toBeUndefined();
    expect(readFileSync(join(first.root, 'data', 'soul.md'), 'utf8')).toBe('changed');
  });

  it("run again in a new year, keeps last year's open goals carrying over instead of starting the year from the template's", () => {
    const first = initInstance(root(), 2026);
    const p = instancePaths(first.root);
    writeGoals(p.data, 2026, [
      { name: 'learn Rust', weight: 0.7, status: 'todo' },
      { name: 'write a haiku', weight: 0.9, status: 'perpetual' },
      { name: 'finished', weight: 0.5, status: 'done' },
    ]);
    const again = initInstance(first.root, 2027);
    expect(again.created).toEqual([]);
    expect(again.kept).toContain(join('data', 'goals', '2026.json'));
    expect(readGoals(p.data, 2027).map((g) => g.name)).toEqual(['learn Rust', 'write a haiku']);
  });

  it('reports a corrupt values.json on init and leaves it untouched', () => {
    const first = initInstance(root(), 2026);
    const values = join(first.root, 'data', 'values.json');
    writeFileSync(values, '[{"name":"x","weight":7,"status":"active"}]');
    expect(() => initInstance(first.root, 2026)).toThrow(/values\.json is corrupt \(entry 1, weight/);
    expect(readFileSync(values, 'utf8')).toContain('"weight":7');
  });
});

describe('mind commit', () => {
  it('refuses to commit a corrupt file, naming each and its fix, so the restore fix still brings back a good version', () => {
    const p = instancePaths(initInstance(root(), 2026).root);
    writeFileSync(join(p.data, 'values.json'), '{bad');
    writeFileSync(join(p.data, 'goals', '2026.json'), '[1]');
    writeFileSync(join(p.data, 'soul.md'), 'a changed soul');
    expect(() => commitData(p.data, 'test')).toThrow(
      /Nothing was committed: 2 files in data\/ are corrupt[\s\S]*values\.json[\s\S]*2026\.json/,
    );
    expect(() => commitData(p.data, 'test')).toThrow(
      expect.objectContaining({ hint: expect.stringContaining(`git -C '${p.data}' checkout -- 'values.json'`) }),
    );
    expect(git(p.data, ['log', '--format=%s']).trim()).toBe('mind init');
    execFileSync('git', ['-C', p.data, 'checkout', '--', 'values.json', 'goals/2026.json']);
    expect(commitData(p.data, 'test')).toMatch(/^[0-9a-f]{40}$/);
  });
});
