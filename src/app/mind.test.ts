import { describe, expect, it } from 'vitest';
import { loopOfCycle } from './mind.js';

describe('mind run', () => {
  it('alternates action and explore, reflecting every n-th cycle', () => {
    expect(Array.from({ length: 6 }, (_, n) => loopOfCycle(n, 3))).toEqual([
      'action',
      'explore',
      'reflect',
      'explore',
      'action',
      'reflect',
    ]);
    expect(Array.from({ length: 4 }, (_, n) => loopOfCycle(n, 5))).toEqual(['action', 'explore', 'action', 'explore']);
  });
});
