import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineQueue } from './chat-session.js';

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
