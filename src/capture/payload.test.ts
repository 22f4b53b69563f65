import { describe, expect, it } from 'vitest';
import { parsePayload, salvage } from './payload.js';

describe('payload parsing', () => {
  it('parses whole JSON, and salvages the head of a cut payload', () => {
    expect(parsePayload({ text: '{"a":1}', bytes: 7, truncated: false })).toEqual({ value: { a: 1 }, mode: 'json' });
    expect(parsePayload({ text: '\uFEFF{"a":1}', bytes: 10, truncated: false }).mode).toBe('json');
    expect(parsePayload({ text: '[1]', bytes: 3, truncated: false }).mode).toBe('not-object');
    const cut =
      '{"session_id":"s\\u00e9","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make \\"all\\""},"tool_response":{"stdout":"xxxxx';
    expect(salvage(cut)).toMatchObject({ session_id: 'sé', cwd: '/w', tool_name: 'Bash', tool_input: { command: 'make "all"' } });
    expect(parsePayload({ text: cut, bytes: 1e9, truncated: true }).mode).toBe('salvaged');
    expect(parsePayload({ text: '\u0000\u0001garbage', bytes: 9, truncated: false }).mode).toBe('empty');
  });

  it('keeps the path of a Write whose content ran past the size limit', () => {
    const head = '{"session_id":"s","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/big.json","content":"';
    const cut = head + 'x'.repeat(100_000);
    expect(salvage(cut)).toMatchObject({ tool_name: 'Write', tool_input: { file_path: '/w/big.json' } });
    expect(salvage(cut).tool_input).not.toHaveProperty('content');
  });

  it('keeps the start of a command that ran past the size limit (it was stored empty)', () => {
    const command = `echo ${'x'.repeat(200_000)}`;
    const cut = `{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"${command}`;
    const input = salvage(cut).tool_input as { command?: string };
    expect(input.command?.startsWith('echo xxxx')).toBe(true);
    expect(input.command?.length).toBeGreaterThan(60_000);
  });

  it('never trusts fields inside the tool response', () => {
    expect(salvage('{"tool_name":"Read","tool_response":{"content":"{\\"session_id\\":\\"evil\\"}"')).toEqual({ tool_name: 'Read' });
  });
});

describe('a payload cut at the size limit', () => {
  it('keeps the prompt it cut, whatever character the cut fell on', () => {
    const prompt = `fix the loader ${'é\\"x\\u00e9 '.repeat(200_000)}`;
    const whole = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt });
    for (const cut of [whole.length - 1, whole.length - 2, whole.length - 3, whole.length - 4, whole.length - 7]) {
      const parsed = parsePayload({ text: whole.slice(0, cut), bytes: whole.length, truncated: true });
      expect(parsed.mode).toBe('salvaged');
      expect(parsed.value).toMatchObject({ hook_event_name: 'UserPromptSubmit', session_id: 's' });
      const kept = parsed.value.prompt as string;
      expect(kept.length).toBeGreaterThan(prompt.length - 10);
      expect(prompt.startsWith(kept)).toBe(true);
    }
  });
});
