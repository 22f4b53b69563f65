import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEEP_TOGETHER_RATIO, MIN_TOGETHER_RATIO } from './coedits.js';

describe('the co-edit bars', () => {
  it('are the ones docs/instincts.md states: one to be learned, a lower one to stay', () => {
    const docs = readFileSync(new URL('../../../docs/instincts.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toContain(`edited together in at least ${MIN_TOGETHER_RATIO * 100}% of the sessions touching either file`);
    expect(docs).toContain(`edited together in fewer than ${KEEP_TOGETHER_RATIO * 100}% of the sessions touching either file`);
  });
});
