/** `homunculus agent chat` and `agent budget` through the built binary, the models being loopback stubs. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STUB_ENV, stubModel } from '../test-support/agent-loop.js';
import { BIN, type CliResult, cli, cliEnv, runNode, tempDir } from '../test-support/cli.js';
import { oneToolCall, startMessagesStub } from '../test-support/messages-stub.js';
import { ollamaOneToolCall, startOllamaStub } from '../test-support/ollama-stub.js';

/** The binary with `input` on stdin, without blocking this process (the stubs answer from it). */
const chat = (home: string, args: string[], input: string): Promise<CliResult> =>
  runNode([BIN, 'agent', 'chat', ...args], cliEnv(home, STUB_ENV), input);

describe('homunculus agent chat', () => {
  let dir: ReturnType<typeof tempDir>;
  let home: string;
  const stops: (() => Promise<void>)[] = [];
  beforeEach(() => {
    dir = tempDir('homunculus-agent-chat-');
    home = join(dir.path, 'home');
    mkdirSync(home, { recursive: true });
    expect(cli(home, ['agent', 'init']).status).toBe(0);
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    dir.cleanup();
  });
  const configure = (agent: unknown) => writeFileSync(join(home, 'config.json'), JSON.stringify({ agent }));

  const WRITE = { name: 'workspace_write', input: { path: 'notes/a.md', content: 'hi' } };
  const note = () => join(home, 'workspace', 'notes', 'a.md');

  it('streams the answer, shows the tool call, and runs a dangerous tool after a y on stdin (--stdin-answers)', async () => {
    // An escape in the model's text (here: conceal what follows) reaches the terminal as nothing.
    const ollama = await startOllamaStub(ollamaOneToolCall(WRITE, 'Wrote \u001b[8mit.'));
    stops.push(() => ollama.close());
    configure({ local: stubModel('ollama', ollama.baseUrl) });
    const r = await chat(home, ['--stdin-answers'], 'write the note please\ny\n/quit\n');
    expect(r.stdout).not.toContain('\u001b');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('? workspace_write {"path":"notes/a.md","content":"hi","append":false} needs your yes. Run it? [y/N] y');
    expect(r.stdout).toContain('  → workspace_write {"path":"notes/a.md","content":"hi","append":false}');
    expect(r.stdout).toMatch(/ {2}← workspace_write: /);
    expect(r.stdout).toContain('Wrote it.');
    expect(readFileSync(note(), 'utf8')).toBe('hi');
    // The whole turn's tokens: the call that asked for the tool and the one after the yes.
    expect(r.stdout).toMatch(/\(local ollama:llama-stub · 60 in \/ 18 out tokens · \$0\.0000\)/);
  });

  it('asks with the whole input, however long: a yes never approves a hidden tail', async () => {
    const content = `${'.'.repeat(400)} and-the-hidden-tail`;
    const ollama = await startOllamaStub(
      ollamaOneToolCall({ name: 'workspace_write', input: { path: 'notes/a.md', content } }, 'Wrote it.'),
    );
    stops.push(() => ollama.close());
    configure({ local: stubModel('ollama', ollama.baseUrl) });
    const r = await chat(home, ['--stdin-answers'], 'write the note please\n@home lights on\n/quit\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`? workspace_write {"path":"notes/a.md","content":"${content}","append":false} needs your yes.`);
    // A line meant as a message, read as the answer, is said to be.
    expect(r.stdout).toContain('Run it? [y/N] N (read "@home lights on" as the answer: not a yes)');
  });

  it('answers no without a terminal, whatever stdin says, unless --stdin-answers', async () => {
    const anthropic = await startMessagesStub(oneToolCall(WRITE, 'Finished.'));
    stops.push(() => anthropic.close());
    configure({ local: stubModel('anthropic', anthropic.baseUrl) });
    const r = await chat(home, [], 'write the note\ny\n/quit\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('needs your yes. Run it? [y/N] N (nobody can answer here, so no)');
    // Nobody was there: neither the person nor the model is told the person declined.
    expect(r.stdout).toContain('✗ workspace_write: not confirmed: no one was there to confirm it');
    expect(anthropic.requests.at(-1)?.raw).toContain('no one was there to confirm it');
    expect(anthropic.requests.at(-1)?.raw).not.toContain('declined by the person');
    expect(r.stdout).toContain('Finished.');
    expect(existsSync(note())).toBe(false);
  });

  it('/local and /escalate switch the model, and agent budget reports the day', async () => {
    const ollama = await startOllamaStub(() => ({ text: 'local here' }));
    const anthropic = await startMessagesStub(() => ({ text: 'remote here' }));
    stops.push(
      () => ollama.close(),
      () => anthropic.close(),
    );
    configure({ local: stubModel('ollama', ollama.baseUrl), remote: stubModel('anthropic', anthropic.baseUrl), budget: { dailyUsd: 1 } });
    const r = await chat(home, [], 'hello\n/escalate\nhello\n/auto\nRefactor this function\n/local\nRefactor this function\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.match(/remote here/g)).toHaveLength(2);
    expect(r.stdout.match(/local here/g)).toHaveLength(2);
    const budget = cli(home, ['agent', 'budget', '--json']);
    expect(budget.status, budget.stderr).toBe(0);
    const report = JSON.parse(budget.stdout) as { dailyUsd: number; spentUsd: number; models: { route: string; calls: number }[] };
    expect(report.dailyUsd).toBe(1);
    expect(report.spentUsd).toBeCloseTo((2 * (25 * 3 + 7 * 15)) / 1e6, 10);
    expect(report.models.map((m) => [m.route, m.calls]).sort()).toEqual([
      ['local', 2],
      ['remote', 2],
    ]);
    expect(cli(home, ['agent', 'budget']).stdout).toMatch(/of \$1\.00 spent, \$0\.99\d\d left/);
  });

  it('/escalate and /local hold for the session whichever agent an @name hands it to', async () => {
    const ollama = await startOllamaStub(() => ({ text: 'local here' }));
    const anthropic = await startMessagesStub(() => ({ text: 'remote here' }));
    stops.push(
      () => ollama.close(),
      () => anthropic.close(),
    );
    configure({ local: stubModel('ollama', ollama.baseUrl), remote: stubModel('anthropic', anthropic.baseUrl) });
    // The coder persona starts its sessions on the remote model: the person's /local wins.
    const r = await chat(home, ['--session', 'esc1'], '/escalate\nhi one\n@planner hi two\nhi three\n/local\n@coder hi four\n/quit\n');
    expect(r.status, r.stderr).toBe(0);
    expect([...r.stdout.matchAll(/\[(\w+)\] \((local|remote)/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      'default remote',
      'planner remote',
      'planner remote',
      'coder local',
    ]);
    expect(anthropic.requests).toHaveLength(3);
    expect(ollama.requests).toHaveLength(1);
  });

  it('handles /help itself, refuses /escalate without a remote model with the fix, and shows no usage for either', async () => {
    const ollama = await startOllamaStub(() => ({ text: 'local here' }));
    stops.push(() => ollama.close());
    configure({ local: stubModel('ollama', ollama.baseUrl) });
    const r = await chat(home, [], '/help\n/escalate\nhello\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\/help +this list\n +\/quit +end the conversation/);
    expect(r.stdout).toContain('No remote model is configured, so /escalate changed nothing');
    expect(r.stdout).toContain('"remote": {"provider"');
    expect(r.stdout).not.toContain('0 in / 0 out tokens');
    expect(r.stdout).toContain('local here');
    expect(ollama.requests).toHaveLength(1);
    expect(ollama.requests[0]?.raw).not.toContain('/help');
    expect(r.stderr).not.toContain('does not exist');
    // Without `agent init`, said before the first message rather than at the first tool call.
    rmSync(join(home, 'workspace'), { recursive: true });
    const bare = await chat(home, [], 'hello\n');
    expect(bare.stderr).toContain(
      `! The workspace ${join(home, 'workspace')} does not exist: the agent's file and shell tools will fail. Run \`homunculus agent init\`.`,
    );
  });

  it('exits 1 when a turn fails: a missing API key says its own fix, an unreachable model says so', async () => {
    configure({ local: { provider: 'anthropic', model: 'claude-x', apiKeyEnv: 'NOPE_KEY' } });
    const key = await chat(home, [], 'hello\n');
    expect(key.status).toBe(1);
    expect(key.stdout).toContain("! The agent's local model (agent.local: anthropic claude-x) needs an API key in $NOPE_KEY.");
    expect(key.stdout).toContain('fix: Export NOPE_KEY=..., or set agent.local.apiKeyEnv in config.json');
    expect(key.stdout).not.toContain('agent.remote');
    expect(key.stdout).not.toMatch(/crashed|Send the message again/);
    const gone = await startOllamaStub(() => ({ text: 'unused' }));
    await gone.close();
    configure({ local: stubModel('ollama', gone.baseUrl) });
    const down = await chat(home, [], 'hello\n');
    expect(down.status).toBe(1);
    expect(down.stdout).toMatch(/\n! /);
  });

  it('refuses an invalid agent section with the field and the fix', async () => {
    configure({ local: { provider: 'gpt', model: 'x' } });
    const r = await chat(home, [], '/quit\n');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/agent\.local\.provider/);
    expect(r.stderr).toMatch(/Example: /);
  });

  it('refuses a session id no turn would take before anything starts, as a usage error', async () => {
    const r = await chat(home, ['--session', 'bad session!'], 'hello\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--session must be 1-128 letters, digits/);
  });
});
