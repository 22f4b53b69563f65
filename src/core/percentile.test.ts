import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.js';

describe('percentile', () => {
  it('takes the nearest rank of the sorted samples, whatever their order', () => {
    const samples = [50, 10, 40, 20, 30, 100, 90, 80, 70, 60];
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 95)).toBe(100);
    expect(percentile(samples, 10)).toBe(10);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(samples[0]).toBe(50);
  });
});
