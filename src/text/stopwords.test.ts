import { describe, expect, it } from 'vitest';
import { CHANGE_WORDS, CONTRACTIONS, COURTESY, ENGLISH, FRENCH, INSTRUCTION_WORDS, PROMPT_FILLER, VAGUE, stopSet } from './stopwords.js';

const LISTS = { ENGLISH, CONTRACTIONS, FRENCH, VAGUE, COURTESY, PROMPT_FILLER, CHANGE_WORDS, INSTRUCTION_WORDS };

describe('stop word lists', () => {
  it('are lower-case single words, each listed once', () => {
    for (const [name, list] of Object.entries(LISTS)) {
      expect(
        list.filter((w) => w !== w.toLowerCase() || !/^[\p{L}]+$/u.test(w)),
        name,
      ).toEqual([]);
      expect(new Set(list).size, name).toBe(list.length);
    }
  });

  it('list contraction fragments, not the contractions a tokenizer never produces', () => {
    for (const list of Object.values(LISTS)) expect(list.some((w) => /['’]/.test(w))).toBe(false);
    expect(CONTRACTIONS).toEqual(expect.arrayContaining(['don', 'doesn', 'isn', 'll', 've', 're', 't', 's']));
  });

  it('keep the extras apart from the function words', () => {
    const functionWords = stopSet(ENGLISH, FRENCH, CONTRACTIONS);
    for (const extra of [VAGUE, COURTESY, PROMPT_FILLER, CHANGE_WORDS, INSTRUCTION_WORDS]) {
      expect(extra.filter((w) => functionWords.has(w))).toEqual([]);
    }
  });

  it('compose a set from several lists', () => {
    const set = stopSet(ENGLISH, COURTESY);
    expect(set.has('the')).toBe(true);
    expect(set.has('thanks')).toBe(true);
    expect(set.has('les')).toBe(false);
  });
});
