/** The end of a session starts a learning run in the background, from the built hooks as agents run them. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installRoot } from '../core/entry.js';
import { homePaths } from '../core/paths.js';
import { REPO_ROOT, cli, tempDir } from '../test-support/cli.js';

const until = async (done: () => boolean, ms: number): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (done()) return true;
  return done();
};

describe('learning after a session', () => {
  const dirs: { cleanup: () => void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  it('runs `learn` once a session ends, started by the bundled stop hook', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const home = dir.path;
    const call = (hook: string, event: string, extra: Record<string, unknown>) =>
      cli(home, ['hook', hook], { input: JSON.stringify({ session_id: 's1', cwd: home, hook_event_name: event, ...extra }) });
    expect(call('prompt', 'UserPromptSubmit', { prompt: 'run the tests' }).status).toBe(0);
    const tool = { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok', exit_code: 0 } };
    expect(call('observe', 'PostToolUse', tool).status).toBe(0);
    expect(call('stop', 'SessionEnd', { reason: 'exit' }).status).toBe(0);
    const log = join(home, 'observer.log');
    // The run is detached: it writes its account when it is done.
    await until(() => existsSync(join(home, 'last-processing.log')), 30_000);
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toMatch(/Cannot find module|Error/);
    expect(existsSync(join(home, 'last-processing.log'))).toBe(true);
    // It goes on a little after its account (the lock released, the store closed): the folder is removed once it is done.
    const paths = homePaths(home);
    await until(() => !existsSync(join(paths.locks, 'observer.lock')) && !existsSync(`${paths.db}-wal`), 30_000);
  }, 60_000);

  it('finds the installation from a chunk of the hooks bundle as from dist/core', () => {
    expect(installRoot(join(REPO_ROOT, 'dist', 'hooks', 'bundle', 'start-X.js'))).toBe(REPO_ROOT);
    expect(installRoot(join(REPO_ROOT, 'dist', 'core', 'entry.js'))).toBe(REPO_ROOT);
  });
});
