import { describe, expect, it } from 'vitest';
import { closestWords, counted, editDistance, headOf, showInvisible, tailOf, withoutControls, usd } from './text.js';

describe('editDistance and closestWords', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('lsit', 'list')).toBe(1);
    expect(editDistance('sync', 'sync')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests commands within two edits, closest first', () => {
    expect(closestWords('lsit', ['list', 'learn', 'get'])).toEqual(['list']);
    expect(closestWords('histroy', ['history', 'status'])).toEqual(['history']);
    expect(closestWords('dashboard', ['doctor', 'sync'])).toEqual([]);
  });
});

describe('headOf and tailOf', () => {
  const text = 'the handler returns 5 instead of 0 when the hook is missing';
  it('cut after or before a whole word, marking the cut', () => {
    expect(headOf(text, 24)).toBe('the handler returns 5…');
    expect(tailOf(text, 24)).toBe('…the hook is missing');
    expect(tailOf(text, 25)).toBe('…when the hook is missing');
    expect(headOf(text, 200)).toBe(text);
    expect(tailOf(text, 200)).toBe(text);
  });

  it('cut inside a word that fills the room rather than give most of it back', () => {
    const long = `go ${'x'.repeat(40)}`;
    expect(headOf(long, 20)).toHaveLength(20);
    expect(tailOf(`${'y'.repeat(40)} go`, 20)).toHaveLength(20);
  });
});

describe('counted', () => {
  it('puts the noun in the plural unless the count is one, zero included', () => {
    expect(counted(1, 'rule')).toBe('1 rule');
    expect(counted(0, 'rule')).toBe('0 rules');
    expect(counted(3, 'tool call')).toBe('3 tool calls');
  });
});

describe('showInvisible', () => {
  it('writes what shows nothing, or reverses the text, as its escape, and leaves everything else', () => {
    expect(showInvisible('rm -rf /tmp/\u202egpj.exe')).toBe('rm -rf /tmp/\\u202egpj.exe');
    expect(showInvisible('cat se\u200bcrets \u2066x\u2069 \ufeff')).toBe('cat se\\u200bcrets \\u2066x\\u2069 \\ufeff');
    expect(showInvisible('plain text, é 中文 🙂')).toBe('plain text, é 中文 🙂');
  });
});

describe('withoutControls', () => {
  it('drops terminal escapes and control characters, keeping the words, tabs and line breaks', () => {
    expect(withoutControls('zebrafish \u001b[2J\u001b[31mRED\u001b]0;pwned\u0007 title')).toBe('zebrafish RED title');
    expect(withoutControls('rm \u202eexe.txt\u2066 \u009b31m ok')).toBe('rm exe.txt 31m ok');
    expect(withoutControls('nul\u0000 inside\tand\nnext\r\nline')).toBe('nul inside\tand\nnext\r\nline');
    expect(withoutControls('plain text, é 中文')).toBe('plain text, é 中文');
  });
});

describe('usd', () => {
  it('says cents, or hundredths of a cent when the amount holds them: what is left of a budget never rounds back to all of it', () => {
    expect([usd(5), usd(0), usd(0.0042), usd(5 - 0.0042), usd(12.5)]).toEqual(['$5.00', '$0.00', '$0.0042', '$4.9958', '$12.50']);
  });
});
