/** Seed 004: `mind run` and `mind chat` may append memories at once, with no lock, and lose none. */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode, tempDir } from '../test-support/cli.js';
import { readMemories } from '../mind/files.js';

const FILES = join(import.meta.dirname, '..', '..', 'dist', 'mind', 'files.js');

/** A process appending `n` memories through the built module, as two loops of two processes would. */
const writer = (data: string, who: string, n: number) =>
  runNode(
    [
      '--input-type=module',
      '-e',
      `const { appendMemory } = await import(${JSON.stringify(FILES)});
       for (let i = 0; i < ${n}; i++)
         appendMemory(${JSON.stringify(data)}, { timestamp: new Date().toISOString(), author: 'self', weight: 0.5, situation: '${who}', description: '${who} ' + i + ' ' + 'x'.repeat(200) });`,
    ],
    process.env,
  );

describe('concurrent memory appends', () => {
  const dirs: { cleanup: () => void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  it('keeps all 1,000 memories of two processes appending at once, each line whole', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const results = await Promise.all([writer(dir.path, 'run', 500), writer(dir.path, 'chat', 500)]);
    for (const r of results) expect(r.status, r.stderr).toBe(0);
    const memories = readMemories(dir.path);
    expect(memories).toHaveLength(1000);
    for (const who of ['run', 'chat'])
      expect(new Set(memories.filter((m) => m.situation === who).map((m) => m.description)).size).toBe(500);
  });
});
