/** `uninstall` as a user runs it: from the project, and from anywhere else. */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';

describe('homunculus uninstall', () => {
  const dirs: { cleanup: () => void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  it("names another project's installs it cannot reach, and --project alone removes every agent's project files", () => {
    const dir = tempDir();
    dirs.push(dir);
    const user = join(dir.path, 'user');
    const project = join(dir.path, 'work', 'app');
    const elsewhere = join(dir.path, 'elsewhere');
    mkdirSync(project, { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    const data = join(user, '.homunculus');
    const run = (args: string[], cwd: string) => cli(data, args, { cwd, env: { HOME: user } });
    for (const flags of [['--project'], ['--codex', '--project'], ['--gemini', '--project']])
      expect(run(['init', ...flags], project).status).toBe(0);
    const files = ['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json'].map((f) => join(project, f));
    expect(files.map((f) => existsSync(f))).toEqual([true, true, true]);

    const away = run(['uninstall'], elsewhere);
    expect(away.status).toBe(0);
    expect(away.stdout).toContain('Nothing to remove');
    expect(away.stdout).toContain('Still installed in other projects (run `homunculus uninstall --project` in each)');
    for (const f of files) expect(away.stdout).toContain(f);

    const here = run(['uninstall', '--project'], project);
    expect(here.status).toBe(0);
    expect(files.map((f) => existsSync(f))).toEqual([false, false, false]);
    expect(here.stdout).not.toContain('Still installed');
  });

  it('init --codex --project beside a user-wide install says at once that every call would be recorded twice', () => {
    const dir = tempDir();
    dirs.push(dir);
    const user = join(dir.path, 'user');
    const project = join(dir.path, 'work', 'app');
    mkdirSync(project, { recursive: true });
    const run = (args: string[]) => cli(join(user, '.homunculus'), args, { cwd: project, env: { HOME: user } });
    expect(run(['init', '--codex']).stdout).not.toContain('recorded twice');
    const both = run(['init', '--codex', '--project']);
    expect(both.status).toBe(0);
    expect(both.stdout).toContain('! Codex runs the hooks of both ~/.codex and this project, so every call is recorded twice');
    expect(both.stdout).toContain('`homunculus uninstall --codex`');
    // Gemini CLI runs one copy: nothing to say.
    expect(run(['init', '--gemini']).status).toBe(0);
    expect(run(['init', '--gemini', '--project']).stdout).not.toContain('recorded twice');
  });

  it('in the home folder, --project is refused: its files are the user-wide install', () => {
    const dir = tempDir();
    dirs.push(dir);
    const user = join(dir.path, 'user');
    mkdirSync(user, { recursive: true });
    const run = (args: string[]) => cli(join(user, '.homunculus'), args, { cwd: user, env: { HOME: user } });
    expect(run(['init', '--codex']).status).toBe(0);
    for (const args of [
      ['uninstall', '--codex', '--project'],
      ['init', '--codex', '--project'],
    ]) {
      const refused = run(args);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/This folder is your home, so its project settings are the user-wide ones[\s\S]*without --project/);
    }
    expect(existsSync(join(user, '.codex', 'hooks.json'))).toBe(true);
    // Removing everything from there removes the user-wide install once.
    const all = run(['uninstall']);
    expect(all.status).toBe(0);
    expect(existsSync(join(user, '.codex', 'hooks.json'))).toBe(false);
  });
});
