import { scratchDir } from '../test-support/cli.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendMemory,
  corruptFiles,
  goalsPath,
  memoryPath,
  readGoals,
  readMemories,
  readValues,
  valuesPath,
  writeGoals,
  writeValues,
} from './files.js';

const dir = () => scratchDir('mind-files-');
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
    expect(() => writeValues(data, [{ name: 'a', weight: 2, status: 'active' }])).toThrow(/entry 1, weight/);
    expect(readValues(data)[0]?.weight).toBe(0.1);
  });

  it('takes values.json holding no values for a corrupt file, and names every corrupt file of data/', () => {
    const data = dir();
    writeFileSync(valuesPath(data), '[]');
    expect(() => readValues(data)).toThrow(/values\.json is corrupt \(the document: must hold at least one value/);
    expect(() => writeValues(data, [])).toThrow(/Refused to write/);
    writeGoals(data, 2026, []);
    expect(corruptFiles(data).map((e) => e.message)).toEqual([expect.stringContaining('values.json')]);
    writeValues(data, [{ name: 'a', weight: 0.5, status: 'active' }]);
    expect(corruptFiles(data)).toEqual([]);
    writeFileSync(goalsPath(data, 2025), '{');
    appendMemory(data, memory('2026-01-02T00:00:00Z'));
    writeFileSync(memoryPath(data, '2026-01-03T00:00:00Z'), 'not json\n', { flag: 'a' });
    expect(corruptFiles(data).map((e) => e.message)).toEqual([
      expect.stringContaining('2025.json'),
      expect.stringContaining('2026-01-03.jsonl is corrupt (line 1'),
    ]);
  });

  it('reports a corrupt JSON file with its field and never overwrites it', () => {
    const data = dir();
    writeFileSync(valuesPath(data), '[{"name":"a","weight":0.5,"status":"sleepy"}]');
    expect(() => readValues(data)).toThrow(/values\.json is corrupt \(entry 1, status/);
    writeFileSync(valuesPath(data), '[\n  {"name": "a",\n  }\n]');
    expect(() => readValues(data)).toThrow(/corrupt \(the JSON: .* at line 3, column 3/);
    // A trailing comma: Node quotes the text around it instead of an offset; still a line and column, on one line.
    writeFileSync(valuesPath(data), '[\n  {"name": "x", "status": "active"},\n]\n');
    expect(() => readValues(data)).toThrow(/corrupt \(the JSON: Unexpected token '\]' at line 3, column 1\)/);
    // The fix names the real file to restore from git.
    expect(() => readValues(data)).toThrow(
      expect.objectContaining({ hint: expect.stringContaining(`git -C '${data}' checkout -- 'values.json'`) }),
    );
    writeFileSync(valuesPath(data), '{not json');
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
    expect(() => readMemories(data)).toThrow(/line 2, timestamp/);
    // Never "restore from git": that would lose the memories since the last commit.
    expect(() => readMemories(data)).toThrow(
      expect.objectContaining({ hint: `repair or delete line 2 of ${path} (the other memories are fine)` }),
    );
  });

  it('reads past a memory another process is appending at that moment (no newline yet)', () => {
    const data = dir();
    appendMemory(data, memory('2026-02-14T10:00:00Z'));
    const path = memoryPath(data, '2026-02-14T10:00:00Z');
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"timestamp":"2026-02-14T10:00:01Z","auth`);
    expect(readMemories(data)).toHaveLength(1);
  });

  it('refuses to append after a cut-short last line, naming it, rather than bury it as a corrupt line mid-file', () => {
    const data = dir();
    appendMemory(data, memory('2026-02-14T10:00:00Z'));
    const path = memoryPath(data, '2026-02-14T10:00:00Z');
    const torn = `${readFileSync(path, 'utf8')}{"timestamp":"2026-02-14T10:00:01Z","auth`;
    writeFileSync(path, torn);
    expect(() => appendMemory(data, memory('2026-02-14T11:00:00Z'))).toThrow(
      expect.objectContaining({
        message: expect.stringContaining('line 2: the last line is cut short'),
        hint: expect.stringContaining('line 2'),
      }),
    );
    expect(readFileSync(path, 'utf8')).toBe(torn);
    expect(readMemories(data)).toHaveLength(1);
  });

  it('keeps a memory an editor saved without its last newline, and appends the next one on a line of its own', () => {
    const data = dir();
    appendMemory(data, memory('2026-02-14T10:00:00Z'));
    appendMemory(data, memory('2026-02-14T11:00:00Z'));
    const path = memoryPath(data, '2026-02-14T10:00:00Z');
    writeFileSync(path, readFileSync(path, 'utf8').trimEnd());
    expect(readMemories(data)).toHaveLength(2);
    appendMemory(data, memory('2026-02-14T12:00:00Z'));
    expect(readMemories(data).map((m) => m.timestamp)).toEqual(['2026-02-14T10:00:00Z', '2026-02-14T11:00:00Z', '2026-02-14T12:00:00Z']);
  });

  it("starts a new year's goals from the last year's open ones", () => {
    const data = dir();
    writeGoals(data, 2026, [
      { name: 'understand people', weight: 0.8, status: 'perpetual' },
      { name: 'learn go', weight: 0.5, status: 'working' },
      { name: 'ship it', weight: 0.5, status: 'done' },
    ]);
    expect(readGoals(data, 2027).map((g) => g.name)).toEqual(['understand people', 'learn go']);
    expect(readGoals(data, 2025)).toEqual([]);
    // Once the year has its own file, that file is the year's goals.
    writeGoals(data, 2027, [{ name: 'new year', weight: 0.5, status: 'todo' }]);
    expect(readGoals(data, 2027).map((g) => g.name)).toEqual(['new year']);
  });

  it('refuses an invalid memory', () => {
    expect(() => appendMemory(dir(), { ...memory('2026-02-14T10:00:00Z'), weight: -1 })).toThrow(/weight must be between 0 and 1/);
  });
});
