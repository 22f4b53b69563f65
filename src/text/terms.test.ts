import { describe, expect, it } from 'vitest';
import { factTerms, promptTerms, searchTerms, termsOf } from './terms.js';

describe('search terms', () => {
  it('keeps content words, lower-cased, without stop words or repeats', () => {
    expect(searchTerms('What did Caroline research about the Adoption agencies? Caroline!')).toEqual([
      'caroline',
      'research',
      'adoption',
      'agencies',
    ]);
    expect(searchTerms('the of and')).toEqual([]);
    expect(searchTerms('東京 に 行った')).toEqual(['東京', 'に', '行った']);
  });

  it('keeps single digits and CJK characters, not single letters or contraction fragments', () => {
    expect(searchTerms("I don't have 2 cats, x")).toEqual(['2', 'cats']);
  });
});

describe('fact terms', () => {
  it('drops English and French function words and politeness', () => {
    expect(factTerms('Please, which database does the API use?')).toEqual(['database', 'api', 'use']);
    expect(factTerms("Quelle base de données l'API utilise-t-elle, svp ?")).toEqual(['quelle', 'base', 'données', 'api', 'utilise']);
    expect(factTerms('one two three four', 2)).toEqual(['one', 'two']);
  });
});

describe('prompt terms', () => {
  it('keeps meaningful words only', () => {
    expect(promptTerms('Can you please fix the failing tests in the auth module?')).toEqual(['fix', 'failing', 'tests', 'auth', 'module']);
    expect(promptTerms('yes')).toEqual([]);
    expect(promptTerms('a b 42 x')).toEqual(['42']);
    expect(promptTerms('word '.repeat(100) + 'zebra', 5)).toEqual(['word', 'zebra']);
  });

  it('keeps two-capital acronyms, which name things, but not two lower-case letters', () => {
    expect(promptTerms('can you address the PR comments? CI is red')).toEqual(['address', 'pr', 'comments', 'ci', 'red']);
    expect(promptTerms('go to the pr page or ci')).toEqual(['page']);
  });

  it('drops the fragments of contractions', () => {
    expect(promptTerms("don't break the build, it isn't ours and we'll see")).toEqual(['break', 'build']);
  });
});

describe('termsOf', () => {
  it('stops at the most terms asked for', () => {
    expect(termsOf('a bb cc dd', { stop: new Set(['cc']), minLength: 2, max: 2 })).toEqual(['bb', 'dd']);
  });
});
