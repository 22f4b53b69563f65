import { describe, expect, it } from 'vitest';
import { TONES, toolSeries } from './tool-series.js';

describe('the tools chart series', () => {
  it('gives each tool shown a tone of its own, grouping the least used as "other" past the tones there are', () => {
    const tools = Array.from({ length: 21 }, (_, i) => `tool${String(i).padStart(2, '0')}`);
    // tool00 is used least, tool20 most.
    const days = [{ tools: Object.fromEntries(tools.map((t, i) => [t, { calls: i + 1 }])) }, { tools: { tool20: { calls: 5 } } }];
    const series = toolSeries(tools, days);
    expect(series).toHaveLength(TONES);
    expect(new Set(series.map((s) => s.tone)).size).toBe(series.length);
    expect(series.slice(0, 2).map((s) => [s.name, s.values])).toEqual([
      ['tool20', [21, 5]],
      ['tool19', [20, 0]],
    ]);
    const other = series.at(-1);
    expect(other?.name).toBe('other (14 tools)');
    expect(other?.members).toHaveLength(14);
    expect(other?.values).toEqual([(14 * 15) / 2, 0]);
  });

  it('keeps every tool apart when there are no more than the tones', () => {
    const series = toolSeries(['Bash', 'Edit'], [{ tools: { Bash: { calls: 1 }, Edit: { calls: 3 } } }]);
    expect(series.map((s) => [s.name, s.tone])).toEqual([
      ['Edit', 'tone-0'],
      ['Bash', 'tone-1'],
    ]);
  });
});
