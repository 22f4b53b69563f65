import { describe, expect, it } from 'vitest';
import { DocumentInputError, validateDocumentInput } from './documents.js';

describe('document input', () => {
  it('accepts the JSONL shape, normalising ts and numeric ids', () => {
    expect(validateDocumentInput({ id: 42, text: 'hello', ts: '2026-01-05', metadata: { a: 1 } })).toMatchObject({
      id: '42',
      text: 'hello',
      collection: 'memories',
      ts: '2026-01-05T00:00:00.000Z',
      metadata: { a: 1 },
    });
    expect(validateDocumentInput({ id: 'x', text: 't', collection: 'notes', thread: 's1', seq: 3, confidence: 0.4 })).toMatchObject({
      collection: 'notes',
      thread: 's1',
      seq: 3,
      confidence: 0.4,
    });
    expect(validateDocumentInput({ id: 'x', text: 't', speaker: '  Mary Ann ' }).speaker).toBe('Mary Ann');
  });

  it('explains every bad field', () => {
    const bad: [unknown, RegExp][] = [
      [null, /expected a JSON object/],
      [[1], /expected a JSON object/],
      [{ text: 'x' }, /id must be a non-empty string/],
      [{ id: 'x'.repeat(600), text: 'x' }, /id is longer than 512/],
      [{ id: 'a', text: '  ' }, /text must be a non-empty string/],
      [{ id: 'a', text: 'x', ts: '2026-13-45' }, /ts must be an ISO-8601/],
      [{ id: 'a', text: 'x', metadata: 'no' }, /metadata must be a JSON object/],
      [{ id: 'a', text: 'x', collection: 'Sessions!' }, /collection must be lower-case/],
      [{ id: 'a', text: 'x', collection: 'sessions' }, /indexed from its own records/],
      [{ id: 'a', text: 'x', confidence: 2 }, /confidence must be between 0 and 1/],
      [{ id: 'a', text: 'x', seq: 1.5 }, /seq must be a whole number/],
      [{ id: 'a', text: 'x', project: 5 }, /project must be a string/],
      [{ id: 'a', text: 'x', speaker: 7 }, /speaker must be a string/],
      [{ id: 'a', text: 'x', speaker: ' ' }, /speaker must be a non-empty name/],
      [{ id: 'a', text: 'x', speaker: 'x'.repeat(201) }, /speaker must be a non-empty name of at most 200/],
    ];
    for (const [input, message] of bad) expect(() => validateDocumentInput(input)).toThrow(message);
    expect(() => validateDocumentInput(null)).toThrow(DocumentInputError);
  });
});
