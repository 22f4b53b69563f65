/** shell_exec end to end on the real bubblewrap: what runs, what is refused before anything runs, and no sandbox, no run. */
import { chownSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import { hasBwrap } from '../../test-support/shared.js';
import { builtinRegistry } from './builtin.js';
import { memoryNote } from './shell.js';
import type { ToolContext } from './registry.js';

const registry = builtinRegistry();
const dir = tempDir('homunculus-shell-');
const home = join(dir.path, 'home');
const workspace = join(home, 'workspace');
const ctx: ToolContext = {
  workspace,
  home,
  session: 's',
  confirm: async () => true,
  sandbox: { userHome: join(dir.path, 'user'), limits: { timeoutMs: 10_000 } },
};

beforeAll(() => {
  mkdirSync(workspace, { recursive: true });
  mkdirSync(join(dir.path, 'user'));
  writeFileSync(join(workspace, 'note.md'), 'inside the workspace\n');
  // What `agent init` makes and the sandbox keeps read-only: it refuses to run while one is missing.
  for (const dir of ['agents', 'skills']) mkdirSync(join(workspace, dir));
  for (const file of ['AGENTS.md', 'HEARTBEAT.md']) writeFileSync(join(workspace, file), '');
  // As root the command runs as the workspace's owner, or nobody: give the test workspace one.
  if (process.getuid?.() === 0) chownSync(workspace, 65534, 65534);
});
afterAll(() => dir.cleanup());

const exec = (command: string, c: ToolContext = ctx) => registry.run('shell_exec', { command }, c);

describe('shell_exec refuses, before running anything, what would need a shell or is blocked', () => {
  it.each([
    ['touch a1; touch a2', ['a1', 'a2']],
    ['touch b1 && touch b2', ['b1', 'b2']],
    ['touch c1 || touch c2', ['c1', 'c2']],
    ['touch d1 | touch d2', ['d1', 'd2']],
    ['touch e1 # ; touch e2', ['e1', 'e2']],
    ['touch $(echo f1)', ['f1']],
    ['touch `echo g1`', ['g1']],
    ['echo x > h1', ['h1']],
    ['sh -c "touch i1; touch i2"', ['i1', 'i2']],
    ['env X=1 bash -c "touch j1 && touch j2"', ['j1', 'j2']],
    ['nice -n 1 timeout 5 sh -c "touch k1 | sh"', ['k1']],
    ['touch l1\ntouch l2', ['l1', 'l2']],
  ])('%j', async (command, files) => {
    const r = await exec(command);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.hint).toContain('no shell');
    for (const f of files) expect(existsSync(join(workspace, f)), f).toBe(false);
  });

  it.each(['rm -rf /', 'env A=1 nohup curl http://example.com', 'sh -c "mkfs.ext4 /dev/sda"', 'sudo id', 'dd if=/dev/zero of=/dev/sda'])(
    'blocks %j',
    async (command) => expect(await exec(command)).toMatchObject({ ok: false, error: expect.stringContaining('blocked') }),
  );

  it('does not run without confirmation, and fails closed without bubblewrap, saying how to install it', async () => {
    const { confirm: _none, ...unattended } = ctx;
    expect(await exec('touch m1', unattended)).toMatchObject({ ok: false, refused: 'unconfirmed' });
    const r = await exec('touch m2', { ...ctx, sandbox: { bwrap: join(dir.path, 'no-bwrap') } });
    expect(r).toMatchObject({ ok: false, hint: 'install bubblewrap: apt-get install bubblewrap' });
    expect(existsSync(join(workspace, 'm1')) || existsSync(join(workspace, 'm2'))).toBe(false);
  });
});

describe.runIf(hasBwrap('shell_exec in the sandbox'))('shell_exec in the sandbox', () => {
  it('runs one command in the workspace, quoted arguments intact, sh -c text without a shell', async () => {
    expect(await exec('cat note.md')).toMatchObject({ ok: true, output: { exit_code: 0, stdout: 'inside the workspace\n' } });
    const r = await exec(`sh -c "printf '%s|' 'a b' c"`);
    expect(r).toMatchObject({ ok: true, output: { argv: ['printf', '%s|', 'a b', 'c'], stdout: 'a b|c|' } });
    expect(await exec('touch made-by-shell')).toMatchObject({ ok: true, output: { exit_code: 0 } });
    expect(existsSync(join(workspace, 'made-by-shell'))).toBe(true);
  });

  it('reports a failing command and a timeout as results, not crashes', async () => {
    expect(await exec('ls no-such-file')).toMatchObject({
      ok: true,
      output: { exit_code: 2, stderr: expect.stringContaining('no-such-file') },
    });
    const r = await registry.run('shell_exec', { command: 'sleep 10', timeout_seconds: 0.5 }, ctx);
    expect(r).toMatchObject({ ok: true, output: { timed_out: true } });
  });

  it('refuses, before anyone is asked, while a file the sandbox keeps read-only is missing, naming agent init', async () => {
    const heartbeat = join(workspace, 'HEARTBEAT.md');
    renameSync(heartbeat, `${heartbeat}.away`);
    try {
      let asked = false;
      const r = await exec('touch m3', { ...ctx, confirm: async () => (asked = true) });
      expect(r).toMatchObject({ ok: false, refused: 'check', hint: expect.stringContaining('homunculus agent init') });
      expect(asked).toBe(false);
      expect(existsSync(heartbeat)).toBe(false);
    } finally {
      renameSync(`${heartbeat}.away`, heartbeat);
    }
  });
});

describe('memoryNote', () => {
  it('says why a program died under the address-space limit (node cannot start), and nothing otherwise', () => {
    const v8 = '\n#\n# Fatal process OOM in Failed to reserve virtual memory for CodeRange\n#\n';
    expect(memoryNote(v8, 512 * 1024 * 1024)).toMatch(/^The sandbox limits each process to 512 MB of address space; .*node cannot start/);
    expect(memoryNote('grep: notes: No such file or directory', 512 * 1024 * 1024)).toBeUndefined();
  });
});
