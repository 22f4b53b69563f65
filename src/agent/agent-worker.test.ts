import { describe, expect, it } from 'vitest';
import { HomunculusError, UsageError } from '../core/errors.js';
import { ConfirmationWaiting } from './runner.js';
import { type FromWorker, type Port, type ToWorker, fromWire, lazyAgent, preferModel, serveAgent, toWire } from './agent-worker.js';
import { SessionModes } from './router.js';
import type { AgentRunner, TurnResult } from './runner.js';

const result = (text: string, extra: Partial<TurnResult> = {}): TurnResult => ({
  session: 's',
  text,
  toolCalls: [],
  model: 'm',
  route: 'local',
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  ...extra,
});

/** A port whose messages are delivered by hand and whose replies are collected. */
function fakePort() {
  let listener: (m: ToWorker) => void = () => {};
  const out: FromWorker[] = [];
  const port: Port = { on: (_e, l) => (listener = l), postMessage: (m) => out.push(m) };
  return { port, out, send: (m: ToWorker) => listener(m), settled: () => new Promise((r) => setTimeout(r, 10)) };
}

describe('serveAgent', () => {
  it('streams text, returns the result with the handoff the turn asked for, and sends errors as data', async () => {
    const { port, out, send, settled } = fakePort();
    const runner: AgentRunner = {
      turn: async (r) => {
        r.onText?.('hi ');
        if (r.message === 'bad') throw new UsageError('No.', 'Say please.');
        return result(`re: ${r.message}`, r.message === 'hold' ? { pending: { id: 'p', tool: 't', input: {}, expiresAt: 'x' } } : {});
      },
      confirm: async (id, answer) => result(`${id} ${answer}`),
    };
    serveAgent(port, runner, () => ({ from: 'a', to: 'b', summary: 'sum' }));
    send({ type: 'turn', id: 1, session: 's', message: 'go' });
    send({ type: 'turn', id: 2, session: 's', message: 'bad' });
    send({ type: 'turn', id: 3, session: 's', message: 'hold' });
    send({ type: 'confirm', id: 4, confirmId: 'p', answer: 'no' });
    await settled();
    expect(out).toContainEqual({ type: 'text', id: 1, delta: 'hi ' });
    expect(out).toContainEqual({ type: 'result', id: 1, result: result('re: go'), handoff: { from: 'a', to: 'b', summary: 'sum' } });
    expect(out).toContainEqual({ type: 'error', id: 2, error: { code: 'usage', message: 'No.', hint: 'Say please.' } });
    // A turn that waits for a yes hands nothing over.
    expect(out.find((m) => m.id === 3 && m.type === 'result')).not.toHaveProperty('handoff');
    expect(out.find((m) => m.id === 4 && m.type === 'result')).toMatchObject({ result: { text: 'p no' } });
  });

  it('rebuilds errors on the other side, the usage kind included', () => {
    expect(fromWire(toWire(new UsageError('No.', 'fix')))).toBeInstanceOf(UsageError);
    expect(fromWire(toWire(new Error('plain')))).toMatchObject({ code: 'agent_error', message: 'plain' });
    // A turn refused while a call waits stays that kind of error, so Telegram can say "press Yes or No above".
    const waiting = fromWire(toWire(new ConfirmationWaiting({ id: 'c1', tool: 'shell_exec' })));
    expect(waiting).toBeInstanceOf(ConfirmationWaiting);
    expect(waiting).toMatchObject({ pending: { id: 'c1', tool: 'shell_exec' } });
  });
});

describe('lazyAgent', () => {
  it('answers each turn with the configuration error and its fix until the agent can be built', async () => {
    const { port, out, send, settled } = fakePort();
    const env: { key?: string } = {};
    const runner: AgentRunner = { turn: async (r) => result(`re: ${r.message}`), confirm: async () => result('') };
    const agent = lazyAgent(() => {
      if (!env.key) throw new HomunculusError('llm_key', 'The model needs an API key in $NOPE_KEY.', { hint: 'Export NOPE_KEY=...' });
      return { runner, takeHandoff: () => undefined };
    });
    serveAgent(port, agent.runner, agent.takeHandoff);
    send({ type: 'turn', id: 1, session: 's', message: 'hi' });
    await settled();
    expect(out).toEqual([
      {
        type: 'error',
        id: 1,
        error: { code: 'llm_key', message: 'The model needs an API key in $NOPE_KEY.', hint: 'Export NOPE_KEY=...' },
      },
    ]);
    env.key = 'set';
    send({ type: 'turn', id: 2, session: 's', message: 'again' });
    await settled();
    expect(out.at(-1)).toMatchObject({ type: 'result', id: 2, result: { text: 're: again' } });
  });
});

describe('preferModel', () => {
  it("sets a persona's model as a new session's mode, once, so /auto still changes it", () => {
    const modes = new SessionModes();
    const prefer = preferModel(modes, 'local');
    prefer('s');
    expect(modes.get('s')).toBe('local');
    modes.set('s', 'auto');
    prefer('s');
    expect(modes.get('s')).toBe('auto');
    preferModel(modes, 'remote')('t');
    expect(modes.get('t')).toBe('escalate');
    preferModel(modes, 'auto')('u');
    expect(modes.get('u')).toBe('auto');
  });
});
