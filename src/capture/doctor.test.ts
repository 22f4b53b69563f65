import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../core/paths.js';
import { openStore } from '../store/store.js';
import { agentBin } from '../test-support/agents.js';
import { BIN, cli, tempDir } from '../test-support/cli.js';
import { hooksCheck, observationsCheck } from './doctor.js';
import { applyPlan } from './install/apply.js';
import { missingPaths } from './install/installed.js';
import { planInstall } from './install/plan.js';
import { InstallState } from './install/state.js';
import { targetFor } from './install/targets.js';

let dir: { path: string; cleanup: () => void };
beforeEach(() => (dir = tempDir('hom-doctor-')));
afterEach(() => dir.cleanup());

/** A user's home, a project, and the install state, in the temp folder. */
function machine(): { home: string; cwd: string; state: InstallState } {
  const cwd = join(dir.path, 'project');
  mkdirSync(cwd, { recursive: true });
  return { home: join(dir.path, 'user'), cwd, state: new InstallState(join(dir.path, 'homunculus', 'install')) };
}

describe('hooks check', () => {
  it('warns when nothing is installed, passes once installed, fails when the binary is gone', async () => {
    const { home, cwd, state } = machine();
    expect((await hooksCheck(home, cwd, process.env)).status).toBe('warn');
    applyPlan(planInstall(targetFor('claude-code', 'user', home, cwd), `${process.execPath} ${BIN}`), 'install', state);
    expect(await hooksCheck(home, cwd, process.env)).toMatchObject({ status: 'ok', detail: 'claude-code (user) 7 hooks, active' });
    applyPlan(planInstall(targetFor('cursor', 'project', home, cwd), '/gone/node /gone/dist/cli/bin.js'), 'install', state);
    const broken = await hooksCheck(home, cwd, process.env);
    expect(broken.status).toBe('fail');
    expect(broken.detail).toContain('/gone/node, /gone/dist/cli/bin.js');
  });

  it('sees the Claude Code plugin, enabled or not, and the double recording when settings hooks run beside it', async () => {
    const { home, cwd, state } = machine();
    const plugins = join(home, '.claude', 'plugins');
    mkdirSync(plugins, { recursive: true });
    writeFileSync(
      join(plugins, 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'homunculus@homunculus': [{ scope: 'user' }] } }),
    );
    const settings = (enabled: boolean) =>
      writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'homunculus@homunculus': enabled } }));
    settings(true);
    expect(await hooksCheck(home, cwd, process.env)).toMatchObject({
      status: 'ok',
      detail: 'claude-code plugin homunculus@homunculus, active',
    });
    settings(false);
    expect(await hooksCheck(home, cwd, process.env)).toMatchObject({
      status: 'fail',
      fix: 'Run `claude plugin enable homunculus@homunculus`.',
    });
    settings(true);
    applyPlan(planInstall(targetFor('claude-code', 'user', home, cwd), `${process.execPath} ${BIN}`), 'install', state);
    const twice = await hooksCheck(home, cwd, process.env);
    expect(twice.status).toBe('fail');
    expect(twice.detail).toContain('every call is recorded twice');
    expect(twice.fix).toContain('homunculus uninstall --claude');
  });

  it('finds the missing paths of a command', () => {
    expect(missingPaths(`"${process.execPath}" "/nope/bin.js" hook observe`)).toEqual(['/nope/bin.js']);
    expect(missingPaths('homunculus hook observe')).toEqual([]);
  });
});

describe('observations check', () => {
  it('warns with no observations, passes when they arrive, warns on stale ones and on hook failures', () => {
    const paths = homePaths(join(dir.path, 'home'));
    expect(observationsCheck(paths).status).toBe('warn');
    const store = openStore({ home: paths.home });
    store.observations.insert({ source: 'claude-code', session_id: 's', tool_use_id: 't', ts: new Date().toISOString() });
    store.close();
    expect(observationsCheck(paths)).toMatchObject({ status: 'ok' });
    expect(observationsCheck(paths).detail).toMatch(/\(1 in the last 24 h\)/);
    mkdirSync(paths.logs, { recursive: true });
    const now = new Date().toISOString();
    // One failed call can log several lines (a record not made, then the call's own failure): calls are counted, as telemetry does.
    writeFileSync(
      join(paths.logs, 'hooks.log'),
      `${now} prompt (claude-code): not recorded\n${now} prompt (claude-code): not recorded\n${now} prompt (claude-code) failed: disk full\n`,
    );
    const call = (outcome: string) => `${JSON.stringify({ ts: now, event: 'prompt', agent: 'claude-code', ms: 40, outcome })}\n`;
    writeFileSync(paths.hookCalls, call('ok') + call('failed') + call('ok'));
    expect(observationsCheck(paths)).toMatchObject({ status: 'warn' });
    expect(observationsCheck(paths).detail).toMatch(/; 1 hook call failed in the last 24 h \(last logged: .* failed: disk full\)$/);
    expect(observationsCheck(paths).fix).toMatch(/^The hooks fire but fail: the errors are in .*hooks\.log/);
    writeFileSync(paths.hookCalls, call('failed') + call('timeout') + call('timeout'));
    expect(observationsCheck(paths).detail).toMatch(/; 1 hook call failed, 2 hook calls timed out in the last 24 h/);
    // Hooks that met a locked database fired: the fix names the lock, not missing hooks.
    writeFileSync(join(paths.logs, 'hooks.log'), `${now} stop (claude-code) failed: database is locked\n`);
    expect(observationsCheck(paths).fix).toMatch(/^The hooks fire, but another process kept the database locked/);
  });

  it('says the observations gc archived were recorded, not that none ever were', () => {
    const paths = homePaths(join(dir.path, 'home'));
    const store = openStore({ home: paths.home });
    store.observations.insert({ source: 'claude-code', session_id: 's', tool_use_id: 't', ts: '2026-01-05T10:00:00.000Z' });
    store.observations.markProcessed(
      store.observations.forSession('s').map((o) => o.id),
      '2026-01-05T11:00:00.000Z',
    );
    store.observations.archiveProcessed('2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
    store.close();
    expect(observationsCheck(paths)).toMatchObject({
      status: 'warn',
      detail: 'none since the 1 that gc archived (the newest from 2026-01-05T10:00:00.000Z)',
    });
  });

  it('is part of `homunculus doctor`', () => {
    const r = cli(join(dir.path, 'home2'), ['doctor', '--json'], { env: { HOME: join(dir.path, 'u') } });
    const names = (JSON.parse(r.stdout) as { checks: { name: string }[] }).checks.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['hooks', 'observations']));
  });
});

describe('hooks check on the store they feed', () => {
  it('fails when the hooks name another store with --home than the one checked', async () => {
    const { home, cwd, state } = machine();
    const other = join(dir.path, 'other');
    applyPlan(planInstall(targetFor('claude-code', 'user', home, cwd), `${process.execPath} ${BIN}`, { home: other }), 'install', state);
    expect(await hooksCheck(home, cwd, process.env, other)).toMatchObject({ status: 'ok' });
    const elsewhere = await hooksCheck(home, cwd, process.env, join(dir.path, 'mine'));
    expect(elsewhere).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`hooks feed ${other}, not ${join(dir.path, 'mine')}`),
    });
    expect(elsewhere.fix).toMatch(/--home .*mine init --claude/);
  });
});

describe('hooks check on commands that no longer run', () => {
  it('names a program missing from PATH and a start-up that fails', async () => {
    const { home, cwd, state } = machine();
    applyPlan(planInstall(targetFor('claude-code', 'user', home, cwd), 'homunculus'), 'install', state);
    expect(await hooksCheck(home, cwd, { PATH: join(dir.path, 'nowhere') })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/settings\.json: homunculus is not on PATH/),
    });
    mkdirSync(join(dir.path, 'broken'));
    const broken = join(dir.path, 'broken', 'homunculus');
    writeFileSync(broken, '#!/bin/sh\necho "SyntaxError: Unexpected token ?" >&2\nexit 1\n', { mode: 0o755 });
    applyPlan(planInstall(targetFor('claude-code', 'user', home, cwd), broken), 'install', state);
    expect(await hooksCheck(home, cwd, process.env)).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/broken\/homunculus --version` fails: SyntaxError: Unexpected token/),
      fix: expect.stringMatching(/init --claude/),
    });
  });
});

describe('hooks check asks whether each client will run our hooks', () => {
  const setup = (agent: 'codex' | 'gemini' | 'claude-code') => {
    const { home, cwd, state } = machine();
    const target = targetFor(agent, 'user', home, cwd);
    applyPlan(planInstall(target, `${process.execPath} ${BIN}`), 'install', state);
    // No codex binary on this PATH: the check computes trust from config.toml as Codex does.
    return { home, cwd, target, state, env: { PATH: dirname(process.execPath) } };
  };

  it('Codex: passes when init trusted them, names each untrusted or modified hook and the fix', async () => {
    const { home, cwd, target, env } = setup('codex');
    expect(await hooksCheck(home, cwd, env)).toMatchObject({ status: 'ok' });
    const config = target.trustFile as string;
    const text = readFileSync(config, 'utf8');
    writeFileSync(config, text.replace(/^# homunculus:begin trust[\s\S]*?^# homunculus:end trust.*\n/m, ''));
    const untrusted = await hooksCheck(home, cwd, env);
    expect(untrusted).toMatchObject({ status: 'fail', fix: expect.stringMatching(/homunculus init --codex` again/) });
    expect(untrusted.detail).toMatch(/Codex skips 6 of our 6 hooks \(SessionStart untrusted/);
    writeFileSync(
      config,
      text.replace(/trusted_hash = "sha256:[0-9a-f]+"/, 'trusted_hash = "sha256:0"').replace('hooks = true', 'hooks = false'),
    );
    const modified = await hooksCheck(home, cwd, env);
    expect(modified.detail).toMatch(/turned off in config\.toml.*SessionStart modified/);
  });

  it.runIf(agentBin('codex'))('Codex itself: names a key of the user’s beside "hooks", which makes it load none of them', async () => {
    const { home, cwd, target, state } = setup('codex');
    const env = { PATH: `${dirname(agentBin('codex') as string)}:${dirname(process.execPath)}`, HOME: home };
    expect(await hooksCheck(home, cwd, env)).toMatchObject({ status: 'ok' });
    writeFileSync(target.hooksFile, JSON.stringify({ 'x-custom': true, ...JSON.parse(readFileSync(target.hooksFile, 'utf8')) }));
    const check = await hooksCheck(home, cwd, env);
    expect(check.detail).toMatch(/Codex does not load .*hooks\.json: it refuses "x-custom" beside "hooks"/);
    expect(check.fix).toMatch(/Remove "x-custom" from .*hooks\.json \(Codex reads only "hooks" there\)/);
    // Hooks of a project Codex does not trust are not loaded: not "recorded twice" beside the user's.
    const { hooks } = JSON.parse(readFileSync(target.hooksFile, 'utf8')) as { hooks: unknown };
    writeFileSync(target.hooksFile, JSON.stringify({ hooks }));
    applyPlan(planInstall(targetFor('codex', 'project', home, cwd), `${process.execPath} ${BIN}`), 'install', state);
    const both = await hooksCheck(home, cwd, env);
    expect(both.detail).toMatch(/codex \(project\): Codex does not load .*\(the project is not trusted\)/);
    expect(both.detail).not.toMatch(/recorded twice/);
  });

  it('Codex: says hooks installed both user-wide and in the project run twice, and the fix', async () => {
    const { home, cwd, state } = machine();
    for (const scope of ['user', 'project'] as const)
      applyPlan(planInstall(targetFor('codex', scope, home, cwd), `${process.execPath} ${BIN}`), 'install', state);
    const both = await hooksCheck(home, cwd, { PATH: dirname(process.execPath) });
    expect(both).toMatchObject({ status: 'fail', fix: expect.stringMatching(/uninstall --codex --project/) });
    expect(both.detail).toMatch(/Codex runs the hooks of both ~\/\.codex and this project, so every call is recorded twice/);
  });

  it('from the home folder, counts the user-wide hooks once: its .codex is no second install', async () => {
    const { home, state } = machine();
    applyPlan(planInstall(targetFor('codex', 'user', home, home), `${process.execPath} ${BIN}`), 'install', state);
    const check = await hooksCheck(home, home, { PATH: dirname(process.execPath) });
    expect(check.detail).not.toMatch(/recorded twice/);
    expect(check.detail).toMatch(/^codex \(user\) 6 hooks/);
    expect(check.detail).not.toMatch(/project/);
  });

  it('reads a settings file with comments (as Gemini CLI does), and says one it cannot read at all instead of skipping it', async () => {
    const g = setup('gemini');
    const installed = readFileSync(g.target.hooksFile, 'utf8');
    writeFileSync(g.target.hooksFile, `// my settings\n${installed}`);
    expect((await hooksCheck(g.home, g.cwd, g.env)).detail).toMatch(/gemini \(user\) \d+ hooks/);
    writeFileSync(g.target.hooksFile, `{ "ui": 1 ${installed.slice(1)}`);
    const check = await hooksCheck(g.home, g.cwd, g.env);
    expect(check).toMatchObject({ status: 'fail', fix: expect.stringMatching(/Fix the syntax of .*settings\.json where the error says/) });
    expect(check.detail).toMatch(
      /settings\.json is not valid JSON \(comma expected at line \d+, column \d+\): homunculus cannot see or update its hooks there/,
    );
  });

  it("Gemini CLI in a project: names a folder it does not trust, and reads the user's auth type under the project's settings", async () => {
    const { home, cwd, state } = machine();
    const target = targetFor('gemini', 'project', home, cwd);
    applyPlan(planInstall(target, `${process.execPath} ${BIN}`), 'install', state);
    const env = { PATH: dirname(process.execPath), GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1' };
    const untrusted = await hooksCheck(home, cwd, env);
    expect(untrusted).toMatchObject({ status: 'fail', fix: expect.stringContaining('TRUST_FOLDER') });
    expect(untrusted.detail).toMatch(/gemini \(project\): Gemini CLI does not read .*settings\.json: the folder is not trusted/);
    // Never written by init: it is the user's to give.
    expect(existsSync(join(home, '.gemini', 'trustedFolders.json'))).toBe(false);
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [cwd]: 'TRUST_FOLDER' }));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      '{\n  // as the user keeps it\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n}\n',
    );
    expect(await hooksCheck(home, cwd, env)).toMatchObject({ status: 'ok' });
    // Trusted by the environment, as a headless run may be.
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), '{}');
    expect(await hooksCheck(home, cwd, { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' })).toMatchObject({ status: 'ok' });
  });

  it('Gemini CLI and Claude Code: hooks turned off or disabled by name', async () => {
    const g = setup('gemini');
    const settings = JSON.parse(readFileSync(g.target.hooksFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(g.target.hooksFile, JSON.stringify({ ...settings, hooksConfig: { disabled: ['homunculus-observe'] } }));
    expect(await hooksCheck(g.home, g.cwd, { ...g.env, GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1' })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/disabled \(homunculus-observe\).*no auth type/),
    });
    const c = setup('claude-code');
    const claude = JSON.parse(readFileSync(c.target.hooksFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(c.target.hooksFile, JSON.stringify({ ...claude, disableAllHooks: true }));
    expect((await hooksCheck(c.home, c.cwd, c.env)).detail).toMatch(/every hook turned off/);
    // The project's local settings say last: they turn hooks off (or back on) over the user's.
    writeFileSync(c.target.hooksFile, JSON.stringify(claude));
    const local = join(c.cwd, '.claude', 'settings.local.json');
    mkdirSync(join(c.cwd, '.claude'), { recursive: true });
    writeFileSync(local, JSON.stringify({ disableAllHooks: true }));
    expect(await hooksCheck(c.home, c.cwd, c.env)).toMatchObject({ status: 'fail', detail: expect.stringContaining(local) });
    writeFileSync(local, JSON.stringify({ disableAllHooks: false }));
    writeFileSync(c.target.hooksFile, JSON.stringify({ ...claude, disableAllHooks: true }));
    expect((await hooksCheck(c.home, c.cwd, c.env)).detail).not.toMatch(/every hook turned off/);
  });
});
