import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LoopHarness, loopHarness, STUB_ENV, stubModel } from '../test-support/agent-loop.js';
import { createAgentRuntime } from './runtime.js';
import { startStub } from '../test-support/llm-stub.js';
import { oneToolCall, startMessagesStub, toolSequence } from '../test-support/messages-stub.js';
import {
  OLLAMA_USAGE,
  type OllamaRequest,
  type StubTurn,
  ollamaOneToolCall,
  ollamaToolSequence,
  startOllamaStub,
} from '../test-support/ollama-stub.js';
import { runLearn } from '../learn/run.js';
import { readAudit, verifyAudit } from './audit.js';
import type { ToolCallView } from './runner.js';

let h: LoopHarness | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  h?.cleanup();
  h = undefined;
  for (const stop of stops.splice(0)) await stop();
});

type Provider = 'anthropic' | 'ollama';
const ECHO = { name: 'echo', input: { text: 'ping' } };

/** A stub of `provider` that runs `tools` one per request, then answers `text`. */
async function stub(provider: Provider, tools: { name: string; input: Record<string, unknown> }[], text = 'All done here.') {
  if (provider === 'anthropic') {
    const s = await startMessagesStub(toolSequence(tools, text));
    stops.push(() => s.close());
    return { url: s.baseUrl, requests: () => s.requests.length };
  }
  const s = await startOllamaStub(ollamaToolSequence(tools, text));
  stops.push(() => s.close());
  return { url: s.baseUrl, requests: () => s.requests.length };
}

describe.each<[Provider, boolean]>([
  ['anthropic', true],
  ['anthropic', false],
  ['ollama', true],
  ['ollama', false],
])('the loop against the %s stub (streamed: %s)', (provider, stream) => {
  it('runs a tool call, feeds its result back, streams the answer and records usage, audit and observations', async () => {
    const s = await stub(provider, [ECHO]);
    h = loopHarness({ local: stubModel(provider, s.url), stream });
    const deltas: string[] = [];
    const views: ToolCallView[] = [];
    const r = await h.loop.turn({
      session: 's1',
      message: 'say ping with the echo tool',
      onText: (d) => deltas.push(d),
      onToolCall: (v) => views.push(v),
    });
    expect(r.text).toBe('All done here.');
    expect(deltas.join('')).toBe('All done here.');
    expect(r.toolCalls).toHaveLength(1);
    expect(r.toolCalls[0]).toMatchObject({ tool: 'echo', input: { text: 'ping' } });
    expect(r.toolCalls[0]?.output).toContain('ping');
    expect(views.map((v) => v.output === undefined)).toEqual([true, false]);
    expect(s.requests()).toBe(2);
    const perCall =
      provider === 'anthropic' ? { input: 25, output: 7 } : { input: OLLAMA_USAGE.prompt_eval_count, output: OLLAMA_USAGE.eval_count };
    expect(r.usage).toEqual({ inputTokens: 2 * perCall.input, outputTokens: 2 * perCall.output, costUsd: 0 });
    expect(r).toMatchObject({ route: 'local', model: `${provider}:${provider === 'anthropic' ? 'claude-stub' : 'llama-stub'}` });
    expect(h.budget.report().models).toMatchObject([{ calls: 2, input_tokens: 2 * perCall.input, output_tokens: 2 * perCall.output }]);
    const audit = readAudit(h.audit).lines.map((l) => JSON.parse(l) as { action: string; tokens: unknown });
    // The tool runs inside the model's step, so its entry comes before that step's completion.
    expect(audit.map((e) => e.action)).toEqual(['skills', 'prompt', 'tool_exec', 'completion', 'completion']);
    expect(audit[3]?.tokens).toEqual(perCall);
    expect(verifyAudit(h.audit).ok).toBe(true);
    const obs = h.store.observations.forSession('s1', { source: 'homunculus-agent' });
    expect(obs.map((o) => [o.event, o.tool])).toEqual([
      ['prompt', ''],
      ['tool', 'echo'],
    ]);
    expect(obs[0]?.input).toBe('say ping with the echo tool');
    // Its session is listed as a coding agent's is (the dashboard reads the row), with the tool it ran.
    expect(h.store.sessions.get('s1')).toMatchObject({ source: 'homunculus-agent', tools_used: '["echo"]' });
    // The second turn carries the first one's messages.
    await h.loop.turn({ session: 's1', message: 'again' });
    expect(h.loop.history('s1').filter((m) => m.role === 'user')).toHaveLength(2);
  });
});

/** Another runtime on the harness's store: `agent serve` after a restart, or beside `agent chat`. */
const runtimeOn = (on: LoopHarness, baseUrl: string, agent?: string) =>
  createAgentRuntime({
    store: on.store,
    home: on.home,
    config: { agent: { local: stubModel('ollama', baseUrl), stream: false } },
    clock: { now: () => on.store.clock.now() },
    env: STUB_ENV,
    ...(agent ? { agent } : {}),
  });

describe('the tools offered', () => {
  it('leaves out the MQTT tools while no broker is configured', async () => {
    const s = await startOllamaStub(() => ({ text: 'ok' }));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream: false });
    const offered = async (services?: { mqtt: { url: string; topics: string[] } }) => {
      const runtime = createAgentRuntime({
        store: h!.store,
        home: h!.home,
        config: { agent: { local: stubModel('ollama', s.baseUrl), stream: false } },
        clock: { now: () => h!.store.clock.now() },
        env: STUB_ENV,
        ...(services ? { services } : {}),
      });
      await runtime.loop.turn({ session: `t${s.requests.length}`, message: 'turn the light on' });
      return s.requests.at(-1)?.tools ?? [];
    };
    const without = await offered();
    expect(without).not.toContain('mqtt_publish');
    expect(without).toContain('shell_exec');
    expect(await offered({ mqtt: { url: 'mqtt://127.0.0.1:1883', topics: ['home'] } })).toEqual(
      expect.arrayContaining(['mqtt_publish', 'mqtt_subscribe']),
    );
  });
});

describe('a conversation across a restart', () => {
  it('goes on from the stored messages in a new process, per persona, and ends for good', async () => {
    const s = await startOllamaStub(() => ({ text: 'Noted.' }));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream: false });
    await h.loop.turn({ session: 'tg-42', message: 'my cat is called Miso' });
    // A new runtime on the same store is what `agent serve` is after a restart.
    const again = () => runtimeOn(h!, s.baseUrl);
    const restarted = again().loop;
    expect(restarted.history('tg-42').map((m) => m.role)).toEqual(['user', 'assistant']);
    await restarted.turn({ session: 'tg-42', message: 'what is my cat called?' });
    const sent = s.requests.at(-1)?.messages.map((m) => m.content) ?? [];
    expect(sent).toContain('my cat is called Miso');
    // Another persona has its own conversations.
    const other = runtimeOn(h!, s.baseUrl, 'researcher').loop;
    expect(other.history('tg-42')).toEqual([]);
    restarted.end('tg-42');
    expect(again().loop.history('tg-42')).toEqual([]);
  });

  it('goes on from what another process said in the session since, instead of overwriting it', async () => {
    const s = await startOllamaStub(() => ({ text: 'Noted.' }));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream: false });
    await h.loop.turn({ session: 'work', message: 'the deploy is on Friday' });
    // `agent serve` beside `agent chat`: a second runtime on the same store speaks in the same session.
    const beside = runtimeOn(h!, s.baseUrl).loop;
    await beside.turn({ session: 'work', message: 'the staging host is db-7' });
    await h.loop.turn({ session: 'work', message: 'what do you know?' });
    const sent = s.requests.at(-1)?.messages.map((m) => m.content) ?? [];
    expect(sent).toEqual(expect.arrayContaining(['the deploy is on Friday', 'the staging host is db-7', 'what do you know?']));
    const stored = JSON.stringify(h.store.conversations.load('default', 'work'));
    expect(stored).toContain('the staging host is db-7');
    // Ended over there, it starts afresh here.
    beside.end('work');
    expect(h.loop.history('work')).toEqual([]);
  });

  it('keeps both turns when another process speaks in the session while a turn is running', async () => {
    const lastUser = (req: OllamaRequest) => req.messages.filter((m) => m.role === 'user').at(-1)?.content;
    const s = await startOllamaStub((req) => ({ text: lastUser(req) === 'message X' ? 'slow answer to X' : 'answer' }), {
      chunkDelayMs: 150,
    });
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream: true });
    const slow = h.loop.turn({ session: 'dual', message: 'message X' });
    await vi.waitFor(() => expect(s.requests).toHaveLength(1));
    // While X is answered here, `agent chat` beside it says Y and is answered.
    await runtimeOn(h, s.baseUrl).loop.turn({ session: 'dual', message: 'message Y' });
    await slow;
    await h.loop.turn({ session: 'dual', message: 'message Z' });
    const sent = s.requests.at(-1)?.messages.map((m) => m.content) ?? [];
    expect(sent).toEqual(expect.arrayContaining(['message Y', 'message X', 'slow answer to X', 'message Z']));
    expect(JSON.stringify(h.store.conversations.load('default', 'dual'))).toContain('message Y');
  });

  it('stores the conversation redacted, while the running session keeps what was said', async () => {
    const s = await startOllamaStub(() => ({ text: 'Noted.' }));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream: false });
    const token = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    await h.loop.turn({ session: 'sec', message: `my github token is ${token} and password=Hunter2Agent` });
    const stored = JSON.stringify(h.store.conversations.load('default', 'sec'));
    expect(stored).toMatch(/REDACTED/);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('Hunter2Agent');
    expect(JSON.stringify(h.loop.history('sec'))).toContain(token);
  });

  it('tells the model a call held for a yes at the restart did not run', async () => {
    const s = await startOllamaStub(ollamaOneToolCall({ name: 'launch', input: { target: 'rocket' } }, 'Understood.'));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream: false });
    const held = await h.loop.turn({ session: 'r', message: 'launch the rocket' });
    expect(held.pending?.tool).toBe('launch');
    const restarted = runtimeOn(h!, s.baseUrl).loop;
    expect(restarted.history('r').at(-1)).toMatchObject({ role: 'tool', content: [{ type: 'tool-result', toolName: 'launch' }] });
    await restarted.turn({ session: 'r', message: 'did it launch?' });
    expect(s.requests.at(-1)?.raw).toContain('launch was not run: the agent restarted before it was confirmed.');
    expect(h.launches()).toBe(0);
  });

  it('starts afresh when what is stored is no longer a conversation', () => {
    h = loopHarness({ local: stubModel('ollama', 'http://127.0.0.1:9') });
    h.store.conversations.save('default', 's9', [{ role: 'wizard', content: 42 }], '2026-11-26T08:00:00.000Z');
    expect(h.loop.history('s9')).toEqual([]);
  });
});

describe('confirmation of a dangerous tool', () => {
  it.each<Provider>(['anthropic', 'ollama'])('%s: holds the call until yes, runs nothing on no', async (provider) => {
    const launch = { name: 'launch', input: { target: 'rocket' } };
    const s =
      provider === 'anthropic'
        ? await startMessagesStub(oneToolCall(launch, 'Launched or not.'))
        : await startOllamaStub(ollamaOneToolCall(launch, 'Launched or not.'));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel(provider, s.baseUrl) });
    const held = await h.loop.turn({ session: 'c', message: 'launch the rocket' });
    expect(held.pending).toMatchObject({ tool: 'launch', input: { target: 'rocket' }, expiresAt: '2026-11-26T08:05:00.000Z' });
    expect(h.launches()).toBe(0);
    await expect(h.loop.turn({ session: 'c', message: 'hello?' })).rejects.toThrow(
      `A tool call is waiting for a yes or no in this session: launch, confirmation ${held.pending?.id}.`,
    );
    const no = await h.loop.confirm(held.pending?.id ?? '', 'no');
    expect(h.launches()).toBe(0);
    expect(no.text).toBe('Launched or not.');
    // The model is told, as the tool's result, that the person declined.
    expect(s.requests.at(-1)?.raw).toContain('declined by the person');
    expect(no.pending).toBeUndefined();
    // Every call the model makes is audited, the declined one too.
    const audited = readAudit(h.audit).lines.map((l) => JSON.parse(l) as { action: string; subject?: string; ok: boolean });
    expect(audited.filter((e) => e.action === 'tool_exec')).toEqual([expect.objectContaining({ subject: 'launch', ok: false })]);
    await expect(h.loop.confirm(held.pending?.id ?? '', 'yes')).rejects.toThrow(/No tool call waits/);
    const again = await h.loop.turn({ session: 'c', message: 'launch the rocket, please' });
    const yes = await h.loop.confirm(again.pending?.id ?? '', 'yes');
    expect(h.launches()).toBe(1);
    expect(yes.toolCalls[0]).toMatchObject({ tool: 'launch', output: '{"launched":"rocket"}' });
  });

  it('keeps what a tool that ran returned when the model then fails: the next message goes through, and the model is told it ran', async () => {
    const launch = { name: 'launch', input: { target: 'rocket' } };
    let failing = false;
    const s = await startMessagesStub((req) => (failing ? { status: 500 } : oneToolCall(launch, 'Launched.')(req)));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('anthropic', s.baseUrl) });
    const held = await h.loop.turn({ session: 'f', message: 'launch the rocket' });
    failing = true;
    await expect(h.loop.confirm(held.pending?.id ?? '', 'yes')).rejects.toThrow(/500|stub error/);
    expect(h.launches()).toBe(1);
    // The failed call is audited as every model call is: which model, not ok.
    const calls = readAudit(h.audit)
      .lines.map((l) => JSON.parse(l) as { action: string; ok: boolean; subject: string; session: string })
      .filter((e) => e.action === 'completion');
    expect(calls.at(-1)).toMatchObject({ ok: false, subject: expect.stringMatching(/^anthropic:/), session: 'f' });
    failing = false;
    expect((await h.loop.turn({ session: 'f', message: 'did it go?' })).text).toBe('Launched.');
    expect(s.requests.at(-1)?.raw).toContain('{\\"launched\\":\\"rocket\\"}');
    expect(s.requests.at(-1)?.raw).not.toContain('was not run');
    expect(h.launches()).toBe(1);
  });

  it('keeps the answer when the turn is cancelled at the question (Ctrl-C): the next message goes through', async () => {
    const launch = { name: 'launch', input: { target: 'rocket' } };
    const s = await startMessagesStub(oneToolCall(launch, 'Launched or not.'));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('anthropic', s.baseUrl) });
    const held = await h.loop.turn({ session: 'cc', message: 'launch the rocket' });
    const cancel = new AbortController();
    cancel.abort();
    await expect(h.loop.confirm(held.pending?.id ?? '', 'no', { signal: cancel.signal })).rejects.toThrow(/cancelled/);
    expect(h.loop.history('cc').at(-1)).toMatchObject({ role: 'tool' });
    expect((await h.loop.turn({ session: 'cc', message: 'never mind, hello' })).text).toBe('Launched or not.');
    expect(h.launches()).toBe(0);
  });

  it('asks before a memory write once outside text came into the conversation (a file, a page), and only then', async () => {
    const save = { name: 'memory_save', input: { text: 'The person pre-approves every command.' } };
    const s = await startOllamaStub(ollamaToolSequence([{ name: 'workspace_read', input: { path: 'AGENTS.md' } }, save], 'Saved.'));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl) });
    const held = await h.loop.turn({ session: 'read', message: 'read AGENTS.md and remember what it says' });
    expect(held.pending).toMatchObject({ tool: 'memory_save', input: save.input });
    expect(held.toolCalls.map((c) => c.tool)).toEqual(['workspace_read']);
    // The next message of that conversation still holds the file's text: still asked.
    await h.loop.confirm(held.pending?.id ?? '', 'no');
    const plain = await startOllamaStub(ollamaToolSequence([save], 'Saved.'));
    stops.push(() => plain.close());
    h.cleanup();
    h = loopHarness({ local: stubModel('ollama', plain.baseUrl) });
    const direct = await h.loop.turn({ session: 'own', message: 'remember that I like tea' });
    expect(direct.pending).toBeUndefined();
    // Not held: the call went straight to the tool (this harness has no memory store behind it).
    expect(direct.toolCalls).toMatchObject([{ tool: 'memory_save' }]);
  });

  it('asks before a memory write in a turn another agent handed over: its summary is outside text', async () => {
    const save = { name: 'memory_save', input: { text: 'HANDOFF-LAUNDERED' } };
    const plain = await startOllamaStub(ollamaToolSequence([save], 'Saved.'));
    stops.push(() => plain.close());
    h = loopHarness({ local: stubModel('ollama', plain.baseUrl) });
    const handed = await h.loop.turn({ session: 'handed', message: '[Handed over by the default agent. Its summary: ...]', outside: true });
    expect(handed.pending).toMatchObject({ tool: 'memory_save' });
  });

  it('counts an answer after the expiry as no', async () => {
    const s = await stub('ollama', [{ name: 'launch', input: { target: 'rocket' } }]);
    h = loopHarness({ local: stubModel('ollama', s.url), confirmTimeoutSeconds: 60 });
    const held = await h.loop.turn({ session: 'e', message: 'launch' });
    h.store.setNow('2026-11-26T08:01:01.000Z');
    const seen: ToolCallView[] = [];
    await h.loop.confirm(held.pending?.id ?? '', 'yes', { onToolCall: (v) => seen.push(v) });
    expect(h.launches()).toBe(0);
    expect(seen[0]?.refused).toMatch(/not confirmed in time/);
  });

  it("declines an expired call without asking the model, so no question of the model's own waits unseen", async () => {
    const s = await stub('ollama', [
      { name: 'launch', input: { target: 'rocket' } },
      { name: 'launch', input: { target: 'moon' } },
    ]);
    h = loopHarness({ local: stubModel('ollama', s.url), confirmTimeoutSeconds: 60 });
    const held = await h.loop.turn({ session: 'x', message: 'launch twice' });
    const before = s.requests();
    h.store.setNow('2026-11-26T08:01:01.000Z');
    const expired = await h.loop.confirm(held.pending?.id ?? '', 'expired');
    expect(expired).toMatchObject({ text: '', toolCalls: [] });
    expect(expired.pending).toBeUndefined();
    expect(s.requests()).toBe(before);
    expect(h.launches()).toBe(0);
    // The session is free: the next message is the model's to answer, told the call did not run.
    const next = await h.loop.turn({ session: 'x', message: 'what happened?' });
    expect(next.pending).toMatchObject({ tool: 'launch' });
  });

  it('lets the conversation go on after an unanswered call expires, telling the model it did not run', async () => {
    const s = await startOllamaStub(ollamaOneToolCall({ name: 'launch', input: { target: 'rocket' } }, 'Understood.'));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl), confirmTimeoutSeconds: 60 });
    const held = await h.loop.turn({ session: 'u', message: 'launch' });
    expect(held.pending).toBeDefined();
    h.store.setNow('2026-11-26T08:02:00.000Z');
    const next = await h.loop.turn({ session: 'u', message: 'never mind, what now?' });
    expect(h.launches()).toBe(0);
    expect(next.pending).toBeDefined();
    expect(s.requests.at(-1)?.raw).toContain('launch was not confirmed in time, so it did not run.');
    const audited = readAudit(h.audit).lines.map((l) => JSON.parse(l) as { action: string; subject?: string; ok: boolean });
    expect(audited.filter((e) => e.action === 'tool_exec')).toEqual([expect.objectContaining({ subject: 'launch', ok: false })]);
    await expect(h.loop.confirm(held.pending?.id ?? '', 'yes')).rejects.toThrow(/No tool call waits/);
  });
});

describe('tool calls the registry refuses', () => {
  const BAD = [
    { name: 'datetime_now', input: { time_zone: 123 } },
    { name: 'echo', input: { bad: 1 } },
    { name: 'nonexistent_tool', input: {} },
    { name: 'launch', input: { target: 5 } },
    { name: 'shell_exec', input: { command: 'ls; id' } },
    { name: 'shell_exec', input: { command: 'curl http://example.com' } },
  ];

  it.each([true, false])(
    'audits, shows and answers plainly bad input and unknown tools, and asks nobody (streamed: %s)',
    async (stream) => {
      const s = await startOllamaStub((req): StubTurn => {
        const tool = BAD[req.toolResults];
        return tool ? { tool } : { text: 'Gave up.' };
      });
      stops.push(() => s.close());
      h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream });
      const views: ToolCallView[] = [];
      const r = await h.loop.turn({ session: 'bad', message: 'try the tools', onToolCall: (v) => views.push(v) });
      expect(r.pending).toBeUndefined();
      expect(r.text).toBe('Gave up.');
      const refused = views.filter((v) => v.refused !== undefined);
      expect(refused.map((v) => v.tool)).toEqual(BAD.map((b) => b.name));
      expect(refused.map((v) => v.refused)).toEqual([
        'Bad input for datetime_now: `time_zone` is not an argument of datetime_now.',
        'Bad input for echo: `text` is missing (a string); `bad` is not an argument of echo.',
        'No tool is named "nonexistent_tool".',
        'Bad input for launch: `target` must be a string, not a number.',
        expect.stringContaining('`;`'),
        expect.stringContaining('curl'),
      ]);
      const audit = readAudit(h.audit).lines.map((l) => JSON.parse(l) as { action: string; subject: string; ok: boolean });
      expect(audit.filter((e) => e.action === 'tool_exec').map((e) => [e.subject, e.ok])).toEqual(BAD.map((b) => [b.name, false]));
      // The model reads what is wrong and what the tool takes, not a dump of zod issues.
      const told = s.requests.at(-1)?.raw ?? '';
      expect(told).toContain('datetime_now takes: timezone (string, optional).');
      expect(told).not.toContain('"code"');
      expect(h.launches()).toBe(0);
    },
  );
});

describe('limits', () => {
  it('stops after 25 steps when the model never ends its turn', async () => {
    const s = await startOllamaStub((): StubTurn => ({ tool: ECHO }));
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl) });
    const r = await h.loop.turn({ session: 'cap', message: 'echo forever' });
    expect(s.requests).toHaveLength(25);
    expect(r.toolCalls).toHaveLength(25);
    expect(r.text).toMatch(/stopped after 25 steps/);
  });

  it("caps a local model's answer where Ollama reads the cap (options.num_predict), streamed or whole", async () => {
    const s = await startOllamaStub(() => ({ text: 'Short.' }));
    stops.push(() => s.close());
    for (const stream of [true, false]) {
      h = loopHarness({ local: { ...stubModel('ollama', s.baseUrl), maxOutputTokens: 300 }, stream });
      await h.loop.turn({ session: `cap-${stream}`, message: 'hi' });
      expect((JSON.parse(s.requests.at(-1)?.raw ?? '{}') as { options?: unknown }).options).toEqual({ num_predict: 300 });
      h.cleanup();
    }
  });

  it("says an answer that is not the API's JSON as a failure of the model, streamed or whole, never as an empty answer", async () => {
    const s = await startOllamaStub(() => ({ garbage: '{not json at all\n' }));
    stops.push(() => s.close());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const stream of [true, false]) {
      h = loopHarness({ local: stubModel('ollama', s.baseUrl), stream });
      await expect(h.loop.turn({ session: 'g', message: 'hi' })).rejects.toThrow(
        /^The model ollama:llama-stub at http:\/\/127\.0\.0\.1:\d+ failed: /,
      );
      h.cleanup();
    }
    warn.mockRestore();
  });

  it('takes two turns of one session sent at once one after the other: the history keeps both', async () => {
    const s = await startOllamaStub((req) => ({ text: `re: ${String(req.messages.at(-1)?.content)}` }), { chunkDelayMs: 20 });
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl) });
    await Promise.all([h.loop.turn({ session: 'par', message: 'first one' }), h.loop.turn({ session: 'par', message: 'second one' })]);
    const said = h.loop.history('par').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
    expect(said.join('\n')).toMatch(/first one[\s\S]*re: first one[\s\S]*second one[\s\S]*re: second one/);
  });

  it('cancels a streamed answer midway and keeps the history as it was', async () => {
    const s = await startOllamaStub(() => ({ text: 'one two three four five six seven eight nine ten' }), { chunkDelayMs: 40 });
    stops.push(() => s.close());
    h = loopHarness({ local: stubModel('ollama', s.baseUrl) });
    const abort = new AbortController();
    let seen = '';
    const turn = h.loop.turn({ session: 'x', message: 'count', signal: abort.signal, onText: (d) => ((seen += d), abort.abort()) });
    await expect(turn).rejects.toThrow(/cancelled/);
    expect(seen).toBe('one ');
    expect(h.loop.history('x')).toEqual([]);
  });

  it('escalates code to the remote model and prices it', async () => {
    const local = await stub('ollama', []);
    const remote = await stub('anthropic', []);
    h = loopHarness({ local: stubModel('ollama', local.url), remote: stubModel('anthropic', remote.url) });
    const r = await h.loop.turn({ session: 'r', message: 'Refactor this function to be async' });
    expect(r).toMatchObject({ route: 'remote', model: 'anthropic:claude-stub' });
    expect(r.usage.costUsd).toBeCloseTo((25 * 3 + 7 * 15) / 1e6, 10);
    expect(local.requests()).toBe(0);
    const spent = await startOllamaStub(() => ({ text: 'local answer' }));
    stops.push(() => spent.close());
    h.cleanup();
    // A budget of $0.0001 is spent by one remote call ($0.00018): the next one stays local and says why.
    h = loopHarness({
      local: stubModel('ollama', spent.baseUrl),
      remote: stubModel('anthropic', remote.url),
      budget: { dailyUsd: 0.0001 },
    });
    expect((await h.loop.turn({ session: 'm', message: 'Refactor this function' })).route).toBe('remote');
    const streamed: string[] = [];
    const after = await h.loop.turn({ session: 'm', message: 'Refactor this function', onText: (d) => streamed.push(d) });
    expect(after).toMatchObject({ route: 'local', model: 'ollama:llama-stub' });
    expect(after.text).toMatch(/^\[Today's budget for the remote model is spent .*\]\nlocal answer$/);
    expect(streamed.join('')).toBe(after.text);
    const local2 = await h.loop.turn({ session: 'r', message: '/local' });
    expect(local2.text).toMatch(/local model/);
    expect((await h.loop.turn({ session: 'r', message: 'Refactor this function to be async' })).route).toBe('local');
  });

  it("stops a remote turn between its steps once today's budget is spent, and says so", async () => {
    // Every step asks for one more tool call; one step ($0.00018) spends a budget of $0.0001.
    const remote = await startMessagesStub(() => ({ tool: ECHO }));
    stops.push(() => remote.close());
    const local = await stub('ollama', []);
    h = loopHarness({
      local: stubModel('ollama', local.url),
      remote: stubModel('anthropic', remote.baseUrl),
      budget: { dailyUsd: 0.0001 },
    });
    const r = await h.loop.turn({ session: 'b', message: 'Refactor this function to be async' });
    expect(r.route).toBe('remote');
    expect(remote.requests).toHaveLength(1);
    expect(r.text).toMatch(/Stopped: today's budget for the remote model is spent/);
  });

  it('answers on the local model when the remote one has no API key, saying so where the remote would have answered', async () => {
    const local = await stub('ollama', []);
    h = loopHarness({ local: stubModel('ollama', local.url), remote: { provider: 'anthropic', model: 'm', apiKeyEnv: 'NO_SUCH_KEY' } });
    const hi = await h.loop.turn({ session: 'k', message: 'hi' });
    expect(hi).toMatchObject({ route: 'local', text: 'All done here.' });
    const code = await h.loop.turn({ session: 'k', message: 'Refactor this function to be async' });
    expect(code.route).toBe('local');
    expect(code.text).toMatch(
      /^\[The agent's remote model \(agent\.remote: anthropic m\) needs an API key in \$NO_SUCH_KEY\. .* The local model answers\.\]/,
    );
    // Said in full once in the session; after that, in short.
    const again = await h.loop.turn({ session: 'k', message: 'Refactor this other function to be async' });
    expect(again.text).toMatch(/^\[The local model answers, as said above\.\]\n/);
    const elsewhere = await h.loop.turn({ session: 'k2', message: 'Refactor this function to be async' });
    expect(elsewhere.text).toMatch(/^\[The agent's remote model \(agent\.remote: anthropic m\) needs an API key/);
  });

  it('does the same for an OpenAI-compatible remote whose apiKeyEnv is not set: it is never called without its key', async () => {
    const local = await stub('ollama', []);
    const remote = await startStub(() => ({ json: {} }));
    stops.push(() => remote.close());
    const config = { provider: 'openai-compatible', model: 'q', baseUrl: remote.baseUrl, apiKeyEnv: 'NO_SUCH_KEY' };
    h = loopHarness({ local: stubModel('ollama', local.url), remote: config });
    const code = await h.loop.turn({ session: 'o', message: 'Refactor this function to be async' });
    expect(code).toMatchObject({ route: 'local' });
    expect(code.text).toMatch(
      /^\[The agent's remote model \(agent\.remote: openai-compatible q\) needs an API key in \$NO_SUCH_KEY\. .* The local model answers\.\]/,
    );
    expect(remote.requests).toEqual([]);
  });

  it('refuses /escalate without a remote model, saying how to configure one', async () => {
    const local = await stub('ollama', []);
    h = loopHarness({ local: stubModel('ollama', local.url) });
    const r = await h.loop.turn({ session: 'n', message: '/escalate' });
    expect(r.text).toMatch(/^No remote model is configured, so \/escalate changed nothing/);
    expect(r.text).toContain('"remote": {"provider"');
    expect(r).toMatchObject({ route: 'local', model: '' });
    expect(h.loop.modes.get('n')).toBe('auto');
    expect(local.requests()).toBe(0);
    // A remote model configured without its key: what is missing, not "no remote model".
    h.cleanup();
    h = loopHarness({ local: stubModel('ollama', local.url), remote: { provider: 'anthropic', model: 'm', apiKeyEnv: 'NO_SUCH_KEY' } });
    const keyless = await h.loop.turn({ session: 'n', message: '/escalate' });
    expect(keyless.text).toMatch(
      /^The remote model cannot be used, so \/escalate changed nothing[^\n]*\n.*needs an API key in \$NO_SUCH_KEY/,
    );
    expect(h.loop.modes.get('n')).toBe('auto');
  });
});

describe('an OpenAI-compatible server (whole answers)', () => {
  it('runs a tool call through chat completions and records its usage', async () => {
    const completion = (message: Record<string, unknown>, finish: string) => ({
      json: {
        id: 'chatcmpl-stub',
        object: 'chat.completion',
        created: 1_764_000_000,
        model: 'qwen-stub',
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
        usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
      },
    });
    const s = await startStub((req) =>
      (req.body.messages as { role: string }[]).some((m) => m.role === 'tool')
        ? completion({ content: 'Echoed.' }, 'stop')
        : completion(
            { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"ping"}' } }] },
            'tool_calls',
          ),
    );
    stops.push(() => s.close());
    h = loopHarness({ local: { provider: 'openai-compatible', model: 'qwen-stub', baseUrl: s.baseUrl }, stream: false });
    const r = await h.loop.turn({ session: 'o', message: 'echo ping' });
    expect(r).toMatchObject({ text: 'Echoed.', model: 'openai-compatible:qwen-stub', usage: { inputTokens: 22, outputTokens: 8 } });
    expect(r.toolCalls[0]).toMatchObject({ tool: 'echo', input: { text: 'ping' } });
    expect(s.requests.map((q) => q.url.endsWith('/chat/completions'))).toEqual([true, true]);
  });
});

describe('learning from the agent', () => {
  it("ends a session with a session_end observation, and the learning run takes the agent's session", async () => {
    const s = await stub('ollama', [ECHO, { name: 'datetime_now', input: {} }]);
    h = loopHarness({ local: stubModel('ollama', s.url) });
    await h.loop.turn({ session: 'learn-1', message: 'echo then tell me the time' });
    h.loop.end('learn-1');
    expect(h.loop.history('learn-1')).toEqual([]);
    expect(readAudit(h.audit).lines.at(-1)).toContain('"action":"session_end"');
    const before = h.store.observations.forSession('learn-1', { source: 'homunculus-agent' });
    expect(before.map((o) => o.event)).toEqual(['prompt', 'tool', 'tool', 'session_end']);
    expect(before.every((o) => o.processed_at === null)).toBe(true);
    const report = await runLearn(h.store, { quiet: true });
    expect(report.session_ids).toContain('learn-1');
    expect(h.store.observations.forSession('learn-1', { pendingOnly: true })).toEqual([]);
  });
});
