/**
 * The Claude Code plugin, installed the way Claude Code's plugin docs describe and driven
 * through the real `claude` client against a loopback stub of the Messages API: validated,
 * installed from a marketplace, set up on first use, then recording sessions and serving MCP.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBin } from '../test-support/agents.js';
import { REPO_ROOT, cli, tempDir } from '../test-support/cli.js';
import { type MessagesStub, oneToolCall, startMessagesStub } from '../test-support/messages-stub.js';
import { hasAgent } from '../test-support/shared.js';

const CLAUDE = agentBin('claude');
const SETUP_TIMEOUT_MS = 300_000;

/** The repository as a clone would hold it: tracked and new files, nothing ignored (no dist/, no node_modules/). */
function snapshot(dest: string): void {
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean);
  for (const f of files) if (existsSync(join(REPO_ROOT, f))) cpSync(join(REPO_ROOT, f), join(dest, f));
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=test', ...args], { cwd: dest });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'snapshot');
}

/** The user's own npm settings and cache, so the setup's npm finds Node's headers and packages as the user's would. */
function npmEnv(): Record<string, string> {
  const home = process.env.HOME ?? homedir();
  const rc = join(home, '.npmrc');
  return { npm_config_cache: join(home, '.npm'), ...(existsSync(rc) ? { npm_config_userconfig: rc } : {}) };
}

describe.runIf(hasAgent(CLAUDE, 'the Claude Code plugin through the real claude client'))(
  'the Claude Code plugin, installed from its repository',
  () => {
    let scratch: ReturnType<typeof tempDir>;
    let plugin: string;
    let project: string;
    let stub: MessagesStub;
    let env: NodeJS.ProcessEnv;
    // Asynchronous: the stub answering claude's requests lives in this process.
    const claude = (args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
      new Promise((done) => {
        const child = spawn(CLAUDE as string, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => done({ status, stdout, stderr }));
      });

    beforeAll(async () => {
      scratch = tempDir('homunculus-plugin-');
      plugin = join(scratch.path, 'homunculus');
      project = join(scratch.path, 'home', 'shop');
      mkdirSync(plugin, { recursive: true });
      mkdirSync(project, { recursive: true });
      spawnSync('git', ['init', '-q'], { cwd: project });
      snapshot(plugin);
      stub = await startMessagesStub(
        oneToolCall({ name: 'Bash', input: { command: 'touch notes.txt', description: 'Create the notes file' } }),
      );
      const path = (process.env.PATH ?? '').split(delimiter).filter((d) => !existsSync(join(d, 'homunculus')));
      env = {
        PATH: path.join(delimiter),
        HOME: join(scratch.path, 'home'),
        ANTHROPIC_BASE_URL: stub.baseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...npmEnv(),
      };
    });
    afterAll(async () => {
      await stub?.close();
      scratch?.cleanup();
    });

    it('validates and installs from the repository as a marketplace', async () => {
      const valid = await claude(['plugin', 'validate', plugin]);
      expect(valid.status, valid.stderr).toBe(0);
      expect(valid.stdout).toMatch(/Validation passed/);
      const installed = await claude(['plugin', 'install', 'homunculus', '--marketplace', plugin]);
      expect(installed.status, installed.stderr + installed.stdout).toBe(0);
      expect((await claude(['plugin', 'list'])).stdout).toMatch(/homunculus@homunculus[\s\S]*enabled/);
    }, 120_000);

    it(
      'sets itself up on the first session, says so, and records sessions from then on',
      async () => {
        // As Claude Code leaves a plugin installed from a git repository: its dependencies are there,
        // installed with their build scripts skipped (no SQLite binding), and there is no build.
        // The real folder (a worktree's node_modules may be a link): removing the copy's build below must not touch the original.
        const modules = realpathSync(join(REPO_ROOT, 'node_modules'));
        const linked = spawnSync('cp', ['-al', modules, join(plugin, 'node_modules')]);
        if (linked.status !== 0) cpSync(modules, join(plugin, 'node_modules'), { recursive: true, verbatimSymlinks: true });
        rmSync(join(plugin, 'node_modules', 'better-sqlite3', 'build'), { recursive: true, force: true });
        const first = await claude([
          '-p',
          'create the notes file',
          '--output-format',
          'stream-json',
          '--verbose',
          '--allowedTools',
          'Bash',
        ]);
        expect(first.status, first.stderr).toBe(0);
        expect(first.stdout).toMatch(/Homunculus is setting itself up for the first time/);

        const log = join(plugin, '.homunculus-setup.log');
        const started = Date.now();
        while (!(existsSync(log) && readFileSync(log, 'utf8').includes('setup done'))) {
          expect(Date.now() - started, existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : 'no setup log').toBeLessThan(
            SETUP_TIMEOUT_MS,
          );
          await new Promise((r) => setTimeout(r, 1000));
        }
        expect(existsSync(join(plugin, 'dist', 'cli', 'bin.js'))).toBe(true);

        const second = await claude(['-p', 'create the notes file again', '--output-format', 'json', '--allowedTools', 'Bash']);
        expect(second.status, second.stderr).toBe(0);
        expect(JSON.parse(second.stdout)).toMatchObject({ is_error: false, result: 'Done.' });
        const data = join(scratch.path, 'home', '.homunculus');
        const sessions = readdirSync(join(data, 'sessions')).filter((f) => f.endsWith('.md'));
        expect(sessions).toHaveLength(1);
        const summary = readFileSync(join(data, 'sessions', sessions[0] as string), 'utf8');
        expect(summary).toMatch(/project: shop/);
        expect(summary).toMatch(/- Bash: 1/);
        expect(summary).toMatch(/First prompt: "create the notes file again"/);
        const status = cli(data, ['status', '--json'], { env: { HOME: env.HOME } });
        expect(JSON.parse(status.stdout).observations).toBeGreaterThanOrEqual(4);
      },
      SETUP_TIMEOUT_MS + 120_000,
    );

    it('serves its MCP server to claude', async () => {
      const list = await claude(['mcp', 'list']);
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/homunculus.*Connected/i);
    });

    it('pre-approves only its own homunculus calls in a slash command, never another shell command', async () => {
      // The model answers the slash command with a command of its own: the command's allowed
      // tools must not cover it (they once allowed any `sh` command).
      const planted = join(scratch.path, 'planted');
      const other = await startMessagesStub(
        oneToolCall({ name: 'Bash', input: { command: `sh -c 'touch ${planted}'`, description: 'x' } }),
      );
      const saved = env.ANTHROPIC_BASE_URL;
      env.ANTHROPIC_BASE_URL = other.baseUrl;
      try {
        const run = await claude(['-p', '/homunculus:homunculus-instinct-status', '--output-format', 'json']);
        expect(run.status, run.stderr).toBe(0);
        expect(other.requests.length).toBeGreaterThan(0);
        expect(existsSync(planted)).toBe(false);
        expect(JSON.parse(run.stdout).permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash' })]);
      } finally {
        env.ANTHROPIC_BASE_URL = saved;
        await other.close();
      }
    });
  },
);
