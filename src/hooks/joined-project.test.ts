/** A checkout here joined to the history synced for its repository from folders this machine does not have. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../app/doctor.js';
import { resolveProject } from '../app/project-ref.js';
import { homePaths } from '../core/paths.js';
import { fingerprintOf } from '../core/project.js';
import { observe } from '../learn/instincts.js';
import type { Store } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { withHomeStore } from '../test-support/store.js';
import { runHook } from './run.js';

let dir: { path: string; cleanup: () => void };
let home: string;
const at = (minute: number): string => new Date(Date.UTC(2026, 1, 1, 10, minute)).toISOString();
const env = { HOMUNCULUS_NO_LEARN: '1', HOMUNCULUS_NOW: at(30) } as NodeJS.ProcessEnv;
const IMPORTED = fingerprintOf('name:cli');

const withStore = <T>(fn: (store: Store) => T): T => withHomeStore(home, at(0), fn);

/** A git checkout with `origin` at `remote`. */
function checkout(name: string, remote: string): string {
  const root = join(dir.path, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = ${remote}\n`);
  return root;
}

const payload = (cwd: string, session: string, extra: Record<string, unknown>): string =>
  JSON.stringify({ session_id: session, cwd, transcript_path: '/t.jsonl', timestamp: at(10), ...extra });
const prompt = (cwd: string, session: string, text: string) =>
  runHook('prompt', payload(cwd, session, { hook_event_name: 'UserPromptSubmit', prompt: text }), { home, env });
const context = (stdout: string): string =>
  stdout ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '';

beforeEach(async () => {
  dir = tempDir('hom-joined-');
  home = join(dir.path, 'home');
  // History synced from a teammate's checkout, a folder this machine does not have: filed under the name cli.
  const theirs = '/nowhere/dip/Repositories/cli';
  await runHook('prompt', payload(theirs, 'old', { hook_event_name: 'UserPromptSubmit', prompt: 'run the tests' }), { home, env });
  // What makes it this repository's history: it names the repository (here a pull request's URL).
  const pr = { command: 'gh pr view https://github.com/entireio/cli/pull/12' };
  const bash = { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: pr, tool_response: { stdout: 'open' }, tool_use_id: 'b1' };
  await runHook('observe', payload(theirs, 'old', bash), { home, env });
  await runHook('stop', payload(theirs, 'old', { hook_event_name: 'SessionEnd' }), { home, env });
  withStore((store) =>
    observe(store, {
      pattern: 'pref:cli/test=mise-run-test',
      trigger: 'when you need to run the tests in cli',
      action: 'use `mise run test`',
      project: IMPORTED,
      source: 'learn',
    }),
  );
});
afterEach(() => dir.cleanup());

describe('a checkout of a repository whose history was imported by name', () => {
  it('is given that history from its first prompt on, and what it records is filed there too', async () => {
    const mine = checkout('entire-cli', 'git@github.com:entireio/cli.git');
    expect(context((await prompt(mine, 'new', 'how do I run the tests here?')).stdout)).toContain('`mise run test`');
    expect(JSON.parse(readFileSync(join(home, 'projects.json'), 'utf8'))).toEqual({
      [fingerprintOf('remote:github.com/entireio/cli')]: { fingerprint: IMPORTED, name: 'cli' },
    });
    // The observe hook, which never opens the database, files its call there as well.
    const edit = { hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: join(mine, 'a.go') }, tool_use_id: 'e1' };
    await runHook('observe', payload(mine, 'new', edit), { home, env });
    await runHook('stop', payload(mine, 'new', { hook_event_name: 'SessionEnd' }), { home, env });
    withStore((store) => {
      expect(store.observations.forSession('new').map((o) => o.project)).toEqual([IMPORTED, IMPORTED, IMPORTED]);
      expect(store.sessions.get('new')?.project).toBe(IMPORTED);
    });
    // doctor says which checkout took which history, and how to undo it.
    const checks = await runDoctor(homePaths(home), { userHome: dir.path, cwd: mine, env: {} });
    expect(checks.find((c) => c.name === 'projects')?.detail).toMatch(
      /checkout [0-9a-f]{16} uses the history synced for cli \(040c367c23054320\).*remove an entry/,
    );
  });

  it('is joined as well when a command runs there first (export-rules before any hook or MCP session)', () => {
    const mine = checkout('fresh-cli', 'git@github.com:entireio/cli.git');
    withStore((store) => expect(resolveProject(store, undefined, mine)).toBe(IMPORTED));
    expect(JSON.parse(readFileSync(join(home, 'projects.json'), 'utf8'))).toEqual({
      [fingerprintOf('remote:github.com/entireio/cli')]: { fingerprint: IMPORTED, name: 'cli' },
    });
  });

  it('is not joined when it has history of its own, nor when the history never names its repository', async () => {
    // Another organisation's cli, seen first: the history names entireio/cli, so it is not this one's.
    const other = checkout('their-cli', 'https://github.com/someone/cli');
    expect(context((await prompt(other, 'other', 'how do I run the tests here?')).stdout)).not.toContain('mise run test');
    const mine = checkout('cli', 'git@github.com:entireio/cli.git');
    expect(context((await prompt(mine, 'new', 'how do I run the tests here?')).stdout)).toContain('`mise run test`');
    // A checkout that had sessions of its own before `tools` history was imported keeps its project.
    const tools = checkout('tools', 'git@example.com:team/tools.git');
    await runHook('stop', payload(tools, 't1', { hook_event_name: 'SessionEnd' }), { home, env });
    await runHook('stop', payload('/nowhere/x/tools', 't0', { hook_event_name: 'SessionEnd' }), { home, env });
    await prompt(tools, 't2', 'hello there');
    // Each question answered once: someone's cli kept apart, entireio's joined, tools never asked (it has sessions).
    expect(JSON.parse(readFileSync(join(home, 'projects.json'), 'utf8'))).toEqual({
      [fingerprintOf('remote:github.com/someone/cli')]: { fingerprint: fingerprintOf('remote:github.com/someone/cli'), name: 'their-cli' },
      [fingerprintOf('remote:github.com/entireio/cli')]: { fingerprint: IMPORTED, name: 'cli' },
    });
    withStore((store) => expect(store.observations.forSession('t2')[0]?.project).toBe(fingerprintOf('remote:example.com/team/tools')));
  });
});
