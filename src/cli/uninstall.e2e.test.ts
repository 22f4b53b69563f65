/** `uninstall` as a user runs it: from the project, and from anywhere else. */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';

/** Every file under `dir` with its bytes, to show a refused command wrote nothing. */
const bytesUnder = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => statSync(join(dir, f)).isFile())
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'base64')]),
  );

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

  it('Codex gets the hooks at one scope only: init at the other is refused (dry run too) and writes nothing', () => {
    const dir = tempDir();
    dirs.push(dir);
    const user = join(dir.path, 'user');
    const project = join(dir.path, 'work', 'app');
    mkdirSync(project, { recursive: true });
    const run = (args: string[]) => cli(join(user, '.homunculus'), args, { cwd: project, env: { HOME: user } });
    const refused = (args: string[], said: RegExp) => {
      const before = bytesUnder(dir.path);
      const r = run(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).toContain('Codex runs the hooks of both ~/.codex and this project: a second copy would record every call twice');
      expect(bytesUnder(dir.path)).toEqual(before);
    };
    expect(run(['init', '--codex']).status).toBe(0);
    const userWide =
      /The user-wide Homunculus hooks for Codex \(.*\/user\/\.codex\/hooks\.json\) already cover this project[\s\S]*run `homunculus uninstall --codex` first/;
    refused(['init', '--codex', '--project'], userWide);
    refused(['init', '--codex', '--project', '--dry-run'], userWide);
    expect(existsSync(join(project, '.codex'))).toBe(false);

    // The other way round: a project that has them keeps them alone.
    expect(run(['uninstall', '--codex']).status).toBe(0);
    expect(run(['init', '--codex', '--project']).status).toBe(0);
    const inProject =
      /This project already has the Homunculus hooks for Codex \(.*\/app\/\.codex\/hooks\.json\)[\s\S]*run `homunculus uninstall --codex --project` here first/;
    refused(['init', '--codex'], inProject);
    refused(['init', '--codex', '--dry-run'], inProject);
    expect(existsSync(join(user, '.codex', 'hooks.json'))).toBe(false);
    // Gemini CLI runs one copy of a hook at both scopes: nothing to refuse.
    expect(run(['init', '--gemini']).status).toBe(0);
    expect(run(['init', '--gemini', '--project']).status).toBe(0);
  });

  it('in the home folder, --project is refused: its files are the user-wide install', () => {
    const dir = tempDir();
    dirs.push(dir);
    const user = join(dir.path, 'user');
    mkdirSync(user, { recursive: true });
    const run = (args: string[]) => cli(join(user, '.homunculus'), args, { cwd: user, env: { HOME: user } });
    expect(run(['init', '--codex']).status).toBe(0);
    // Again from there: its .codex is the user-wide install, not a second copy to warn about.
    const again = run(['init', '--codex']);
    expect(again.status).toBe(0);
    expect(again.stdout).not.toMatch(/^\s*!/m);
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
