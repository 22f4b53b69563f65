import { describe, expect, it } from 'vitest';
import { matchedTerms, stem } from './stem.js';

describe('stem', () => {
  it('compares words by a crude stem', () => {
    expect(stem('tests')).toBe('test');
    expect(stem('failing')).toBe('fail');
    expect(stem('Migrations')).toBe('migr');
    expect(stem('is')).toBe('is');
    // A consonant doubled before -ing or -ed is undone; the ll, ss, zz that words end in are kept; a runner is no run.
    expect(['committing', 'committed', 'commit', 'commits'].map(stem)).toEqual(['commit', 'commit', 'commit', 'commit']);
    expect(['running', 'stopped', 'installing', 'passed', 'runner'].map(stem)).toEqual(['run', 'stop', 'install', 'pass', 'runn']);
    expect(matchedTerms(['tests', 'failing', 'docker'], 'when a test fails, rerun it')).toBe(2);
    expect(matchedTerms(['tests', 'fail'], 'when a test fails')).toBe(2);
    // An acronym's plural is the acronym; a short word ending in s is still itself.
    expect(matchedTerms(['pr', 'gas'], 'answering PRs about gas')).toBe(2);
  });
});
