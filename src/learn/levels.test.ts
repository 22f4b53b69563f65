import { describe, expect, it } from 'vitest';
import { levelFor, promotedLevel, seenRecently } from './levels.js';

const NOW = new Date('2026-03-01T00:00:00.000Z');
const daysAgo = (d: number): string => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const level = (evidence: number, lastSeenDaysAgo: number, distinctProjects = 1) =>
  levelFor({ evidence, lastSeen: daysAgo(lastSeenDaysAgo), distinctProjects }, NOW);

describe('evidence levels', () => {
  it('raw below 5, mature from 5, rule from 10 (old patterns, no recency bonus)', () => {
    expect(level(4, 30)).toBe('raw');
    expect(level(5, 30)).toBe('mature');
    expect(level(9, 30)).toBe('mature');
    expect(level(10, 30)).toBe('rule');
  });
  it('gives +1 toward mature to patterns seen within the last 7 days, inclusive', () => {
    expect(level(4, 0)).toBe('mature');
    expect(level(4, 7)).toBe('mature');
    expect(level(4, 7.001)).toBe('raw');
    expect(level(3, 0)).toBe('raw');
    expect(seenRecently(daysAgo(7), NOW)).toBe(true);
  });
  it('never lets the recency bonus reach rule', () => {
    expect(level(9, 0)).toBe('mature');
  });
  it('makes a rule universal only when seen in two or more projects', () => {
    expect(level(10, 30, 1)).toBe('rule');
    expect(level(10, 30, 2)).toBe('universal');
    expect(level(9, 30, 5)).toBe('mature');
    expect(level(10, 30, 0)).toBe('rule');
  });
  it('never demotes a stored level', () => {
    expect(promotedLevel(2, { evidence: 3, lastSeen: daysAgo(40), distinctProjects: 1 }, NOW)).toBe(2);
    expect(promotedLevel(0, { evidence: 10, lastSeen: daysAgo(40), distinctProjects: 2 }, NOW)).toBe(3);
  });
});
