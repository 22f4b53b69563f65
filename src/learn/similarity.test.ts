import { describe, expect, it } from 'vitest';
import { duplicatePairs, keySimilarity, keyTokens } from './similarity.js';

describe('keySimilarity (find_duplicates)', () => {
  it('treats spacing, case and punctuation drift as the same key', () => {
    expect(keySimilarity('seq:a->b', 'seq:a -> b')).toBe(1);
    expect(keySimilarity('pref:Style=Black', 'pref:style = black')).toBe(1);
  });

  it('catches drift inside a token by prefix, not an added step', () => {
    expect(keySimilarity('fix:missing-import', 'fix:missing-imports')).toBeGreaterThanOrEqual(0.9);
    expect(keySimilarity('seq:lint->fix', 'seq:lint->fix->lint')).toBeLessThan(0.75);
    expect(keySimilarity('pref:cli/test=mise-run-test', 'pref:cli/test=mise-run-test:ci')).toBeLessThan(0.75);
  });

  it('keeps sequences in different orders apart, and combos (sets) together whatever their order', () => {
    expect(keySimilarity('seq:lint->test', 'seq:test->lint')).toBeLessThan(0.75);
    expect(keySimilarity('seq:build->lint->test', 'seq:build->test->lint')).toBeLessThan(0.75);
    expect(keySimilarity('combo:pytest+coverage', 'combo:coverage+pytest')).toBe(1);
  });

  it('keeps different prefixes and different files apart', () => {
    expect(keySimilarity('seq:lint', 'pref:lint')).toBe(0);
    expect(keySimilarity('combo:cli:cmd/a/x.go+cmd/a/y.go', 'combo:cli:cmd/a/x.go+cmd/a/z.go')).toBeLessThan(0.75);
    expect(keySimilarity('pref:use-pnpm-not-npm', 'pref:use-pnpm-not-yarn')).toBeLessThan(0.75);
  });

  it('keeps keys that name different numbers apart: they are different values', () => {
    expect(keySimilarity('pref:python=3.1', 'pref:python=3.12')).toBe(0);
    expect(keySimilarity('pref:port=80', 'pref:port=8080')).toBe(0);
    expect(keySimilarity('pref:bulk-100', 'pref:bulk-1000')).toBe(0);
    expect(keySimilarity('fix:ts2345-missing-import', 'fix:ts2345-missing-imports')).toBeGreaterThanOrEqual(0.9);
  });

  it('splits keys into steps', () => {
    expect(keyTokens('lint -> fix+test=ok')).toEqual(['lint', 'fix', 'test', 'ok']);
  });
});

describe('duplicatePairs', () => {
  it('lists pairs at or above the threshold, most similar first', () => {
    const pairs = duplicatePairs(['seq:a->b', 'seq:a -> b', 'fix:missing-import', 'fix:missing-imports', 'pref:x']);
    expect(pairs.map((p) => [p.pattern_a, p.pattern_b])).toEqual([
      ['seq:a->b', 'seq:a -> b'],
      ['fix:missing-import', 'fix:missing-imports'],
    ]);
    expect(duplicatePairs(['seq:a->b', 'seq:a->c'], 0.3)).toHaveLength(1);
  });

  it('compares only keys of one prefix and the same numbers, so ten thousand numbered keys are no pair at all', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `pref:bulk-${i}`);
    expect(duplicatePairs([...keys, 'pref:bulk-7 ', 'seq:bulk-7'])).toEqual([
      { pattern_a: 'pref:bulk-7', pattern_b: 'pref:bulk-7 ', similarity: 1 },
    ]);
  });
});
