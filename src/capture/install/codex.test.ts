import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import { applyPlan } from './apply.js';
import { mergeCodexToml, mergeCodexTrust, removeCodexToml, removeCodexTrust } from './codex-toml.js';
import { codexHookHash, codexTrustEntries } from './codex-trust.js';
import { planInstall, planUninstall } from './plan.js';
import { InstallState } from './state.js';
import { type Scope, targetFor } from './targets.js';

const PREFIX = '/usr/bin/node /work/wt-agents/dist/cli/bin.js';
let dir: ReturnType<typeof tempDir>;
let home: string;
let project: string;
let state: InstallState;
beforeEach(() => {
  dir = tempDir('hom-codex-');
  home = join(dir.path, 'home');
  project = join(dir.path, 'project');
  state = new InstallState(join(dir.path, 'homunculus', 'install'));
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => dir.cleanup());

const read = (p: string): string => readFileSync(p, 'utf8');
const install = (scope: Scope = 'user') => applyPlan(planInstall(targetFor('codex', scope, home, project), PREFIX), 'install', state);
const uninstall = (scope: Scope = 'user') => applyPlan(planUninstall(targetFor('codex', scope, home, project), state), 'uninstall', state);
const configFile = (): string => join(home, '.codex', 'config.toml');
const hookStates = (): Record<string, { trusted_hash: string }> =>
  (parse(read(configFile())) as { hooks: { state: Record<string, { trusted_hash: string }> } }).hooks.state;

describe('the hash Codex trusts a hook by', () => {
  it('is the one Codex 0.169.0 reports in hooks/list for the same hooks', () => {
    // currentHash values read from `codex app-server` (hooks/list) for these exact commands.
    const hash = (hook: string, timeout: number, event: string) =>
      codexHookHash(event, undefined, { type: 'command', command: `${PREFIX} hook ${hook} --agent codex`, timeout });
    expect(hash('observe', 15, 'PostToolUse')).toBe('sha256:9ed803ce5bfa0a0f4a795de0201cf72122c148fb55b13b210244742ae93c6dcd');
    expect(hash('start', 15, 'SessionStart')).toBe('sha256:48bf84780a574fde8d73d58c05de472bc734faad29df9b9abb281b7a511328d4');
    expect(hash('prompt', 15, 'UserPromptSubmit')).toBe('sha256:cebe325d46f23c2524a6ca1b8ecc5bd3c1ebab7817ca78ee8a08cb77084abccb');
    expect(hash('stop', 30, 'Stop')).toBe('sha256:821aa90ec7342ec7aabfd75fa230c3e43b7160a69335b8d71a2d1a7302cd9939');
  });

  it('caps SessionEnd at 3 s and ignores the matcher of events that match nothing', () => {
    const h = { type: 'command', command: 'x' };
    expect(codexHookHash('SessionEnd', undefined, { ...h, timeout: 10 })).toBe(
      codexHookHash('SessionEnd', undefined, { ...h, timeout: 3 }),
    );
    expect(codexHookHash('Stop', 'a', h)).toBe(codexHookHash('Stop', undefined, h));
    expect(codexHookHash('PostToolUse', 'a', h)).not.toBe(codexHookHash('PostToolUse', undefined, h));
  });

  it('keys each hook of ours by its position in hooks.json, after the user’s own', () => {
    const settings = {
      hooks: {
        PostToolUse: [
          { hooks: [{ type: 'command', command: 'echo mine' }] },
          { hooks: [{ type: 'command', command: 'homunculus hook observe --agent codex' }] },
        ],
      },
    };
    expect(codexTrustEntries(settings, '/h/hooks.json').map((e) => e.key)).toEqual(['/h/hooks.json:post_tool_use:1:0']);
  });
});

describe('init --codex', () => {
  it('trusts exactly the hooks it installs, with the current feature flag, and uninstall gives the bytes back', () => {
    mkdirSync(join(home, '.codex'));
    const original = 'model = "o3"\n\n[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:x"\n';
    writeFileSync(configFile(), original);
    install();
    const hooks = JSON.parse(read(join(home, '.codex', 'hooks.json'))) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(hooks.hooks).sort()).toEqual(['PostToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    const states = hookStates();
    const ours = codexTrustEntries(hooks, join(home, '.codex', 'hooks.json'));
    expect(ours).toHaveLength(6);
    for (const e of ours) expect(states[e.key]?.trusted_hash).toBe(e.hash);
    expect(states['/elsewhere/hooks.json:stop:0:0']?.trusted_hash).toBe('sha256:x');
    expect(read(configFile())).toMatch(/^\[features\]\nhooks = true$/m);
    expect(read(configFile())).not.toContain('codex_hooks');

    const again = install();
    expect(again).toEqual([]);
    uninstall();
    expect(read(configFile())).toBe(original);
    expect(existsSync(join(home, '.codex', 'hooks.json'))).toBe(false);
  });

  it('refuses a config.toml that does not parse, naming where, and changes nothing', () => {
    mkdirSync(join(home, '.codex'));
    const broken = 'model = "gpt-5.1-codex"\n[model_providers.stub\nname = "stub"\n';
    writeFileSync(configFile(), broken);
    expect(() => install()).toThrow(/config\.toml is not valid TOML \(line 2, column \d+\): /);
    expect(read(configFile())).toBe(broken);
    expect(existsSync(join(home, '.codex', 'hooks.json'))).toBe(false);
  });

  it('a file it created goes on uninstall', () => {
    install();
    uninstall();
    expect(existsSync(configFile())).toBe(false);
  });

  it('project scope: hooks in the project, their trust in the user config; both scopes undo independently', () => {
    install();
    install('project');
    const projectHooks = join(project, '.codex', 'hooks.json');
    expect(Object.keys(hookStates()).filter((k) => k.startsWith(projectHooks))).toHaveLength(6);
    uninstall('project');
    expect(Object.keys(hookStates()).some((k) => k.startsWith(projectHooks))).toBe(false);
    expect(Object.keys(hookStates())).toHaveLength(6);
    uninstall();
    expect(existsSync(configFile())).toBe(false);
  });

  it('replaces the deprecated flag it wrote before, and leaves a user’s own flag and trust alone', () => {
    mkdirSync(join(home, '.codex'));
    writeFileSync(configFile(), '# homunculus:begin\n[features]\ncodex_hooks = true\n# homunculus:end\n');
    install();
    expect(read(configFile())).not.toContain('codex_hooks');
    const own = '[features]\nhooks = false\n';
    expect(mergeCodexToml(own, ['/n', '/b.js'])).not.toContain('hooks = true');
    const key = `${join(home, '.codex', 'hooks.json')}:stop:0:0`;
    const r = mergeCodexTrust(`[hooks.state."${key}"]\ntrusted_hash = "sha256:old"\n`, join(home, '.codex', 'hooks.json'), [
      { key, event: 'Stop', hash: 'sha256:new' },
    ]);
    expect(r.conflicts).toEqual([key]);
    expect(r.text.match(/trusted_hash/g)).toHaveLength(1);
  });

  it('toml edits are reversible on their own', () => {
    for (const t of ['', 'a = 1\n', 'a = 1', '[features]\nweb_search = true\n']) {
      const merged = mergeCodexToml(t, ['/n', '/b.js']);
      expect(mergeCodexToml(merged, ['/n', '/b.js'])).toBe(merged);
      expect(removeCodexToml(merged).replace(/\n$/, '')).toBe(t.replace(/\n$/, ''));
      const trusted = mergeCodexTrust(t, '/h.json', [{ key: '/h.json:stop:0:0', event: 'Stop', hash: 'sha256:a' }]).text;
      expect(removeCodexTrust(trusted, '/h.json').replace(/\n$/, '')).toBe(t.replace(/\n$/, ''));
    }
  });
});
