/**
 * Each real client (installed into .test-tools/agents at a pinned version) run headless in a
 * scratch home after `homunculus init --<agent>`, against a loopback stub of its model API
 * that scripts two shell calls: one that succeeds, one that exits 3. What Homunculus records
 * (outcomes included), what reached the model, and that nothing is stored twice or echoed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMORY_HEADER } from '../capture/injected.js';
import { openStore } from '../store/store.js';
import { type AgentName, agentBin, agentVersion } from '../test-support/agents.js';
import { cli, tempDir } from '../test-support/cli.js';
import { startGeminiStub } from '../test-support/gemini-stub.js';
import { startMessagesStub, toolSequence } from '../test-support/messages-stub.js';
import { type ModelStub, startResponsesStub, toolCalls } from '../test-support/responses-stub.js';
import { hasAgent } from '../test-support/shared.js';

const PROMPT = 'create the notes file';
const OK = 'touch notes.txt';
const FAIL = 'echo oops >&2; exit 3';
const PLANTED = 'pref:pkg=pnpm';
const RUN_TIMEOUT_MS = 120_000;

interface Client {
  name: AgentName;
  flag: string;
  /** The tool name the client records a shell call under. */
  shell: string;
  stub(): Promise<{ stub: { baseUrl: string; close(): Promise<void> }; first: () => string | undefined }>;
  args: string[];
  env(baseUrl: string): Record<string, string>;
  /** Settings the client needs before init (init keeps them). */
  prepare?(home: string): void;
}

const CLIENTS: Client[] = [
  {
    name: 'claude',
    flag: '--claude',
    shell: 'Bash',
    stub: async () => {
      const stub = await startMessagesStub(toolSequence([OK, FAIL].map((command) => ({ name: 'Bash', input: { command } }))));
      return { stub, first: () => stub.requests[0]?.raw };
    },
    args: ['-p', PROMPT, '--allowedTools', 'Bash', '--output-format', 'json'],
    env: (baseUrl) => ({
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    }),
  },
  {
    name: 'codex',
    flag: '--codex',
    shell: 'Bash',
    stub: async () => {
      const stub: ModelStub = await startResponsesStub(toolCalls([OK, FAIL].map((cmd) => ({ name: 'exec_command', args: { cmd } }))));
      return { stub, first: () => stub.requests[0]?.raw };
    },
    args: ['exec', '-m', 'gpt-5.1-codex', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', PROMPT],
    env: (baseUrl) => ({
      STUB_API_KEY: 'sk-test',
      CODEX_STUB_PROVIDER: `{name="stub",base_url="${baseUrl}/v1",wire_api="responses",env_key="STUB_API_KEY"}`,
    }),
  },
  {
    name: 'gemini',
    flag: '--gemini',
    shell: 'run_shell_command',
    stub: async () => {
      const stub = await startGeminiStub(toolCalls([OK, FAIL].map((command) => ({ name: 'run_shell_command', args: { command } }))));
      return { stub, first: () => stub.requests[0]?.raw };
    },
    args: ['-p', PROMPT, '--skip-trust', '--yolo', '-m', 'gemini-2.5-flash'],
    env: (baseUrl) => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: baseUrl }),
    // A base URL without an auth type stops Gemini CLI before its first hook (doctor says so too).
    // Written with a comment, as Gemini CLI allows (it refuses trailing commas): init edits around it.
    prepare: (home) => {
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        '{\n  // the stub takes an API key\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n}\n',
      );
    },
  },
];

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: RUN_TIMEOUT_MS });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (status) => done({ status, out }));
  });
}

/** The session Homunculus summarised (sessions/*.md) and its observations. */
function recorded(data: string) {
  const files = readdirSync(join(data, 'sessions')).filter((f) => f.endsWith('.md'));
  const ids = files.map((f) => /^session_id: (.+)$/m.exec(readFileSync(join(data, 'sessions', f), 'utf8'))?.[1] ?? '');
  const store = openStore({ home: data, readonly: true });
  try {
    return { ids, observations: ids.flatMap((id) => store.observations.forSession(id)) };
  } finally {
    store.close();
  }
}

const scratch = tempDir('homunculus-agents-');
afterAll(() => scratch.cleanup());

for (const client of CLIENTS) {
  const bin = agentBin(client.name);
  const version = agentVersion(client.name);
  describe.runIf(hasAgent(bin, `${client.name} ${version} end to end`))(
    `${client.name} ${version}, headless, after init ${client.flag}`,
    () => {
      const home = join(scratch.path, client.name);
      const project = join(home, 'shop');
      const data = join(home, '.homunculus');
      // No homunculus on PATH: the hooks run this checkout's build by absolute path.
      const path = [dirname(bin as string), ...(process.env.PATH ?? '').split(delimiter).filter((d) => !existsSync(join(d, 'homunculus')))];
      const env = (extra: Record<string, string>): NodeJS.ProcessEnv => {
        const e: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: path.join(delimiter), ...extra };
        delete e.HOMUNCULUS_HOME;
        delete e.HOMUNCULUS_OBSERVER;
        return e;
      };

      it('records both calls with their outcomes, injects the memory once, stores no echo', async () => {
        mkdirSync(project, { recursive: true });
        spawnSync('git', ['init', '-q'], { cwd: project });
        client.prepare?.(home);
        expect(cli(data, ['init', client.flag], { env: { HOME: home, PATH: path.join(delimiter) } }).status).toBe(0);
        expect(cli(data, ['observe', PLANTED, '--count', '3', '--explain', 'this shop uses pnpm']).status).toBe(0);
        const { stub, first } = await client.stub();
        try {
          const extra = client.env(stub.baseUrl);
          const args =
            client.name === 'codex'
              ? ['-c', 'model_provider="stub"', '-c', `model_providers.stub=${extra.CODEX_STUB_PROVIDER}`, ...client.args]
              : client.args;
          const r = await run(bin as string, args, project, env(extra));
          expect(r.status, r.out.slice(-3000)).toBe(0);
          expect(first()).toContain(MEMORY_HEADER);
          // In plain words: what the instinct says, never its internal key.
          expect(first()).toContain('this shop uses pnpm');
          expect(first()).not.toContain(PLANTED);
          // One fenced block: the session-start memory, once (a client may escape its brackets: Gemini writes &lt; &gt;).
          const opening = /(?:<|\\u003c|&lt;)homunculus-memory-[0-9a-f]{16}(?:>|\\u003e|&gt;)/gi;
          expect(first()?.match(opening)?.length, 'the session-start memory, once').toBe(1);
        } finally {
          await stub.close();
        }
        // Claude Code's observe hooks run in the background and may still be writing when it
        // exits (seconds later on a loaded machine): wait for both tool calls, then check them.
        const until = Date.now() + 30_000;
        expect(cli(data, ['status', '--json']).status).toBe(0);
        let seen = recorded(data);
        while (seen.observations.filter((o) => o.event === 'tool').length < 2 && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 500));
          expect(cli(data, ['status', '--json']).status).toBe(0);
          seen = recorded(data);
        }
        const { ids, observations } = seen;
        expect(ids).toHaveLength(1);
        // Claude Code's observe hooks run in the background: they may land in either order.
        const tools = observations
          .filter((o) => o.event === 'tool')
          .map((o) => ({ tool: o.tool, input: o.input, outcome: o.outcome }))
          .sort((a, b) => (a.input === OK ? -1 : b.input === OK ? 1 : 0));
        expect(tools).toEqual([
          { tool: client.shell, input: OK, outcome: 'ok' },
          { tool: client.shell, input: FAIL, outcome: 'error' },
        ]);
        const failed = observations.find((o) => o.input === FAIL);
        expect(JSON.parse(failed?.data ?? '{}')).toMatchObject({ exit_code: 3 });
        expect(failed?.error).toMatch(/^exit 3/);
        expect(observations.filter((o) => o.event === 'prompt').map((o) => o.input)).toEqual([PROMPT]);
        expect(observations.some((o) => o.input.includes(MEMORY_HEADER))).toBe(false);
        expect(observations.filter((o) => o.event === 'session_start')).toHaveLength(1);
      });

      // Gemini CLI drops a resumed message that begins with hook context: the start block rides after the first prompt.
      if (client.name === 'gemini')
        it('a resumed session still holds the first prompt and the memory given with it', async () => {
          const { stub, first } = await client.stub();
          try {
            const args = ['-p', 'now add a second line', '--resume', 'latest', ...client.args.slice(2)];
            const r = await run(bin as string, args, project, env(client.env(stub.baseUrl)));
            expect(r.status, r.out.slice(-3000)).toBe(0);
            expect(first()).toContain('now add a second line');
            expect(first()).toContain(PROMPT);
            expect(first()).toContain('this shop uses pnpm');
          } finally {
            await stub.close();
          }
        });

      // Only Codex asks for trust: the test exists for it alone (declared, not skipped, elsewhere).
      if (client.name === 'codex')
        it('doctor fails with the fix when the hooks are untrusted', () => {
          const config = join(home, '.codex', 'config.toml');
          const r0 = cli(data, ['doctor'], { env: { HOME: home, PATH: path.join(delimiter) } });
          expect(r0.stdout).toMatch(/✓ hooks: codex \(user\) 6 hooks, active/);
          writeFileSync(config, readFileSync(config, 'utf8').replace(/^# homunculus:begin trust[\s\S]*?^# homunculus:end trust.*\n/m, ''));
          const r = cli(data, ['doctor'], { env: { HOME: home, PATH: path.join(delimiter) } });
          expect(r.status).toBe(1);
          expect(r.stdout).toMatch(/✗ hooks: codex \(user\): Codex skips 6 of our 6 hooks \(SessionStart untrusted/);
          expect(r.stdout).toMatch(/fix: Run `homunculus init --codex` again to trust them/);
        });
    },
  );
}
