import { describe, expect, it } from 'vitest';
import { editJsonc, parseJsonc } from './jsonc.js';

const TEXT = `{
  // theme
  "ui": { "theme": "dark" },
  "hooks": {
    "BeforeTool": [
      /* the user's guard */ { "command": "guard.sh" },
      { "command": "old homunculus hook observe" }, // ours, older
    ],
  },
}
`;

describe('settings with comments', () => {
  it('reads comments and trailing commas; says where anything else is wrong', () => {
    expect(parseJsonc(TEXT)).toEqual({
      ui: { theme: 'dark' },
      hooks: { BeforeTool: [{ command: 'guard.sh' }, { command: 'old homunculus hook observe' }] },
    });
    expect(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}')).toThrow(/comma expected at line 3, column 3/);
    expect(() => parseJsonc('{ "a": }')).toThrow(/value expected at line 1/);
  });

  it('changes only what differs: an item replaced, a key added, a key taken out, every comment elsewhere kept', () => {
    const after = {
      hooks: { BeforeTool: [{ command: 'guard.sh' }, { command: 'new homunculus hook observe' }] },
      mcpServers: { homunculus: { command: 'homunculus' } },
    };
    const text = editJsonc(TEXT, after, '  ');
    expect(parseJsonc(text)).toEqual(after);
    for (const kept of ["/* the user's guard */", '// ours, older']) expect(text).toContain(kept);
    expect(text).not.toContain('"ui"');
  });

  it('adds items at the end of an array and takes items out of it, leaving the others as written', () => {
    const value = parseJsonc(TEXT) as { hooks: { BeforeTool: unknown[] } };
    const more = { hooks: { BeforeTool: [...value.hooks.BeforeTool, { command: 'x' }] }, ui: { theme: 'dark' } };
    const added = editJsonc(TEXT, more, '  ');
    expect(parseJsonc(added)).toEqual(more);
    expect(added).toContain('// ours, older');
    const fewer = { ui: { theme: 'dark' }, hooks: { BeforeTool: [{ command: 'guard.sh' }] } };
    const removed = editJsonc(TEXT, fewer, '  ');
    expect(parseJsonc(removed)).toEqual(fewer);
    expect(removed).toContain("/* the user's guard */");
    expect(removed).toContain('// theme');
  });

  it('keeps tabs and CRLF line ends when it writes something new', () => {
    const text = '{\r\n\t// c\r\n\t"a": 1,\r\n}\r\n';
    const out = editJsonc(text, { a: 1, b: { c: [1] } }, '\t');
    expect(parseJsonc(out)).toEqual({ a: 1, b: { c: [1] } });
    expect(out).toContain('\r\n\t"b": {');
    expect(out).not.toMatch(/[^\r]\n/);
  });
});
