import { describe, expect, it } from 'vitest';
import { asFirstPerson, withoutNames } from './locomo.js';

describe('questions asked without the names as written', () => {
  it('replaces every speaker by "they", or the owner by "I", possessives included', () => {
    expect(withoutNames("What is Caroline's job, and did Mel Smith help her?", ['Caroline', 'Mel Smith'])).toBe(
      'What is their job, and did they help her?',
    );
    expect(asFirstPerson("What did Caroline research for Caroline's talk?", 'Caroline')).toBe('What did I research for my talk?');
    expect(asFirstPerson('What did Melanie paint?', 'Caroline')).toBe('What did Melanie paint?');
  });
});
