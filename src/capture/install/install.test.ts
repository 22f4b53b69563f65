import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from '../../test-support/cli.js';
import { applyPlan } from './apply.js';
import { mergeCodexToml, removeCodexToml } from './codex-toml.js';
import { hookCommandPrefix } from './command.js';
import { planInstall, planUninstall } from './plan.js';
import { InstallState } from './state.js';
import { targetFor } from './targets.js';

const PREFIX = '/usr/bin/node /opt/homunculus/dist/cli/bin.js';

let dir: { path: string; cleanup: () => void };
let home: string;
let project: string;
let state: InstallState;
beforeEach(() => {
  dir = tempDir('hom-install-');
  home = join(dir.path, 'home');
  state = new InstallState(join(dir.path, 'homunculus', 'install'));
  project = join(dir.path, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => dir.cleanup());

const read = (p: string): string => readFileSync(p, 'utf8');
const json = (p: string): Record<string, unknown> => JSON.parse(read(p)) as Record<string, unknown>;
const install = (agent: Parameters<typeof targetFor>[0] = 'claude-code', scope: 'user' | 'project' = 'user') =>
  applyPlan(planInstall(targetFor(agent, scope, home, project), PREFIX), 'install', state);
const uninstall = (agent: Parameters<typeof targetFor>[0] = 'claude-code', scope: 'user' | 'project' = 'user') =>
  applyPlan(planUninstall(targetFor(agent, scope, home, project), state), 'uninstall', state);

const OTHER_HOOKS = {
  model: 'opus',
  env: { FOO: '1' },
  hooks: {
    PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo formatted' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'say hi' }] }],
  },
};

describe('init --claude on a settings file that already has hooks', () => {
  it('adds ours, keeps every other setting and hook, backs up the original, and a second run changes nothing', () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    const original = `${JSON.stringify(OTHER_HOOKS, null, 2)}\n`;
    writeFileSync(file, original);
    install();
    type Group = { matcher?: string; hooks: { command: string; async?: boolean }[] };
    const after = json(file) as { model: string; env: object; hooks: Record<string, Group[]> };
    expect(after.model).toBe('opus');
    expect(after.env).toEqual({ FOO: '1' });
    expect(after.hooks.Notification).toEqual(OTHER_HOOKS.hooks.Notification);
    expect(after.hooks.PostToolUse?.[0]).toEqual(OTHER_HOOKS.hooks.PostToolUse[0]);
    expect(after.hooks.Stop?.[0]).toEqual(OTHER_HOOKS.hooks.Stop[0]);
    const ours = Object.entries(after.hooks).flatMap(([event, groups]) =>
      groups.flatMap((g) =>
        g.hooks.filter((h) => h.command.includes(' hook ')).map((h) => ({ event, matcher: g.matcher, command: h.command, async: h.async })),
      ),
    );
    expect(ours).toEqual(
      expect.arrayContaining([
        { event: 'PostToolUse', matcher: '*', command: `${PREFIX} hook observe`, async: true },
        { event: 'PostToolUse', matcher: 'Edit|Write|MultiEdit', command: `${PREFIX} hook recall`, async: true },
        { event: 'PostToolUseFailure', matcher: '*', command: `${PREFIX} hook observe`, async: true },
        { event: 'SessionStart', matcher: undefined, command: `${PREFIX} hook start`, async: undefined },
        { event: 'UserPromptSubmit', matcher: undefined, command: `${PREFIX} hook prompt`, async: undefined },
        { event: 'Stop', matcher: undefined, command: `${PREFIX} hook stop`, async: undefined },
        { event: 'SessionEnd', matcher: undefined, command: `${PREFIX} hook stop`, async: undefined },
      ]),
    );
    expect(ours).toHaveLength(7);
    expect(state.get(file)).toEqual({ file, created: false, original });
    // Nothing of ours is left beside the user's files.
    expect(readdirSync(join(home, '.claude'))).toEqual(['settings.json']);
    expect(json(join(home, '.claude.json'))).toEqual({
      mcpServers: { homunculus: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/homunculus/dist/cli/bin.js', 'mcp'] } },
    });

    const once = read(file);
    expect(install()).toEqual([]);
    expect(read(file)).toBe(once);

    uninstall();
    expect(read(file)).toBe(original);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
    expect(readdirSync(join(home, '.claude'))).toEqual(['settings.json']);
  });

  it("removes the project folder init made for a client's hooks once uninstall leaves it empty, and only then", () => {
    install('codex', 'project');
    expect(existsSync(join(project, '.codex'))).toBe(true);
    uninstall('codex', 'project');
    expect(existsSync(join(project, '.codex'))).toBe(false);
    install('gemini', 'project');
    writeFileSync(join(project, '.gemini', 'notes.md'), 'mine');
    uninstall('gemini', 'project');
    expect(readdirSync(join(project, '.gemini'))).toEqual(['notes.md']);
  });

  it('keeps a folder the user had, even empty, and the home it puts ~/.claude.json in', () => {
    mkdirSync(join(home, '.claude'));
    install();
    expect(state.get(join(home, '.claude', 'settings.json'))).toEqual({ file: join(home, '.claude', 'settings.json'), created: true });
    uninstall();
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expect(readdirSync(join(home, '.claude'))).toEqual([]);
    expect(readdirSync(home)).toEqual(['.claude']);
    // A folder it made itself goes once empty; the home with nothing else in it stays.
    rmSync(join(home, '.claude'), { recursive: true });
    install();
    uninstall();
    expect(readdirSync(home)).toEqual([]);
  });

  it('keeps unusual formatting byte for byte through install and uninstall', () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    const odd =
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]},\n\t\t"permissions" :  { "allow" : [ "Bash(ls:*)" ] } }';
    writeFileSync(file, odd);
    install();
    expect(json(file).permissions).toEqual({ allow: ['Bash(ls:*)'] });
    uninstall();
    expect(read(file)).toBe(odd);
  });

  it('creates a missing file, and uninstall removes it again', () => {
    install();
    const file = join(home, '.claude', 'settings.json');
    expect(Object.keys(json(file).hooks as object).sort()).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'UserPromptSubmit',
    ]);
    uninstall();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });

  it('keeps settings changed after install, removing only our entries', () => {
    install();
    const file = join(home, '.claude', 'settings.json');
    const changed = json(file);
    changed.theme = 'dark';
    writeFileSync(file, JSON.stringify(changed, null, 2));
    uninstall();
    expect(json(file)).toEqual({ theme: 'dark' });
  });

  it('replaces an older copy of our hooks (a moved installation) instead of adding a second', () => {
    install();
    applyPlan(planInstall(targetFor('claude-code', 'user', home, project), '/new/node /new/bin.js'), 'install', state);
    const text = read(join(home, '.claude', 'settings.json'));
    expect(text).not.toContain('/opt/homunculus');
    expect(text.match(/hook observe/g)).toHaveLength(2);
  });

  it('refuses a file that is not JSON, or has hooks of the wrong type, and changes nothing', () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    for (const bad of ['{ "a": 1 "b": 2 }', '{"hooks": []}', '{"hooks": {"Stop": {}}}', '[1]']) {
      writeFileSync(file, bad);
      expect(() => install()).toThrow(/settings|JSON|hooks/);
      expect(read(file)).toBe(bad);
      expect(state.get(file)).toBeUndefined();
    }
  });

  it("Gemini's settings.json with comments and trailing commas: hooks added and taken out, every comment kept", () => {
    const file = join(home, '.gemini', 'settings.json');
    mkdirSync(join(home, '.gemini'));
    const mine = [
      '{',
      '  // my theme',
      '  "ui": { "theme": "dark", /* keep */ },',
      '  "hooks": {',
      '    "BeforeTool": [',
      '      // my own guard',
      '      { "matcher": "run_shell_command", "hooks": [{ "type": "command", "command": "guard.sh" }] },',
      '    ],',
      '  },',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, mine);
    install('gemini');
    const text = read(file);
    for (const kept of ['// my theme', '/* keep */', '// my own guard', 'guard.sh']) expect(text).toContain(kept);
    expect(text).toMatch(/hook observe/);
    expect(text).toMatch(/"mcpServers"/);
    uninstall('gemini');
    expect(read(file)).toBe(mine);
  });

  it('--project writes .claude/settings.json and .mcp.json of the project', () => {
    install('claude-code', 'project');
    expect(existsSync(join(project, '.claude', 'settings.json'))).toBe(true);
    expect(json(join(project, '.mcp.json'))).toEqual({
      mcpServers: { homunculus: { command: '/usr/bin/node', args: ['/opt/homunculus/dist/cli/bin.js', 'mcp'] } },
    });
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
  });

  it('leaves a foreign MCP server called homunculus alone, with a warning', () => {
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { homunculus: { command: 'other' } }, numStartups: 3 }));
    const plan = planInstall(targetFor('claude-code', 'user', home, project), PREFIX);
    expect(plan.warnings[0]).toMatch(/not this one/);
    applyPlan(plan, 'install', state);
    expect(json(join(home, '.claude.json'))).toEqual({ mcpServers: { homunculus: { command: 'other' } }, numStartups: 3 });
  });
});

describe('what uninstall recognises as ours', () => {
  it("leaves the plugin's own .mcp.json entry and look-alike hooks alone", () => {
    const pluginMcp = { mcpServers: { homunculus: { command: 'sh', args: ['${CLAUDE_PLUGIN_ROOT}/scripts/homunculus.sh', 'mcp'] } } };
    writeFileSync(join(project, '.mcp.json'), JSON.stringify(pluginMcp));
    mkdirSync(join(project, '.claude'));
    const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo homunculus is great' }] }] } };
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(hooks));
    expect(uninstall('claude-code', 'project')).toEqual([]);
    expect(json(join(project, '.mcp.json'))).toEqual(pluginMcp);
    expect(json(join(project, '.claude', 'settings.json'))).toEqual(hooks);
  });

  it('tells every hook and the server where a store other than ~/.homunculus is, and removes them all the same', () => {
    const data = '/srv/my data';
    applyPlan(planInstall(targetFor('claude-code', 'user', home, project), 'homunculus', { home: data }), 'install', state);
    expect(read(join(home, '.claude', 'settings.json'))).toContain('"command": "homunculus hook observe --home \\"/srv/my data\\""');
    expect(json(join(home, '.claude.json'))).toEqual({
      mcpServers: { homunculus: { type: 'stdio', command: 'homunculus', args: ['mcp'], env: { HOMUNCULUS_HOME: data } } },
    });
    expect(mergeCodexToml('', ['homunculus'], data)).toContain('env = { HOMUNCULUS_HOME = "/srv/my data" }');
    uninstall();
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });

  it('installs and removes with --command homunculus (a global install on PATH)', () => {
    applyPlan(planInstall(targetFor('claude-code', 'user', home, project), 'homunculus'), 'install', state);
    expect(read(join(home, '.claude', 'settings.json'))).toContain('"command": "homunculus hook observe"');
    expect(json(join(home, '.claude.json'))).toEqual({
      mcpServers: { homunculus: { type: 'stdio', command: 'homunculus', args: ['mcp'] } },
    });
    uninstall();
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });
});

describe('other agents', () => {
  it('gemini: named hooks with millisecond timeouts and the MCP server in the same settings file', () => {
    install('gemini');
    const s = json(join(home, '.gemini', 'settings.json')) as {
      hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
      mcpServers: object;
    };
    expect(Object.keys(s.hooks).sort()).toEqual(['AfterAgent', 'AfterTool', 'BeforeAgent', 'SessionEnd', 'SessionStart']);
    expect(s.hooks.AfterTool?.[0]?.hooks[0]).toEqual({
      name: 'homunculus-observe',
      type: 'command',
      command: `${PREFIX} hook observe --agent gemini`,
      timeout: 15000,
    });
    expect(s.mcpServers).toEqual({ homunculus: { command: '/usr/bin/node', args: ['/opt/homunculus/dist/cli/bin.js', 'mcp'] } });
    uninstall('gemini');
    expect(existsSync(join(home, '.gemini', 'settings.json'))).toBe(false);
  });

  it('cursor: flat camelCase events with version 1', () => {
    mkdirSync(join(project, '.cursor'));
    writeFileSync(
      join(project, '.cursor', 'hooks.json'),
      JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } }),
    );
    install('cursor', 'project');
    const s = json(join(project, '.cursor', 'hooks.json')) as { version: number; hooks: Record<string, { command: string }[]> };
    expect(s.version).toBe(1);
    expect(s.hooks.afterFileEdit?.map((h) => h.command)).toEqual([
      './format.sh',
      `${PREFIX} hook observe --agent cursor`,
      `${PREFIX} hook recall --agent cursor`,
    ]);
    expect(Object.keys(s.hooks).sort()).toEqual([
      'afterFileEdit',
      'afterMCPExecution',
      'afterShellExecution',
      'beforeSubmitPrompt',
      'sessionStart',
      'stop',
    ]);
    uninstall('cursor', 'project');
    expect(json(join(project, '.cursor', 'hooks.json'))).toEqual({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } });
  });

  it('codex: hooks.json plus config.toml with the MCP server and the hooks feature flag', () => {
    mkdirSync(join(home, '.codex'));
    const toml = 'model = "o3"\n\n[features]\nweb_search = true\n';
    writeFileSync(join(home, '.codex', 'config.toml'), toml);
    install('codex');
    const text = read(join(home, '.codex', 'config.toml'));
    expect(text).toContain('[features]\nhooks = true # added by homunculus');
    expect(text).toContain('[mcp_servers.homunculus]\ncommand = "/usr/bin/node"\nargs = ["/opt/homunculus/dist/cli/bin.js", "mcp"]');
    expect(read(join(home, '.codex', 'hooks.json'))).toContain('hook observe --agent codex');
    expect(install()).toBeDefined();
    uninstall('codex');
    expect(read(join(home, '.codex', 'config.toml'))).toBe(toml);
    expect(existsSync(join(home, '.codex', 'hooks.json'))).toBe(false);
  });

  it('codex toml edits are reversible on their own', () => {
    for (const t of ['', 'a = 1\n', 'a = 1', '[features]\ncodex_hooks = false\n']) {
      const merged = mergeCodexToml(t, ['/n', '/b.js']);
      expect(mergeCodexToml(merged, ['/n', '/b.js'])).toBe(merged);
      expect(removeCodexToml(merged).replace(/\n$/, '')).toBe(t.replace(/\n$/, ''));
    }
  });
});

describe('init and uninstall through the CLI', () => {
  it('--dry-run prints a diff and writes nothing', () => {
    const r = cli(join(dir.path, 'hh'), ['init', '--claude', '--dry-run'], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('would be created');
    // The store is not ~/.homunculus: every hook and the server are told where it is.
    expect(r.stdout).toMatch(new RegExp(`^ +\\+ +"command": ".* hook observe --home ${join(dir.path, 'hh')}"`, 'm'));
    expect(r.stdout).toMatch(/^ +\+ +"HOMUNCULUS_HOME": ".*\/hh"/m);
    expect(existsSync(join(home, '.claude'))).toBe(false);
    expect(existsSync(join(dir.path, 'hh'))).toBe(false);
  });

  it('reports an unwritable settings file with a fix, exit 1, and changes nothing', () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    writeFileSync(file, '{"model": "opus"}');
    chmodSync(file, 0o444);
    chmodSync(join(home, '.claude'), 0o555);
    // Root ignores permissions: run the CLI as nobody then.
    const asNobody = process.getuid?.() === 0;
    if (asNobody) {
      chmodSync(dir.path, 0o777);
      chmodSync(home, 0o777);
    }
    const data = join(dir.path, 'data');
    mkdirSync(data, { mode: 0o777 });
    chmodSync(data, 0o777);
    const r = cli(data, ['init', '--claude', '--no-mcp'], { env: { HOME: home }, ...(asNobody ? { uid: 65534, gid: 65534 } : {}) });
    chmodSync(join(home, '.claude'), 0o755);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Cannot write .*settings\.json/);
    expect(r.stderr).toMatch(/fix: Nothing was changed/);
    expect(read(file)).toBe('{"model": "opus"}');
    expect(new InstallState(join(data, 'install')).get(file)).toBeUndefined();
  });

  it('uninstall with nothing installed says so', () => {
    const r = cli(join(dir.path, 'hh'), ['uninstall'], { env: { HOME: home }, cwd: project });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Nothing to remove/);
  });
});

describe('how hooks start homunculus', () => {
  const onPath = (target: string): string => {
    const bin = join(dir.path, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(target, join(bin, 'homunculus'));
    return `${bin}:/usr/bin:/bin`;
  };

  it('through `homunculus` on PATH when that is this installation: no node or clone path to go stale', () => {
    chmodSync(BIN, 0o755);
    expect(hookCommandPrefix({ PATH: onPath(BIN) }, BIN)).toEqual({ prefix: 'homunculus' });
  });

  it('through another `homunculus` on PATH, saying so', () => {
    const other = join(dir.path, 'other.js');
    writeFileSync(other, '', { mode: 0o755 });
    const chosen = hookCommandPrefix({ PATH: onPath(other) }, BIN);
    expect(chosen.prefix).toBe('homunculus');
    expect(chosen.note).toMatch(/another installation than this one/);
  });

  it('by absolute paths when there is no `homunculus` on PATH, with the way to avoid them', () => {
    const chosen = hookCommandPrefix({ PATH: join(dir.path, 'empty') }, BIN);
    expect(chosen.prefix).toBe(`${process.execPath} ${BIN}`);
    expect(chosen.note).toMatch(/break if either moves[\s\S]*npm install -g homunculus-memory/);
  });

  it('init --claude writes `homunculus hook ...` commands when homunculus is on PATH, and doctor finds them working', () => {
    chmodSync(BIN, 0o755);
    const path = `${onPath(BIN)}:${dirname(process.execPath)}`;
    const data = join(dir.path, 'data');
    const r = cli(data, ['init', '--claude', '--json'], { env: { HOME: home, PATH: path } });
    expect(r.status, r.stderr).toBe(0);
    const settings = read(join(home, '.claude', 'settings.json'));
    expect(settings).toContain(`"command": "homunculus hook observe --home ${data}"`);
    expect(settings).not.toContain(process.execPath);
    const checks = (env: Record<string, string>) =>
      (
        JSON.parse(cli(data, ['doctor', '--json'], { env: { HOME: home, ...env } }).stdout) as {
          checks: { name: string; status: string; detail: string }[];
        }
      ).checks;
    expect(checks({ PATH: path }).find((c) => c.name === 'hooks')).toMatchObject({ status: 'ok' });
    // The same settings seen from a shell without it on PATH: doctor says what breaks.
    expect(checks({ PATH: dirname(process.execPath) }).find((c) => c.name === 'hooks')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/homunculus is not on PATH/),
    });
  });
});

describe('install state', () => {
  it('lives under the Homunculus home, and takes over the files older versions left beside the settings', () => {
    const file = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'));
    writeFileSync(
      file,
      '{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/node /old/dist/cli/bin.js hook stop"}]}]}}',
    );
    writeFileSync(`${file}.homunculus-backup`, '{"model":"opus"}');
    expect(state.get(file)).toEqual({ file, created: false, original: '{"model":"opus"}' });
    uninstall();
    expect(read(file)).toBe('{"model":"opus"}');
    expect(readdirSync(join(home, '.claude'))).toEqual(['settings.json']);
    expect(state.get(file)).toBeUndefined();
  });

  it('a settings file created by init is removed by uninstall, and the record with it', () => {
    install();
    const file = join(home, '.claude', 'settings.json');
    expect(state.get(file)).toEqual({ file, created: true, dir_created: true });
    expect(readdirSync(join(dir.path, 'homunculus', 'install'))).toHaveLength(2);
    uninstall();
    expect(existsSync(join(home, '.claude'))).toBe(false);
    expect(readdirSync(join(dir.path, 'homunculus', 'install'))).toEqual([]);
  });
});
