import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { confirmationReply, outputText, trimHistory, settleUnanswered } from './turn-state.js';

const user = (content: string): ModelMessage => ({ role: 'user', content });
const call: ModelMessage = { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', input: {} }] };
const result: ModelMessage = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'echo', output: { type: 'text', value: 'x' } }],
};

describe('trimHistory', () => {
  it('keeps the last turns whole, cutting only before a person message', () => {
    const history = [
      user('one'),
      call,
      result,
      { role: 'assistant', content: 'a1' } as ModelMessage,
      user('two'),
      call,
      result,
      user('three'),
    ];
    expect(trimHistory(history, 3)).toBe(history);
    expect(trimHistory(history, 2)).toEqual([user('two'), call, result, user('three')]);
    expect(trimHistory(history, 1)).toEqual([user('three')]);
  });
});

describe('confirmationReply', () => {
  const held = {
    view: { id: 'ap1', tool: 'launch', input: {}, expiresAt: '' },
    toolCallId: 'c1',
    others: [{ approvalId: 'ap2', toolCallId: 'c2', tool: 'shell_exec', input: {} }],
  };
  it("approves with the SDK's approval response, declines with the tool's result, and declines the others", () => {
    expect(confirmationReply(held, true, false).parts).toEqual([
      { type: 'tool-approval-response', approvalId: 'ap1', approved: true, reason: 'approved by the person' },
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'c2',
        output: { type: 'text', value: expect.stringMatching(/one confirmation at a time/) },
      }),
    ]);
    const no = confirmationReply(held, false, true);
    expect(no.reason).toMatch(/not confirmed in time/);
    expect(no.parts[0]).toEqual({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'launch',
      output: { type: 'text', value: 'launch was not confirmed in time, so it did not run.' },
    });
    expect(confirmationReply(held, false, false, true).reason).toBe('not confirmed: no one was there to confirm it, so it did not run');
  });
});

describe('outputText', () => {
  it('shows text as is, values as JSON, and cuts long output saying how long it was', () => {
    expect(outputText('hi')).toBe('hi');
    expect(outputText({ a: 1 })).toBe('{"a":1}');
    expect(outputText('x'.repeat(2_500))).toMatch(/^x{2000}… \(2500 characters\)$/);
  });
});

describe('settleUnanswered', () => {
  const call = (id: string) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'launch', input: {} });
  const result = (id: string) => ({
    type: 'tool-result' as const,
    toolCallId: id,
    toolName: 'launch',
    output: { type: 'text' as const, value: 'ok' },
  });
  it('answers only the calls without a result, as not run; a settled conversation is left as it is', () => {
    const settled: ModelMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('a')] },
      { role: 'tool', content: [result('a')] },
      { role: 'assistant', content: 'done' },
    ];
    expect(settleUnanswered(settled)).toBe(settled);
    const open = [...settled, { role: 'user', content: 'again' }, { role: 'assistant', content: [call('b')] }] as ModelMessage[];
    expect(settleUnanswered(open).at(-1)).toEqual({
      role: 'tool',
      content: [{ ...result('b'), output: { type: 'text', value: 'launch was not run: the agent restarted before it was confirmed.' } }],
    });
  });
});
