import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendMemory, goalsPath, memoryPath, readGoals, readMemories, readValues, valuesPath, writeGoals, writeValues } from './files.js';

const dir = () => mkdtempSync(join(tmpdir(), 'mind-files-'));
const memory = (timestamp: string, author: 'self' | 'kernel' = 'self') => ({
  timestamp,
  author,
  weight: 0.5,
  situation: 's',
  description: 'd',
});

describe('mind data files', () => {
  it('round-trips values and goals, in the seed layout', () => {
    const data = dir();
    writeValues(data, [{ name: 'honesty', weight: 0.9, status: 'active' }]);
    writeGoals(data, 2026, [{ name: 'learn', weight: 0.5, status: 'todo' }]);
    expect(readValues(data)).toEqual([{ name: 'honesty', weight: 0.9, status: 'active' }]);
    expect(readGoals(data, 2026)[0]?.status).toBe('todo');
    expect(goalsPath(data, 2026)).toBe(join(data, 'goals', '2026.json'));
  });

  it('refuses to write an invalid document and leaves the file as it was', () => {
    const data = dir();
    writeValues(data, [{ name: 'a', weight: 0.1, status: 'active' }]);
    expect(() => writeValues(data, [{ name: 'a', weight: 2, status: 'active' }])).toThrow(/field 0.weight/);
    expect(readValues(data)[0]?.weight).toBe(0.1);
  });

  it('reports a corrupt JSON file with its field and never overwrites it', () => {
    const data = dir();
    writeFileSync(valuesPath(data), '[{"name":"a","weight":0.5,"status":"sleepy"}]');
    expect(() => readValues(data)).toThrow(/values\.json is corrupt \(field 0\.status/);
    writeFileSync(valuesPath(data), '{not json');
    expect(() => readValues(data)).toThrow(/corrupt \(the JSON/);
    expect(readFileSync(valuesPath(data), 'utf8')).toBe('{not json');
  });

  it('appends memories to the day log and reads them back, filtered by date', () => {
    const data = dir();
    appendMemory(data, memory('2026-02-14T10:00:00Z'));
    appendMemory(data, memory('2026-02-15T10:00:00Z', 'kernel'));
    expect(memoryPath(data, '2026-02-14T10:00:00Z')).toBe(join(data, 'memory', '2026', '2026-02-14.jsonl'));
    expect(readMemories(data)).toHaveLength(2);
    expect(readMemories(data, '2026-02-15').map((m) => m.author)).toEqual(['kernel']);
  });

  it('names the line of a corrupt memory log', () => {
    const data = dir();
    appendMemory(data, memory('2026-02-14T10:00:00Z'));
    const path = memoryPath(data, '2026-02-14T10:00:00Z');
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"author":"ghost"}\n`);
    expect(() => readMemories(data)).toThrow(/line 2, field timestamp/);
  });

  it('refuses an invalid memory', () => {
    expect(() => appendMemory(dir(), { ...memory('2026-02-14T10:00:00Z'), weight: -1 })).toThrow(/field weight/);
  });
});
