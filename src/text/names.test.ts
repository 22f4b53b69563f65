import { describe, expect, it } from 'vitest';
import { editDistance, nameKey, namesPerson } from './names.js';

describe('names as people write them', () => {
  it('finds a person by other spellings of their name or first name', () => {
    expect(nameKey('Muhhamed')).toBe('muhamed');
    expect(namesPerson('Muhammad', 'Muhhamed')).toBe(true);
    expect(namesPerson('Nebras', 'Nebraas')).toBe(true);
    expect(namesPerson('Paula', 'Paola')).toBe(true);
    expect(namesPerson('Zoé', 'Zoe Martin')).toBe(false); // three letters once normalised: too short to guess
    expect(namesPerson('Kevin', 'Kevin Smith')).toBe(true);
  });

  it('keeps different people apart', () => {
    expect(namesPerson('Kevin', 'Elise')).toBe(false);
    expect(namesPerson('Vanessa', 'Nebraas')).toBe(false);
    expect(namesPerson('Anna', 'Anne')).toBe(false);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
  });
});
