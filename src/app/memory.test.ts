/** The memory operations' inputs, as every surface sends them. */
import { describe, expect, it } from 'vitest';
import { deleteMemories } from './memory.js';
import { InputError, parseInput } from './operation.js';

describe('a memory collection name', () => {
  it('is refused quoting what was sent once', () => {
    const refused = (collection: string) => {
      try {
        parseInput(deleteMemories, { ids: ['a'], collection });
      } catch (err) {
        expect(err).toBeInstanceOf(InputError);
        return (err as Error).message;
      }
      throw new Error(`${collection} was accepted`);
    };
    expect(refused('../x')).toBe('collection must be lower-case letters, digits, "-" or "_" (max 64), got "../x".');
    expect(refused('instincts')).toBe('collection "instincts" is indexed from its own records and cannot be written directly.');
  });
});
