import { describe, expect, it } from 'vitest';
import { containsPhrase, routeAgent } from './agent-routing.js';

const personas = [
  { name: 'default', keywords: [] },
  { name: 'coder', keywords: ['bug', 'code', 'unit test'] },
  { name: 'home', keywords: ['light', 'lights', 'thermostat'] },
  { name: 'planner', keywords: ['plan', 'tomorrow'] },
];

describe('routeAgent', () => {
  it('obeys an explicit @mention first, and strips it from the message', () => {
    expect(routeAgent('@home fix this bug in my code', personas)).toEqual({
      agent: 'home',
      reason: 'mention',
      message: 'fix this bug in my code',
    });
    expect(routeAgent('@Coder: hi', personas).agent).toBe('coder');
  });

  it('ignores a mention of an agent that does not exist and routes on content', () => {
    expect(routeAgent('@nobody the lights are off', personas)).toMatchObject({ agent: 'home', reason: 'keywords' });
  });

  it('scores keywords as words and phrases, case-insensitively; the highest score wins', () => {
    expect(routeAgent('There is a BUG in this code, plan a fix', personas)).toMatchObject({ agent: 'coder', matched: ['bug', 'code'] });
    expect(routeAgent('write a Unit  Test', personas).agent).toBe('coder');
    // "debugging" holds "bug" but not as a word.
    expect(routeAgent('debugging is fun', personas).agent).toBe('default');
  });

  it('sends a tie to default', () => {
    expect(routeAgent('plan the lights', personas)).toEqual({ agent: 'default', reason: 'default', message: 'plan the lights' });
  });

  it('falls back to default when nothing matches', () => {
    expect(routeAgent('how are you?', personas).reason).toBe('default');
  });
});

describe('containsPhrase', () => {
  it('matches whole words only', () => {
    expect(containsPhrase('Turn on the lights.', 'lights')).toBe(true);
    expect(containsPhrase('spotlights', 'lights')).toBe(false);
    expect(containsPhrase('anything', '  ')).toBe(false);
  });
});
