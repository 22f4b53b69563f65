/** Path traversal on every workspace tool: `..`, absolute paths, `~`, NUL bytes and symbolic links that lead out are refused. */
import { chownSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import type { ToolContext } from './registry.js';
import { builtinRegistry } from './builtin.js';

const registry = builtinRegistry();
const dir = tempDir('homunculus-ws-tools-');
const workspace = join(dir.path, 'home', 'workspace');
const outside = join(dir.path, 'outside');
const ctx: ToolContext = { workspace, home: join(dir.path, 'home'), session: 't', confirm: async () => true };

beforeAll(() => {
  mkdirSync(join(workspace, 'notes'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
  writeFileSync(join(workspace, 'notes', 'a.md'), 'hello');
  symlinkSync(outside, join(workspace, 'link-out'));
  symlinkSync(join(outside, 'secret.txt'), join(workspace, 'secret-link.txt'));
  symlinkSync(join(outside, 'created-by-link.txt'), join(workspace, 'dangling.txt'));
  symlinkSync('notes', join(workspace, 'link-in'));
});
afterAll(() => dir.cleanup());

const ATTACKS: [string, string][] = [
  ['../outside/secret.txt', 'climbs out'],
  ['notes/../../outside/secret.txt', 'climbs out'],
  ['..', 'climbs out'],
  ['notes\\..\\..\\outside', 'climbs out'],
  [join(outside, 'secret.txt'), 'is absolute'],
  ['/etc/passwd', 'is absolute'],
  ['~/secret.txt', '`~`'],
  ['~root/.ssh/id_rsa', '`~`'],
  ['notes/a.md\0.png', 'NUL'],
  ['link-out/secret.txt', 'symbolic link leads it outside'],
  ['link-out', 'symbolic link leads it outside'],
  ['link-out/new-file.txt', 'symbolic link leads it outside'],
  ['secret-link.txt', 'symbolic link leads it outside'],
  ['dangling.txt', 'symbolic link to nothing'],
];

const inputs: Record<string, (path: string) => Record<string, unknown>> = {
  workspace_read: (path) => ({ path }),
  workspace_write: (path) => ({ path, content: 'PWNED' }),
  workspace_list: (path) => ({ path }),
};

describe.each(Object.keys(inputs))('%s refuses paths that lead out of the workspace', (tool) => {
  it.each(ATTACKS)('%j (%s)', async (path, why) => {
    const r = await registry.run(tool, (inputs[tool] as (p: string) => Record<string, unknown>)(path), ctx);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).toContain(why);
    expect(r.ok ? '' : r.hint).toMatch(/relative to the workspace/);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE-SECRET');
    expect(existsSync(join(outside, 'created-by-link.txt'))).toBe(false);
    expect(existsSync(join(outside, 'new-file.txt'))).toBe(false);
  });
});

describe('the workspace tools inside the workspace', () => {
  it.runIf(process.getuid?.() === 0)(
    "as root, give what they create to the workspace's owner, whose commands could not change it otherwise",
    async () => {
      const owned = join(dir.path, 'owned');
      mkdirSync(owned);
      chownSync(owned, 65534, 0);
      const asRoot = { ...ctx, workspace: owned };
      await registry.run('workspace_write', { path: 'tools/deep/x.sh', content: 'echo hi\n' }, asRoot);
      for (const path of ['tools', 'tools/deep', 'tools/deep/x.sh'])
        expect(statSync(join(owned, path)), path).toMatchObject({ uid: 65534, gid: 65534 });
    },
  );

  it('write (creating folders), append, read and list; links that stay inside are followed', async () => {
    expect(await registry.run('workspace_write', { path: 'drafts/plan.md', content: 'one\n' }, ctx)).toMatchObject({
      ok: true,
      output: { created: true, bytes: 4 },
    });
    await registry.run('workspace_write', { path: 'drafts/plan.md', content: 'two\n', append: true }, ctx);
    expect(readFileSync(join(workspace, 'drafts', 'plan.md'), 'utf8')).toBe('one\ntwo\n');
    expect(await registry.run('workspace_read', { path: 'link-in/a.md' }, ctx)).toMatchObject({ ok: true, output: { content: 'hello' } });
    expect(await registry.run('workspace_read', { path: 'drafts/plan.md', max_bytes: 3 }, ctx)).toMatchObject({
      output: { content: 'one', truncated: true, bytes: 8 },
    });
    const list = await registry.run('workspace_list', {}, ctx);
    const names = list.ok ? (list.output as { entries: { name: string; type: string }[] }).entries : [];
    expect(names).toContainEqual({ name: 'drafts', type: 'dir' });
    expect(names).toContainEqual({ name: 'link-out', type: 'link' });
  });

  it("refuses to write the agent's own configuration, however it is named, before anyone is asked", async () => {
    let asked = 0;
    const asking = { ...ctx, confirm: async () => (asked++, true) };
    // Other cases name the same files on a case-insensitive file system (macOS, Windows).
    const otherCase = ['Agents.md', 'heartbeat.md', 'Agents/default/SOUL.md', 'SKILLS/x/SKILL.md', 'ſkills/x', 'AGENTS.md. '];
    for (const path of ['AGENTS.md', 'skills/evil/SKILL.md', 'agents/researcher.md', 'HEARTBEAT.md', './AGENTS.md', ...otherCase]) {
      expect(await registry.run('workspace_write', { path, content: 'x' }, asking), path).toMatchObject({
        ok: false,
        error: expect.stringContaining("the agent's own configuration"),
      });
    }
    expect(asked).toBe(0);
    expect(existsSync(join(workspace, 'skills'))).toBe(false);
  });

  it('refuses a pipe at once instead of waiting on it', async () => {
    const fifo = join(workspace, 'notes', 'pipe.txt');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(await registry.run('workspace_read', { path: 'notes/pipe.txt' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('not a file'),
    });
    expect(await registry.run('workspace_write', { path: 'notes/pipe.txt', content: 'x' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('not a file'),
    });
  });

  it('says the fix for a missing file, a directory read and a file listed', async () => {
    expect(await registry.run('workspace_read', { path: 'nope.md' }, ctx)).toMatchObject({
      ok: false,
      hint: expect.stringContaining('workspace_list'),
    });
    expect(await registry.run('workspace_read', { path: 'notes' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('directory'),
    });
    expect(await registry.run('workspace_list', { path: 'notes/a.md' }, ctx)).toMatchObject({
      ok: false,
      hint: expect.stringContaining('workspace_read'),
    });
  });
});
