import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { AgentManager } from './agent-manager.js';

/**
 * A worker that speaks the manager's protocol without a model: it answers "<agent>: <message>",
 * throws on "crash", spins forever on "hang", hands off on "handoff <agent>", and holds a
 * confirmation on "pending". Real threads, so a spin really blocks one of them.
 */
const FAKE = `
const { parentPort, workerData } = require('node:worker_threads');
const me = workerData.agent;
const result = (session, text, extra = {}) => ({ session, text, toolCalls: [], model: 'fake', route: 'local', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 }, ...extra });
const slow = new Map();
parentPort.on('message', (m) => {
  if (m.type === 'abort') return slow.has(m.id) && parentPort.postMessage({ type: 'error', id: m.id, error: { code: 'cancelled', message: 'The turn was cancelled.' } });
  if (m.type === 'confirm') return parentPort.postMessage({ type: 'result', id: m.id, result: result('s', me + ' ran it: ' + m.answer) });
  const msg = m.message.split('\\n').pop();
  if (msg === 'slow') slow.set(m.id, true);
  else if (msg === 'crash') setTimeout(() => { throw new Error('boom in ' + me); });
  else if (msg === 'hang') for (;;) {}
  else if ((msg.startsWith('handoff ') && !m.message.startsWith('[Handed')) || msg === 'pingpong') {
    const to = msg === 'pingpong' ? (me === 'coder' ? 'default' : 'coder') : msg.slice(8);
    parentPort.postMessage({ type: 'result', id: m.id, result: result(m.session, me + ' hands over.'), handoff: { from: me, to, summary: 'they asked for ' + to } });
  } else if (msg === 'pending') parentPort.postMessage({ type: 'result', id: m.id, result: result(m.session, 'wait', { pending: { id: 'c-' + me, tool: 'launch', input: {}, expiresAt: '2099-01-01T00:00:00Z' } }) });
  else if (msg === 'refuse') parentPort.postMessage({ type: 'error', id: m.id, error: { code: 'usage', message: 'no way', hint: 'ask nicely' } });
  else {
    parentPort.postMessage({ type: 'text', id: m.id, delta: me + ': ' });
    parentPort.postMessage({ type: 'result', id: m.id, result: result(m.session, me + ': ' + m.message) });
  }
});`;

const personas = [
  { name: 'default', keywords: [] },
  { name: 'coder', keywords: ['bug'] },
  { name: 'home', keywords: ['lights'] },
];

describe('AgentManager over worker threads', () => {
  let dir: ReturnType<typeof tempDir>;
  let manager: AgentManager;
  const audit = () => readFileSync(`${dir.path}/audit.jsonl`, 'utf8');
  beforeEach(() => {
    dir = tempDir('manager-');
    manager = new AgentManager({
      personas,
      spawn: (agent) => new Worker(FAKE, { eval: true, workerData: { agent } }),
      turnTimeoutMs: 1500,
      auditLog: `${dir.path}/audit.jsonl`,
    });
  });
  afterEach(async () => {
    await manager.close();
    dir.cleanup();
  });

  it('routes by @mention and keywords, keeps a session on its agent, and streams text', async () => {
    let streamed = '';
    const r = await manager.turn({ session: 's1', message: 'a bug here', onText: (d) => (streamed += d) });
    expect(r).toMatchObject({ agent: 'coder', text: 'coder: a bug here' });
    expect(streamed).toBe('coder: ');
    expect((await manager.turn({ session: 's1', message: 'and the lights?' })).agent).toBe('coder');
    expect((await manager.turn({ session: 's1', message: '@home the lights' })).text).toBe('home: the lights');
    expect((await manager.turn({ session: 's2', message: 'hello' })).agent).toBe('default');
  });

  it('refuses a message to a persona that was skipped, saying why, instead of giving it to default', async () => {
    await manager.close();
    const spawned: string[] = [];
    manager = new AgentManager({
      personas,
      skipped: [{ name: 'broken', reason: 'no SOUL.md in agents/broken/' }],
      spawn: (agent) => (spawned.push(agent), new Worker(FAKE, { eval: true, workerData: { agent } })),
    });
    await expect(manager.turn({ session: 's', message: '@broken hi' })).rejects.toMatchObject({
      code: 'usage',
      message: 'The agent "broken" was skipped, so nothing was sent: no SOUL.md in agents/broken/.',
    });
    expect(spawned).toEqual([]);
    expect((await manager.turn({ session: 's', message: '@nobody hi' })).agent).toBe('default');
  });

  it('sends a confirmation to the agent that holds it, and refuses an unknown id', async () => {
    const r = await manager.turn({ session: 's', message: '@home pending' });
    expect(r.pending?.id).toBe('c-home');
    expect((await manager.confirm('c-home', 'yes')).text).toBe('home ran it: yes');
    await expect(manager.confirm('c-home', 'yes')).rejects.toThrow(/No tool call waits for confirmation "c-home"/);
  });

  it('rebuilds an error the agent reports, with its hint', async () => {
    await expect(manager.turn({ session: 's', message: 'refuse' })).rejects.toMatchObject({
      code: 'usage',
      message: 'no way',
      hint: 'ask nicely',
    });
  });

  it('passes a cancellation to the thread, which ends the turn', async () => {
    const abort = new AbortController();
    const turn = manager.turn({ session: 's', message: 'slow', signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await expect(turn).rejects.toMatchObject({ code: 'cancelled' });
    const early = new AbortController();
    early.abort();
    await expect(manager.turn({ session: 's', message: 'slow', signal: early.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('restarts an agent that throws, while the others keep answering', async () => {
    await expect(manager.turn({ session: 'a', message: '@coder crash' })).rejects.toThrow(
      /The coder agent (crashed \(boom in coder\)|stopped)/,
    );
    expect((await manager.turn({ session: 'b', message: '@home lights' })).text).toBe('home: lights');
    expect((await manager.turn({ session: 'a', message: '@coder back?' })).text).toBe('coder: back?');
    expect(manager.starts()).toMatchObject({ coder: 2, home: 1 });
  });

  it('stops a hung agent after the timeout and restarts it; another agent answers meanwhile', async () => {
    const hung = manager.turn({ session: 'h', message: '@coder hang' });
    const other = await manager.turn({ session: 'o', message: '@home lights on' });
    expect(other.text).toBe('home: lights on');
    await expect(hung).rejects.toThrow(/The coder agent did not answer within 2 s; it was stopped and restarts/);
    expect((await manager.turn({ session: 'h', message: '@coder hi' })).text).toBe('coder: hi');
    expect(manager.starts().coder).toBe(2);
  });

  it('hands a conversation over with its summary, recorded in the audit log; the session moves', async () => {
    const r = await manager.turn({ session: 's', message: 'handoff home' });
    expect(r.agent).toBe('home');
    expect(r.text).toBe('default hands over.\nhome: [Handed over by the default agent. Its summary: they asked for home]\n\nhandoff home');
    expect(audit()).toMatch(/"action":"handoff".*"subject":"default->home"/);
    expect((await manager.turn({ session: 's', message: 'hi' })).agent).toBe('home');
  });

  it('stops a loop of handoffs after the limit, with a clear note', async () => {
    // default and coder hand "pingpong" to each other forever.
    const r = await manager.turn({ session: 's', message: 'pingpong' });
    expect(r.text).toMatch(/The handoff from coder to default was stopped: 3 handoffs in one turn already \(a loop between agents\?\)/);
    expect(audit().match(/"action":"handoff"/g)).toHaveLength(3);
  });
});
