/**
 * A crash at any point of `sync` loses nothing: killed with SIGKILL at many moments, then run
 * again, the store holds what one uninterrupted run gives (instincts, episodes, sessions,
 * graph facts and entities, search documents). Ids, run logs and timestamps of the runs
 * themselves may differ; the knowledge may not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { rawDatabase } from '../store/testing.js';
import { writeSyntheticCorpus } from '../test-support/corpus.js';
import { BIN, cliEnv, tempDir } from '../test-support/cli.js';

const SESSIONS = 16;
const KILL_POINTS = 8;
const dirs: ReturnType<typeof tempDir>[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

function freshHome(): string {
  const dir = tempDir('homunculus-crash-');
  dirs.push(dir);
  writeSyntheticCorpus(dir.path, { sessions: SESSIONS, start: '2025-06-01T09:00:00Z' });
  return dir.path;
}

const env = (home: string) => cliEnv(home, { HOMUNCULUS_EMBEDDING: 'none', HOMUNCULUS_NOW: '2026-01-01T00:00:00Z' });

function sync(home: string): void {
  const r = spawnSync(process.execPath, [BIN, 'sync', '--no-progress', '--json'], { env: env(home), encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

/** Starts sync and kills it with SIGKILL after `ms`; resolves when it is gone. */
function syncKilledAfter(home: string, ms: number): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'sync', '--no-progress'], { env: env(home), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', () => {
      clearTimeout(timer);
      done();
    });
  });
}

/** What the store knows, independent of row ids and of when each run happened. */
function knowledge(home: string): Record<string, unknown> {
  const store = openStore({ home });
  try {
    const db = rawDatabase(store);
    const rows = (sql: string) => db.prepare(sql).all();
    return {
      observations: rows('SELECT session_id, tool_use_id, processed_at IS NOT NULL AS processed FROM observations ORDER BY 1, 2'),
      instincts: rows('SELECT key, evidence, round(confidence, 4) AS c, project, category FROM instincts ORDER BY key, project'),
      episodes: rows('SELECT pattern, title, occurrences, session_ids, project FROM episodes ORDER BY 1, 2'),
      sessions: rows('SELECT id, project, summary, tools_used FROM sessions ORDER BY 1'),
      entities: rows('SELECT name, type FROM graph_entities ORDER BY 1, 2'),
      facts: rows(
        `SELECT s.name AS source, f.relation, t.name AS target, f.description, f.invalid_at IS NULL AS current
           FROM graph_facts f JOIN graph_entities s ON s.id = f.source_id JOIN graph_entities t ON t.id = f.target_id
          ORDER BY 1, 2, 3, 4`,
      ),
      graph_episodes: rows('SELECT source_ref FROM graph_episodes ORDER BY 1'),
      documents: rows('SELECT collection, count(*) AS n FROM documents GROUP BY 1 ORDER BY 1'),
    };
  } finally {
    store.close();
  }
}

/** Runs `args` to completion and returns how long it took. */
function timed(home: string, args: string[]): number {
  const started = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { env: env(home), encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return Date.now() - started;
}

describe('sync after a crash', () => {
  it(`gives the store of one uninterrupted run, killed at ${KILL_POINTS} points of the import and of the learning`, async () => {
    const reference = freshHome();
    const whole = timed(reference, ['sync', '--no-progress']);
    const expected = knowledge(reference);
    expect((expected.facts as unknown[]).length).toBeGreaterThan(0);
    expect((expected.instincts as unknown[]).length).toBeGreaterThan(0);
    // Imported first, the sync that follows is the learning, the graph and the view: kill inside those.
    const split = freshHome();
    timed(split, ['import-transcripts']);
    const learning = timed(split, ['sync', '--no-progress']);
    expect(knowledge(split)).toEqual(expected);
    const points = [
      ...Array.from({ length: KILL_POINTS / 2 }, (_, i) => ({
        imported: false,
        at: Math.round((whole * (i + 1)) / (KILL_POINTS / 2 + 1)),
      })),
      ...Array.from({ length: KILL_POINTS }, (_, i) => ({ imported: true, at: Math.round((learning * (i + 1)) / (KILL_POINTS + 1)) })),
    ];
    for (const { imported, at } of points) {
      const home = freshHome();
      if (imported) timed(home, ['import-transcripts']);
      await syncKilledAfter(home, at);
      sync(home);
      expect(knowledge(home), `killed at ${at} ms (${imported ? 'after the import' : 'whole sync'})`).toEqual(expected);
    }
  }, 300_000);
});
