/** `homunculus agent telegram` and `agent serve` with Telegram, as real processes against the Bot API and Ollama stubs. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, runNode, tempDir } from '../test-support/cli.js';
import { stubModel } from '../test-support/agent-loop.js';
import { exited } from '../test-support/dashboard.js';
import { type OllamaStub, startOllamaStub } from '../test-support/ollama-stub.js';
import { type TelegramStub, startTelegramStub } from '../test-support/telegram-stub.js';

const USER = 42;
const TOKEN_ENV = { TG_TOKEN: '123:e2e' };

/** Starts `args` and waits for its first line of output. */
async function startProcess(home: string, args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; out: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv(home, TOKEN_ENV) });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 0; i < 400 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
  return { child, out: () => out };
}

describe('homunculus agent telegram', () => {
  let dir: ReturnType<typeof tempDir>;
  let home: string;
  let tg: TelegramStub;
  let ollama: OllamaStub;
  beforeEach(async () => {
    dir = tempDir('homunculus-telegram-cli-');
    home = join(dir.path, 'home');
    tg = await startTelegramStub();
    ollama = await startOllamaStub(() => ({ text: 'Hi from the stub.' }));
    expect(cli(home, ['agent', 'init']).status).toBe(0);
  });
  afterEach(async () => {
    await tg.close();
    await ollama.close();
    dir.cleanup();
  });

  const configure = (telegram?: Record<string, unknown>) =>
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl), stream: false, ...(telegram ? { telegram } : {}) } }),
    );
  const telegram = () => ({ tokenEnv: 'TG_TOKEN', allowed_user_ids: [USER], apiRoot: tg.apiRoot });

  it('refuses to start unconfigured or without its token, saying the fix', () => {
    configure();
    const none = cli(home, ['agent', 'telegram']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no agent.telegram section');
    configure({ ...telegram(), tokenEnv: 'MISSING_TG_TOKEN' });
    const tokenless = cli(home, ['agent', 'telegram'], { env: TOKEN_ENV });
    expect(tokenless.status).toBe(1);
    expect(tokenless.stderr).toContain('MISSING_TG_TOKEN is not set');
  });

  it('answers over Telegram, refuses a second poller on the token (409) with a clear message, and stops cleanly on SIGTERM', async () => {
    configure(telegram());
    const first = await startProcess(home, ['agent', 'telegram', '--json']);
    const code = exited(first.child);
    try {
      expect(JSON.parse(first.out().split('\n')[0] as string)).toMatchObject({ bot: 'homunculus_stub_bot', pid: first.child.pid });
      tg.message(USER, 'hello');
      await tg.waitFor((c) => c.method === 'sendMessage' && c.body.text === 'Hi from the stub.');
      for (let i = 0; i < 100 && tg.pollers() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      // Asynchronously: the stubs answer from this process.
      const second = await runNode([BIN, 'agent', 'telegram'], cliEnv(home, TOKEN_ENV));
      expect(second.status).toBe(1);
      expect(second.stderr).toContain('Another poller is already using this bot token');
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await code).toBe(0);
  });

  /** `agent serve --json` with the bot configured, and the promise of its exit code. */
  const startServe = async () => {
    configure(telegram());
    expect(cli(home, ['agent', 'token']).status).toBe(0);
    const serve = await startProcess(home, ['agent', 'serve', '--port', '0', '--json']);
    return { serve, code: exited(serve.child) };
  };

  it('`agent serve` runs the bot beside the gateway and stops both on SIGINT', async () => {
    const { serve, code } = await startServe();
    try {
      expect(serve.out()).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+"/);
      tg.message(USER, 'hello');
      await tg.waitFor((c) => c.method === 'sendMessage' && c.body.text === 'Hi from the stub.');
    } finally {
      serve.child.kill('SIGINT');
    }
    expect(await code).toBe(0);
    expect(tg.pollers()).toBe(0);
  });

  it('`agent serve` stops on SIGTERM when Telegram has become unreachable', async () => {
    const { serve, code } = await startServe();
    try {
      const { url } = JSON.parse(serve.out().split('\n')[0] as string) as { url: string };
      for (let i = 0; i < 100 && tg.pollers() === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await tg.close();
      serve.child.kill('SIGTERM');
      const stopped = await Promise.race([code, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
      expect(stopped, serve.out()).toBe(0);
      await expect(fetch(`${url}/health`)).rejects.toThrow();
      expect(serve.out()).toContain('could not confirm the last update');
    } finally {
      serve.child.kill('SIGKILL');
    }
  }, 30_000);
});
