import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runNode, tempDir } from '../test-support/cli.js';
import { openStore } from './store.js';
import { rawDatabase } from './testing.js';

const PROCESSES = 16;
const PER_PROCESS = 500;

// Each writer opens the store like a hook process does and records its observations one
// transaction at a time, all processes at once.
const writer = `
const { openStore } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/store/store.js')).href)});
const worker = process.argv[1];
const store = openStore();
let added = 0;
for (let i = 0; i < ${PER_PROCESS}; i++) {
  if (store.observations.insert({
    source: 'claude-code', session_id: 'session-' + worker, tool_use_id: 'toolu_' + worker + '_' + i,
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), tool: 'Bash', input: 'npm test', files: [],
  })) added++;
}
store.close();
process.stdout.write(String(added));
`;

let home: ReturnType<typeof tempDir>;
beforeAll(() => (home = tempDir()));
afterAll(() => home.cleanup());

async function runWriters(): Promise<number[]> {
  const env = { ...process.env, HOMUNCULUS_HOME: home.path };
  const results = await Promise.all(
    Array.from({ length: PROCESSES }, (_, w) => runNode(['--input-type=module', '-e', writer, String(w)], env)),
  );
  for (const r of results) expect(r.stderr).toBe('');
  expect(results.map((r) => r.status)).toEqual(Array(PROCESSES).fill(0));
  return results.map((r) => Number(r.stdout));
}

describe('many hook processes writing at once', () => {
  it('records exactly 8,000 observations from 16 processes x 500, then a replay adds nothing', async () => {
    const first = await runWriters();
    expect(first).toEqual(Array(PROCESSES).fill(PER_PROCESS));
    const replay = await runWriters();
    expect(replay).toEqual(Array(PROCESSES).fill(0));

    const store = openStore({ home: home.path });
    const { n, sessions, uniq } = rawDatabase(store)
      .prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT session_id) AS sessions, COUNT(DISTINCT tool_use_id) AS uniq FROM observations')
      .get() as { n: number; sessions: number; uniq: number };
    store.close();
    expect(n).toBe(PROCESSES * PER_PROCESS);
    expect(sessions).toBe(PROCESSES);
    expect(uniq).toBe(PROCESSES * PER_PROCESS);
  });
});
