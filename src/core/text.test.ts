import { describe, expect, it } from 'vitest';
import { closestWords, editDistance } from './text.js';

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
