import { describe, expect, it } from 'vitest';
import { hiddenValues, hideEchoes, redactInput } from './redact-echo.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const PW = ['Hunter2', '-x9Q'].join('');
const GHP = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');

describe('hiddenValues: what redaction took out of a text', () => {
  it('finds each hidden value with its kind, quotes left out', () => {
    const before = `psql postgresql://admin:${PW}@db/app && curl --token "${GHP}" x`;
    const after = 'psql postgresql://admin:[REDACTED:password]@db/app && curl --token "[REDACTED:secret]" x';
    expect([...hiddenValues(before, after)]).toEqual([
      [PW, 'password'],
      [GHP, 'secret'],
    ]);
  });

  it('takes marks side by side as one value, and a value at the end', () => {
    expect([...hiddenValues(`a ${PW}${GHP}`, 'a [REDACTED:x][REDACTED:y]')]).toEqual([[`${PW}${GHP}`, 'x']]);
  });

  it('keeps nothing short, common or already a mark, and guesses nothing when the texts disagree', () => {
    expect(hiddenValues('pw=abc pw=admin pw=[REDACTED:x]', 'pw=[REDACTED:x] pw=[REDACTED:x] pw=[REDACTED:x]').size).toBe(0);
    expect(hiddenValues(`other ${PW}`, 'text [REDACTED:x]').size).toBe(0);
  });
});

describe('redactInput and hideEchoes', () => {
  it("hides in the output every value the input's redaction hid, whole-field secrets too", () => {
    const { input, hidden } = redactInput({ command: `mysql -p${PW} db`, password: 'plainword7' });
    expect(input).toEqual({ command: 'mysql -p[REDACTED:password] db', password: '[REDACTED:secret]' });
    const output = { stderr: `denied for ${PW}; tried plainword7`, exit_code: 1, lines: [`${PW}.`] };
    expect(hideEchoes(output, hidden)).toEqual({
      stderr: 'denied for [REDACTED:password]; tried [REDACTED:secret]',
      exit_code: 1,
      lines: ['[REDACTED:password].'],
    });
  });

  it('hides a value only where it stands alone, never inside a longer word', () => {
    const { hidden } = redactInput({ password: 'Tiger7' });
    expect(hideEchoes('Tiger7 Tiger77 xTiger7 (Tiger7)', hidden)).toBe('[REDACTED:secret] Tiger77 xTiger7 ([REDACTED:secret])');
  });

  it('leaves the output as it is when the input hid nothing', () => {
    const output = { stdout: 'ok' };
    expect(hideEchoes(output, redactInput({ command: 'ls' }).hidden)).toBe(output);
  });
});
