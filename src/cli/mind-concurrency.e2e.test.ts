/** Seed 004: `mind run` and `mind chat` may append memories at once, with no lock, and lose none. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stubModel } from '../test-support/agent-loop.js';
import { BIN, cli, cliEnv, runNode, tempDir } from '../test-support/cli.js';
import { stepOf } from '../test-support/mind-model.js';
import { startOllamaStub } from '../test-support/ollama-stub.js';
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

  it('keeps every memory when the real `mind run` and `mind chat` work one instance at once (1,000 and more)', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const home = dir.path;
    cli(home, ['mind', 'init']);
    const answers: Record<string, string> = {
      candidates: JSON.stringify({ candidates: [{ action: 'say hello', skill: 'chat', values: ['curiosity'], goals: [] }] }),
      decide: 'say hello',
      act: 'hello',
      // Twenty memories an action, so the chat's 50 turns alone write over 1,000: how many
      // cycles of `mind run` reflect depends on how the two processes interleave.
      record: JSON.stringify({
        memories: Array.from({ length: 20 }, (_, i) => ({ author: 'self', weight: 0.5, situation: 'acted', description: `part ${i}` })),
        delta: 0.1,
      }),
      'explore-record': JSON.stringify({ memories: [{ author: 'self', weight: 0.5, situation: 'explored', description: 'wondered' }] }),
      evolve: JSON.stringify({ memories: [{ author: 'self', weight: 0.5, situation: 'reflected', description: 'thought' }] }),
    };
    const stub = await startOllamaStub((req) => ({ text: answers[stepOf(req.messages.at(-1)?.content ?? '')] ?? 'ok' }));
    try {
      writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', stub.baseUrl) } }));
      const env = cliEnv(home, { HOMUNCULUS_EMBEDDING: 'none' });
      const lines = Array.from({ length: 50 }, (_, i) => `message ${i}`).join('\n');
      const [run, chat] = await Promise.all([
        runNode([BIN, 'mind', 'run', '--cycles', '50', '--interval', '0', '--json'], env),
        runNode([BIN, 'mind', 'chat'], env, `${lines}\n/exit\n`),
      ]);
      expect(run.status, run.stderr).toBe(0);
      expect(chat.status, chat.stderr).toBe(0);
      // One reply a turn, plus a line for each reflection a turn set off.
      expect(
        chat.stdout
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('(reflected')),
      ).toHaveLength(50);
      const memories = readMemories(join(home, 'mind', 'data'));
      const count = (situation: string) => memories.filter((m) => m.situation === situation).length;
      expect(memories.length).toBeGreaterThanOrEqual(1000);
      // Every action cycle wrote its prediction, the kernel's choice, its record and its delta: none lost.
      const actions = count('action prediction');
      expect(actions).toBeGreaterThan(50);
      expect([
        count('acted') / 20,
        count('prediction delta'),
        memories.filter((m) => /^chose "say hello"/.test(m.description)).length,
      ]).toEqual([actions, actions, actions]);
      expect(count('explored')).toBe(count('explore prediction'));
      expect(count('reflected')).toBe(count('reflect prediction'));
    } finally {
      await stub.close();
    }
  }, 120_000);
});
