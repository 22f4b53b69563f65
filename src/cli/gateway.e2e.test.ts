/** `homunculus agent token / status / serve` through the built binary, on a temporary home. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../core/paths.js';
import { BIN, cli, cliEnv, tempDir } from '../test-support/cli.js';
import { STUB_ENV, stubModel } from '../test-support/agent-loop.js';
import { exited } from '../test-support/dashboard.js';
import { ollamaOneToolCall, startOllamaStub } from '../test-support/ollama-stub.js';

describe('homunculus agent token, status and serve', () => {
  let dir: ReturnType<typeof tempDir>;
  let home: string;
  beforeEach(() => {
    dir = tempDir('homunculus-gateway-cli-');
    home = join(dir.path, 'home');
  });
  afterEach(() => dir.cleanup());

  it('refuses to serve without a token, or on another host, with the fix', () => {
    const none = cli(home, ['agent', 'serve', '--port', '0']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('homunculus agent token');
    const wide = cli(home, ['agent', 'serve', '--host', '0.0.0.0']);
    expect(wide.status).toBe(2);
    expect(wide.stderr).toMatch(/127\.0\.0\.1 only/);
  });

  it('says at start what runs beside the gateway: the Telegram bot or not, and how many scheduled jobs', async () => {
    expect(cli(home, ['agent', 'init']).status).toBe(0);
    cli(home, ['agent', 'token', '--json']);
    const added = cli(home, ['agent', 'schedule', 'add', 'tick', '--cron', '0 9 * * *', '--time-zone', 'UTC', '--message', 'hi']);
    expect(added.status, added.stderr).toBe(0);
    const child = spawn(process.execPath, [BIN, 'agent', 'serve', '--port', '0'], { env: cliEnv(home, STUB_ENV) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    for (let i = 0; i < 300 && out.split('\n').length < 4; i++) await new Promise((r) => setTimeout(r, 50));
    const code = exited(child);
    child.kill('SIGTERM');
    expect(await code).toBe(0);
    expect(out).toMatch(
      /^Gateway on http:\/\/127\.0\.0\.1:\d+ .*\nTelegram: not configured \(agent\.telegram in config\.json\)\.\nScheduler: 1 job enabled/,
    );
  }, 30_000);

  it('shows a token once, stores only its hash, serves the agent (a held tool runs on yes), rotates (old token dead), and stops cleanly', async () => {
    expect(cli(home, ['agent', 'init']).status).toBe(0);
    // The agent's local model: a loopback stub of Ollama's /api/chat that asks for one dangerous tool.
    const ollama = await startOllamaStub(
      ollamaOneToolCall({ name: 'workspace_write', input: { path: 'notes/a.md', content: 'hi' } }, 'Wrote it.'),
    );
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
    const made = JSON.parse(cli(home, ['agent', 'token', '--json']).stdout) as { token: string; rotated: boolean };
    expect(made.rotated).toBe(false);
    expect(readFileSync(homePaths(home).agentToken, 'utf8')).not.toContain(made.token);
    const child = spawn(process.execPath, [BIN, 'agent', 'serve', '--port', '0', '--json'], { env: cliEnv(home, STUB_ENV) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    for (let i = 0; i < 300 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
    const { url, pid } = JSON.parse(out.split('\n')[0] as string) as { url: string; pid: number };
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true });
      const get = (token: string) => fetch(`${url}/api/v1/status`, { headers: { authorization: `Bearer ${token}` } });
      const status = await get(made.token);
      expect(status.status).toBe(200);
      const tools = ((await status.json()) as { tools: string[] }).tools;
      expect(tools).toContain('web_fetch');
      // Without agent.mqtt the MQTT tools are not offered, so not listed.
      expect(tools).not.toContain('mqtt_publish');
      expect(tools).not.toContain('mqtt_subscribe');
      const running = JSON.parse(cli(home, ['agent', 'status', '--json']).stdout) as { gateway: { running: boolean; pid: number } };
      expect(running.gateway).toMatchObject({ running: true, pid });
      // A second gateway on the same home would run every scheduled job twice: refused, naming the first.
      const second = cli(home, ['agent', 'serve', '--port', '0'], { env: STUB_ENV });
      expect(second.status).toBe(2);
      expect(second.stderr).toContain(`A gateway already serves this home (process ${pid} on ${url})`);
      expect(JSON.parse(cli(home, ['agent', 'status', '--json']).stdout).gateway).toMatchObject({ running: true, pid });
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const chat = await post('/api/v1/chat', { message: 'write the note please' });
      expect(chat.status).toBe(200);
      const held = (await chat.json()) as { pending?: { id: string; tool: string } };
      expect(held.pending?.tool).toBe('workspace_write');
      const note = join(homePaths(home).workspace, 'notes', 'a.md');
      expect(existsSync(note)).toBe(false);
      const done = await post('/api/v1/confirm', { id: held.pending?.id, answer: 'yes' });
      expect(done.status).toBe(200);
      expect(((await done.json()) as { text: string }).text).toContain('Wrote it.');
      expect(readFileSync(note, 'utf8')).toBe('hi');
      const rotated = JSON.parse(cli(home, ['agent', 'token', '--json']).stdout) as { token: string; rotated: boolean };
      expect(rotated.rotated).toBe(true);
      expect((await get(made.token)).status).toBe(401);
      expect((await get(rotated.token)).status).toBe(200);
    } finally {
      const code = exited(child);
      child.kill('SIGTERM');
      expect(await code).toBe(0);
      await ollama.close();
    }
    expect(existsSync(homePaths(home).gatewayState)).toBe(false);
    expect(cli(home, ['agent', 'status']).stdout).toContain('gateway: not running');
  }, 60_000);

  it('on Ctrl-C, finishes the chat turn in flight and answers it before stopping', async () => {
    expect(cli(home, ['agent', 'init']).status).toBe(0);
    const ollama = await startOllamaStub(() => ({ text: 'Thought it over, slowly, word by word.' }), { chunkDelayMs: 200 });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
    const { token } = JSON.parse(cli(home, ['agent', 'token', '--json']).stdout) as { token: string };
    const child = spawn(process.execPath, [BIN, 'agent', 'serve', '--port', '0'], { env: cliEnv(home, STUB_ENV) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      for (let i = 0; i < 300 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
      const url = /Gateway on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const chat = fetch(`${url}/api/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'think it over' }),
      });
      for (let i = 0; i < 200 && ollama.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      const code = exited(child);
      child.kill('SIGINT');
      const answer = await chat;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { text: string }).text).toContain('word by word');
      expect(await code).toBe(0);
      expect(out).toContain('Stopping: finishing 1 request in flight');
    } finally {
      child.kill('SIGKILL');
      await ollama.close();
    }
  }, 60_000);

  it('after SIGTERM, a Ctrl-C stops at once: the first signal leaves no listener behind to swallow it', async () => {
    expect(cli(home, ['agent', 'init']).status).toBe(0);
    const ollama = await startOllamaStub(() => ({ text: 'One slow word after another, on and on.' }), { chunkDelayMs: 3_000 });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
    const { token } = JSON.parse(cli(home, ['agent', 'token', '--json']).stdout) as { token: string };
    const child = spawn(process.execPath, [BIN, 'agent', 'serve', '--port', '0', '--json'], { env: cliEnv(home, STUB_ENV) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      for (let i = 0; i < 300 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
      const { url } = JSON.parse(out.split('\n')[0] as string) as { url: string };
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      void fetch(`${url}/api/v1/chat`, { method: 'POST', headers, body: JSON.stringify({ message: 'go slowly' }) }).catch(() => undefined);
      for (let i = 0; i < 200 && ollama.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      const signal = new Promise<string | null>((done) => child.on('exit', (_code, sig) => done(sig)));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      child.kill('SIGINT');
      const stopped = await Promise.race([signal, new Promise((r) => setTimeout(() => r('still running'), 5_000))]);
      expect(stopped).toBe('SIGINT');
    } finally {
      child.kill('SIGKILL');
      await ollama.close();
    }
  }, 60_000);

  it('agent status says when config.json would stop the agent: a file that does not parse, a misspelt key', () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{"agent": {"budget": {"dailyUsd": 1}},}');
    const broken = cli(home, ['agent', 'status']);
    expect(broken.stdout).toMatch(/^✗ config: .*config\.json is not valid JSON/m);
    expect(broken.status).toBe(1);
    writeFileSync(join(home, 'config.json'), '{"agent": {"budgett": {"dailyUsd": 1}}}');
    const status = JSON.parse(cli(home, ['agent', 'status', '--json']).stdout) as { config: { status: string; detail: string } };
    expect(status.config).toMatchObject({ status: 'fail', detail: expect.stringContaining('did you mean "budget"') });
    writeFileSync(join(home, 'config.json'), '{"agent": {"budget": {"dailyUsd": 1}}}');
    const fine = cli(home, ['agent', 'status']);
    expect(fine.stdout).toMatch(/^✓ config: local ollama .*budget \$1 a day$/m);
    expect(fine.status).toBe(0);
  });
});
