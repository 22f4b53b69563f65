/**
 * A secret hidden in a call's input is hidden where its output prints it again, on every
 * capture path: the live hooks of each agent, and the import of a transcript (its turns and
 * session summary too).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGraphFromSession } from '../graph/extract/build.js';
import { runHook } from '../hooks/run.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import type { Agent } from './agents.js';
import { drainSpool } from './spool/drain.js';
import { importTranscripts } from './transcript/import.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const PG_PW = ['Zq9x', 'Wv7Lp2'].join('');
const MY_PW = ['S3cr', '3tPw!'].join('');
const PSQL = `psql postgresql://admin:${PG_PW}@db.internal/app`;
const PSQL_ERROR = `psql: error: password authentication failed for user admin (pw ${PG_PW})`;
const MYSQL = `mysql -p${MY_PW} db`;
const MYSQL_ERROR = `ERROR 1045: access denied, tried ${MY_PW} for root`;

let dir: { path: string; cleanup: () => void };
beforeEach(() => (dir = tempDir('hom-echo-')));
afterEach(() => dir.cleanup());

const env = { HOMUNCULUS_NO_LEARN: '1' };
const home = (): string => join(dir.path, 'home');

/** Everything the store holds about a session (its observations, turns, summary and graph facts), then every file of the home. */
async function storedFor(sessionId: string): Promise<string> {
  const store = openStore({ home: home() });
  try {
    drainSpool(store, home());
    const report = await buildGraphFromSession(store, { sessionId, root: dir.path });
    return JSON.stringify([
      store.observations.forSession(sessionId),
      store.documents.get('turns', `${sessionId}#0`),
      store.sessions.get(sessionId),
      store.graph.facts.byIds(report.facts),
    ]);
  } finally {
    store.close();
  }
}

/** The bytes of every file under the home (database, spool, session files), as text. */
const homeFiles = (): string =>
  readdirSync(home(), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'))
    .join('\n');

const payloads: [Agent, string, Record<string, unknown>, Record<string, unknown>][] = [
  ['claude-code', 'cc', { tool_name: 'Bash', tool_input: { command: PSQL }, tool_response: { stderr: PSQL_ERROR, exit_code: 2 } }, {}],
  ['claude-code', 'cc', { tool_name: 'Bash', tool_input: { command: MYSQL }, tool_response: { stderr: MYSQL_ERROR, exit_code: 1 } }, {}],
  ['codex', 'cx', { tool_name: 'Bash', tool_input: { command: PSQL }, tool_response: `${PSQL_ERROR}\nProcess exited with code 2` }, {}],
  [
    'gemini',
    'gm',
    { tool_name: 'run_shell_command', tool_input: { command: MYSQL } },
    { hook_event_name: 'AfterTool', tool_response: { llmContent: `Output: ${MYSQL_ERROR}\nExit Code: 1`, error: MYSQL_ERROR } },
  ],
];

describe('a secret hidden in the input is hidden from the output', () => {
  it.each(payloads)('%s live hook: the error keeps no secret the command held', async (agent, sessionId, call, over) => {
    const payload = { session_id: sessionId, cwd: dir.path, hook_event_name: 'PostToolUse', tool_use_id: 't1', ...call, ...over };
    expect(await runHook('observe', JSON.stringify(payload), { home: home(), agent, env })).toMatchObject({ status: 'spooled' });
    const stored = await storedFor(sessionId);
    for (const text of [stored, homeFiles()]) {
      expect(text).not.toContain(PG_PW);
      expect(text).not.toContain(MY_PW);
    }
    expect(stored).toMatch(/"outcome":"error"/);
    expect(stored).toMatch(/"error":"exit \d: [^"]*\[REDACTED:password\]/);
  });

  it('transcript import: observations, turns and the session summary keep no secret the command held', async () => {
    const base = { sessionId: 'tr', cwd: dir.path, version: '2.1.30', isSidechain: false, userType: 'external' };
    const ts = (s: number): string => new Date(Date.UTC(2026, 0, 10, 9, 0, s)).toISOString();
    const use = (id: string, command: string, s: number) => ({
      ...base,
      type: 'assistant',
      timestamp: ts(s),
      message: { id: `m${s}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
    });
    const result = (id: string, stderr: string, s: number) => ({
      ...base,
      type: 'user',
      timestamp: ts(s),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `Exit code 2\n${stderr}`, is_error: true }] },
      toolUseResult: `Error: Exit code 2\n${stderr}`,
    });
    const records = [
      { ...base, type: 'user', timestamp: ts(1), message: { role: 'user', content: 'connect to the app database' } },
      use('tu1', PSQL, 2),
      result('tu1', PSQL_ERROR, 3),
      use('tu2', MYSQL, 4),
      result('tu2', MYSQL_ERROR, 5),
      {
        ...base,
        type: 'assistant',
        timestamp: ts(6),
        message: { id: 'm6', role: 'assistant', content: [{ type: 'text', text: 'Both failed.' }] },
      },
    ];
    const file = join(dir.path, 'tr.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
    const store = openStore({ home: home() });
    try {
      await importTranscripts(store, [file]);
    } finally {
      store.close();
    }
    const stored = await storedFor('tr');
    for (const text of [stored, homeFiles()]) {
      expect(text).not.toContain(PG_PW);
      expect(text).not.toContain(MY_PW);
    }
    expect(stored).toContain('Error: exit 2: psql: error: password authentication failed for user admin (pw [REDACTED:password])');
  });
});
