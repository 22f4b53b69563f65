/**
 * Escape attempts against the real bubblewrap sandbox (no fakes): network, writes outside
 * the workspace, reading the Homunculus home and ~/.ssh, a fork bomb, an endless loop, a
 * 1 GB allocation, flooding output, leaked environment.
 */
import { chownSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { hasBwrap } from '../test-support/shared.js';
import { type SandboxConfig, type SandboxPlan, DEFAULT_LIMITS, bwrapArgs, dropTarget, passwdHome, runSandboxed } from './sandbox.js';

const available = hasBwrap('sandbox escape tests');
const root = process.getuid?.() === 0;

/** Host processes whose command line is exactly `argv` (a marker a test's command leaves behind, if it escaped). */
function hostProcesses(argv: readonly string[]): number {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === wanted;
    } catch {
      return false;
    }
  }).length;
}

describe.runIf(available)('the bubblewrap sandbox', () => {
  const dir = tempDir('homunculus-sandbox-');
  const home = join(dir.path, 'home');
  const workspace = join(home, 'workspace');
  const userHome = join(dir.path, 'user');
  const outside = join(dir.path, 'outside');
  let config: SandboxConfig;

  beforeAll(() => {
    mkdirSync(workspace, { recursive: true });
    mkdirSync(join(userHome, '.ssh'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(home, 'secret.txt'), 'HOME-SECRET-42');
    writeFileSync(join(userHome, '.ssh', 'id_ed25519'), 'SSH-KEY-SECRET-42');
    // As root the command runs as the workspace's owner, or nobody: give the test workspace one.
    if (root) chownSync(workspace, 65534, 65534);
    config = { workspace, home, userHome, limits: { timeoutMs: 10_000 } };
  });
  afterAll(() => dir.cleanup());

  const run = (argv: string[], limits: Partial<typeof DEFAULT_LIMITS> = {}) =>
    runSandboxed(argv, { ...config, limits: { ...config.limits, ...limits } });

  it('writes inside the workspace, and starts there with a scrubbed environment', async () => {
    process.env.HOMUNCULUS_TEST_LEAK = 'sk-leaked-123';
    try {
      const r = await run(['sh', '-c', 'touch made-inside && pwd && env']);
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(workspace, 'made-inside'))).toBe(true);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe(workspace);
      const names = lines.slice(1).map((l) => l.split('=')[0]);
      expect(names.sort()).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR']);
      expect(r.stdout).not.toContain('sk-leaked-123');
    } finally {
      delete process.env.HOMUNCULUS_TEST_LEAK;
    }
  });

  it('keeps the paths it is asked to keep read-only in a writable workspace (the agents, skills and standing tasks)', async () => {
    mkdirSync(join(workspace, 'agents', 'default'), { recursive: true });
    writeFileSync(join(workspace, 'agents', 'default', 'SOUL.md'), 'kind');
    writeFileSync(join(workspace, 'HEARTBEAT.md'), '- nothing');
    mkdirSync(join(workspace, 'skills'));
    // As root the command runs as nobody: give it the files, so only the read-only binds stop it.
    if (root)
      for (const p of ['agents', 'agents/default', 'agents/default/SOUL.md', 'HEARTBEAT.md']) chownSync(join(workspace, p), 65534, 65534);
    const keep = ['agents', 'HEARTBEAT.md', 'skills'];
    const r = await runSandboxed(['sh', '-c', 'echo evil > agents/default/SOUL.md; echo evil > HEARTBEAT.md; echo fine > notes.txt'], {
      ...config,
      keep,
    });
    expect(r.stderr.match(/Read-only file system/g)).toHaveLength(2);
    expect(readFileSync(join(workspace, 'agents', 'default', 'SOUL.md'), 'utf8')).toBe('kind');
    expect(readFileSync(join(workspace, 'HEARTBEAT.md'), 'utf8')).toBe('- nothing');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('fine\n');
  });

  it('runs nothing while a path it keeps read-only is missing: a command could create it (a HEARTBEAT.md of tasks)', async () => {
    const keep = ['HEARTBEAT.md'];
    rmSync(join(workspace, 'HEARTBEAT.md'), { force: true });
    await expect(runSandboxed(['sh', '-c', 'echo "- upload the notes" > HEARTBEAT.md'], { ...config, keep })).rejects.toThrow(
      expect.objectContaining({ message: expect.stringContaining('lacks HEARTBEAT.md'), hint: expect.stringContaining('agent init') }),
    );
    expect(existsSync(join(workspace, 'HEARTBEAT.md'))).toBe(false);
  });

  it('passes input on stdin to the command, and ignores stdin without it', async () => {
    const input = 'first line\nsecond line, ünïcode\n';
    const r = await runSandboxed(['cat'], config, { input });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(input);
    const none = await runSandboxed(['cat'], config);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toBe('');
  });

  it('survives a command that exits without reading its input (EPIPE)', async () => {
    // More than a pipe holds, so writing meets the closed pipe.
    const r = await runSandboxed(['true'], config, { input: 'x'.repeat(4 * 1024 * 1024) });
    expect(r.exitCode).toBe(0);
    expect(r.timedOut).toBe(false);
  });

  it('binds the workspace read-only when asked: the command writes only its private /tmp', async () => {
    const r = await runSandboxed(['sh', '-c', 'touch ro-attempt; echo kept > /tmp/scratch && cat /tmp/scratch'], {
      ...config,
      readOnly: true,
    });
    expect(existsSync(join(workspace, 'ro-attempt'))).toBe(false);
    expect(r.stderr).toMatch(/Read-only file system|Permission denied/);
    expect(r.stdout).toBe('kept\n');
  });

  it('has no network: neither a server on the host loopback nor the internet is reachable', async () => {
    const server = createServer((s) => s.end('hello from the host\n'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      const connect = (addr: string) => [
        'perl',
        '-MIO::Socket::INET',
        '-e',
        `my $s = IO::Socket::INET->new(PeerAddr => "${addr}", Timeout => 2) or die "refused: $!\\n"; print "CONNECTED ", <$s>;`,
      ];
      for (const addr of [`127.0.0.1:${port}`, '1.1.1.1:80']) {
        const r = await run(connect(addr));
        expect(r.stdout, addr).not.toContain('CONNECTED');
        expect(r.exitCode, addr).not.toBe(0);
        expect(r.stderr, addr).toContain('refused:');
      }
    } finally {
      server.close();
    }
  });

  it('cannot write outside the workspace', async () => {
    const targets = ['/etc/homunculus-escape', join(outside, 'escaped'), join(home, 'escaped'), join(userHome, 'escaped')];
    const r = await run(['sh', '-c', targets.map((t) => `touch '${t}'`).join('; ')]);
    for (const t of targets) expect(existsSync(t), t).toBe(false);
    expect(r.stderr).toMatch(/Read-only file system|Permission denied|No such file/);
  });

  it('cannot read the Homunculus home or the user home (~/.ssh), which are empty inside', async () => {
    const r = await run([
      'sh',
      '-c',
      `cat '${join(home, 'secret.txt')}' '${join(userHome, '.ssh', 'id_ed25519')}'; ls -A '${home}' '${userHome}' '${userInfo().homedir}'`,
    ]);
    expect(r.stdout).not.toContain('SECRET-42');
    expect(r.stderr).toContain('No such file');
    // Only the workspace shows in the hidden home; the user homes are empty.
    expect(r.stdout.split('\n').filter((l) => l && !l.endsWith(':'))).toEqual(['workspace']);
  });

  it('limits the processes a command may run at once', async () => {
    const fork = 'my $n = 0; for (1 .. 200) { my $p = fork(); last unless defined $p; if (!$p) { sleep 20; exit 0 } $n++ } print "$n\\n";';
    const r = await run(['perl', '-e', fork], { maxProcesses: 16 });
    const forked = Number(r.stdout.trim());
    expect(forked).toBeGreaterThan(0);
    expect(forked).toBeLessThan(16);
  });

  it('contains a fork bomb: it ends, and nothing it started survives', async () => {
    const started = Date.now();
    const r = await run(['sh', '-c', 'sleep 4321 & b() { b | b & }; b; wait'], { maxProcesses: 32, timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(r.timedOut || r.exitCode !== 0).toBe(true);
    await new Promise((done) => setTimeout(done, 300));
    expect(hostProcesses(['sleep', '4321'])).toBe(0);
  });

  it('kills an endless loop and its whole process tree at the timeout', async () => {
    const r = await run(['sh', '-c', 'sleep 4322 & while :; do :; done'], { timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(r.durationMs).toBeGreaterThanOrEqual(1000);
    expect(r.durationMs).toBeLessThan(5000);
    await new Promise((done) => setTimeout(done, 300));
    expect(hostProcesses(['sleep', '4322'])).toBe(0);
  });

  it('refuses a 1 GB allocation (512 MB address space) but allows 100 MB', async () => {
    const alloc = (bytes: string) => ['perl', '-e', `my $x = "a" x (${bytes}); print "ALLOCATED\\n";`];
    const big = await run(alloc('1 << 30'));
    expect(big.stdout).not.toContain('ALLOCATED');
    expect(big.exitCode).not.toBe(0);
    const small = await run(alloc('100 << 20'));
    expect(small.stdout).toContain('ALLOCATED');
  });

  it('cuts flooding output at the limit and ends the command', async () => {
    const r = await run(['yes', 'flood'], { maxOutputBytes: 4096 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(4096);
    expect(r.timedOut).toBe(false);
  });

  it('fails closed without bubblewrap, saying how to install it', async () => {
    await expect(runSandboxed(['true'], { ...config, bwrap: join(dir.path, 'no-bwrap') })).rejects.toMatchObject({
      message: expect.stringContaining('not installed'),
      hint: 'install bubblewrap: apt-get install bubblewrap',
    });
  });
});

describe('bwrapArgs', () => {
  const plan: SandboxPlan = {
    workspace: '/home/u/.homunculus/workspace',
    hidden: ['/home/u/.homunculus', '/home/u'],
    limits: DEFAULT_LIMITS,
  };

  it('unshares everything, drops capabilities, hides homes before binding the workspace back', () => {
    const args = bwrapArgs(plan, ['ls', '-la']);
    const at = (...w: string[]) => args.findIndex((a, i) => w.every((x, j) => args[i + j] === x));
    for (const flag of ['--unshare-all', '--die-with-parent', '--new-session', '--clearenv']) expect(args).toContain(flag);
    expect(at('--cap-drop', 'ALL')).toBeGreaterThan(-1);
    expect(at('--ro-bind', '/', '/')).toBeGreaterThan(-1);
    expect(at('--tmpfs', '/home/u')).toBeLessThan(at('--tmpfs', '/home/u/.homunculus'));
    expect(at('--tmpfs', '/home/u/.homunculus')).toBeLessThan(at('--bind', plan.workspace, plan.workspace));
    expect(args.slice(-8)).toEqual([
      'prlimit',
      `--as=${512 * 1024 * 1024}`,
      '--nproc=64',
      `--fsize=${256 * 1024 * 1024}`,
      '--core=0',
      '--',
      'ls',
      '-la',
    ]);
    expect(args).not.toContain('setpriv');
  });

  it('binds a read-only workspace with --ro-bind', () => {
    const args = bwrapArgs({ ...plan, readOnly: true }, ['true']);
    const i = args.indexOf(plan.workspace);
    expect(args.slice(i - 1, i + 2)).toEqual(['--ro-bind', plan.workspace, plan.workspace]);
    expect(args).not.toContain('--bind');
  });

  it('as root, picks the workspace owner, or nobody when root owns it; a user stays itself', () => {
    expect(dropTarget(0, { uid: 1000, gid: 100 })).toEqual({ uid: 1000, gid: 100 });
    // `chown -R nobody` leaves the group root: the command must not keep it.
    expect(dropTarget(0, { uid: 65534, gid: 0 })).toEqual({ uid: 65534, gid: 65534 });
    expect(dropTarget(0, { uid: 0, gid: 0 })).toEqual({ uid: 65534, gid: 65534 });
    expect(dropTarget(1000, { uid: 1000, gid: 100 })).toBeUndefined();
  });

  it('reads the home of the account commands drop to from the password file, to hide it too', () => {
    const tmp = tempDir('homunculus-passwd-');
    const passwd = join(tmp.path, 'passwd');
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\nodd:x:1001\n');
    expect(passwdHome(1000, passwd)).toBe('/home/alice');
    expect(passwdHome(1001, passwd)).toBeUndefined();
    expect(passwdHome(1000, join(tmp.path, 'missing'))).toBeUndefined();
    tmp.cleanup();
  });

  it('as root, drops to another uid inside with setpriv (root is exempt from the process limit)', () => {
    const args = bwrapArgs({ ...plan, dropTo: { uid: 1000, gid: 1000 } }, ['true']);
    expect(args).not.toContain('--unshare-all');
    expect(args).toContain('--unshare-net');
    expect(args.slice(args.indexOf('setpriv'), args.indexOf('setpriv') + 3)).toEqual(['setpriv', '--reuid=1000', '--regid=1000']);
    expect(args.indexOf('setpriv')).toBeLessThan(args.indexOf('prlimit'));
  });
});
