import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { invoke } from './operation.js';
import { hookTelemetry, securityReport } from './telemetry.js';

let store: TestStore;
const ctx = () => ({ store, env: {} });
beforeEach(() => (store = testStore('2026-03-01T09:00:00.000Z')));
afterEach(() => store.cleanup());

const line = (event: string, ms: number, outcome = 'ok', ts = '2026-03-01T10:00:00.000Z') =>
  JSON.stringify({ ts, event, agent: 'codex', ms, outcome });

function writeLog(path: string, lines: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${lines.join('\n')}\n`);
}

describe('telemetry.hooks', () => {
  it('reads the call log and its rotated file, skips bad lines, and gives percentiles, failures and the last messages', () => {
    writeLog(`${store.paths.hookCalls}.1`, [line('prompt', 10), line('prompt', 30)]);
    writeLog(store.paths.hookCalls, [
      line('prompt', 20),
      'oops',
      '{"event":"stop"}',
      line('stop', 16_000, 'timeout', '2026-03-01T11:00:00.000Z'),
    ]);
    writeLog(store.paths.hookLog, [
      '2026-03-01T10:59:00.000Z prompt (codex) failed: bad token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB',
      '  at somewhere',
      '2026-03-01T11:00:00.000Z start (codex): payload of 9 bytes is not complete JSON; repaired',
    ]);
    const t = invoke(hookTelemetry, ctx(), {});
    expect(t).toMatchObject({ calls: 4, skipped_lines: 2, since: '2026-03-01T10:00:00.000Z', budget_ms: 15_000 });
    expect(t.events[0]).toMatchObject({ event: 'prompt', calls: 3, p50_ms: 20, p95_ms: 30, failed: 0 });
    expect(t.events[1]).toMatchObject({ event: 'stop', calls: 1, timeout: 1, slow: 1 });
    expect(t.problems.map((p) => [p.event, p.outcome, p.slow])).toEqual([['stop', 'timeout', true]]);
    expect(t.log).toHaveLength(1);
    expect(t.log[0]?.message).toMatch(/^prompt \(codex\) failed: bad token \[REDACTED:/);
    expect(JSON.stringify(t)).not.toContain('ghp_abcdef');
  });

  it('answers with nothing when no hook has run yet', () => {
    expect(invoke(hookTelemetry, ctx(), {})).toMatchObject({ calls: 0, skipped_lines: 0, since: null, events: [], problems: [], log: [] });
  });
});

describe('security.report', () => {
  it('counts redaction marks by kind and place, never returning the text around them', () => {
    const obs = (id: string, event: string, input: string) =>
      store.observations.insert({ source: 'claude-code', session_id: 's', tool_use_id: id, ts: '2026-03-01T10:00:00.000Z', event, input });
    obs('a', 'tool', 'curl -H "Authorization: Bearer [REDACTED:bearer]" https://api.example.com [REDACTED:bearer]');
    obs('b', 'prompt', 'my key is [REDACTED:aws-key] keep it quiet');
    obs('c', 'tool', 'nothing secret here');
    store.documents.upsert(
      [{ id: 'd1', collection: 'notes', title: 'note', text: 'token [REDACTED:aws-key] in a doc' }],
      '2026-03-01T10:00:00.000Z',
    );
    writeLog(store.paths.hookCalls, [line('prompt', 12, 'failed'), line('start', 9)]);

    const r = invoke(securityReport, ctx(), {});
    expect(r.redactions.total).toBe(4);
    expect(r.redactions.kinds).toEqual([
      { kind: 'aws-key', total: 2, places: { observations: 0, prompts: 1, documents: 1 } },
      { kind: 'bearer', total: 2, places: { observations: 2, prompts: 0, documents: 0 } },
    ]);
    expect(JSON.stringify(r)).not.toMatch(/curl|keep it quiet|in a doc/);
    expect(r.hooks).toMatchObject({ failed: 1, timeouts: 0, slow: 0, budget_ms: 15_000 });
    expect(r.hooks.problems.map((p) => p.event)).toEqual(['prompt']);
  });
});
