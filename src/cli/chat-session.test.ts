import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AgentRunner, ToolCallView } from '../agent/runner.js';
import { chatSession, lineQueue } from './chat-session.js';

const tick = () => new Promise((done) => setTimeout(done, 20));
const queueOf = (interactive: boolean) => {
  const input = new PassThrough();
  const queue = lineQueue({ input, output: new PassThrough(), interactive, stdinAnswers: !interactive });
  return { input, queue };
};

describe("the chat's y/N answers", () => {
  it('at a terminal, drops what was typed before the question was shown: nobody had read it', async () => {
    const { input, queue } = queueOf(true);
    input.write('yes\n');
    await tick();
    const answer = queue.answer(new AbortController().signal);
    input.write('n\n');
    expect(await answer).toBe('n');
    queue.rl.close();
  });

  it('with answers from stdin (a script), takes the next line, written before or after', async () => {
    const { input, queue } = queueOf(false);
    input.write('y\n');
    await tick();
    expect(await queue.answer(new AbortController().signal)).toBe('y');
    queue.rl.close();
  });

  it('Ctrl-C answers nothing at once, and the next line goes to the chat, not to a forgotten question', async () => {
    const { input, queue } = queueOf(true);
    const cancel = new AbortController();
    const answer = queue.answer(cancel.signal);
    cancel.abort();
    expect(await answer).toBeUndefined();
    const message = queue.next();
    input.write('a new message\n');
    expect(await message).toBe('a new message');
    queue.rl.close();
  });
});

describe('the chat as the terminal shows it', () => {
  it("starts a tool line on a line of its own after streamed words that did not end one (a handoff's first agent)", async () => {
    const runner: AgentRunner = {
      turn: async (req) => {
        req.onText?.('Handing this over to the coder.');
        req.onToolCall?.({ tool: 'handoff', input: { to: 'coder' } } as ToolCallView);
        req.onText?.('Coder here: done.');
        return {
          session: 's',
          text: 'Coder here: done.',
          toolCalls: [],
          model: 'm',
          route: 'local',
          agent: 'coder',
          usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 },
        };
      },
      confirm: () => Promise.reject(new Error('no confirmation here')),
    };
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    input.end('please hand this over\n');
    expect(await chatSession(runner, { input, output, interactive: false, stdinAnswers: false }, 's')).toBe(0);
    expect(shown).toMatch(/^Handing this over to the coder\.\n {2}→ handoff \{"to":"coder"\}\nCoder here: done\./);
  });
});
