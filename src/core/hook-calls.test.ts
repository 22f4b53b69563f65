import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { isHookFailure, parseHookCall, parseHookCalls, parseHookLog, recordHookCall } from './hook-calls.js';

let dir: { path: string; cleanup: () => void } | undefined;
afterEach(() => dir?.cleanup());

const line = (fields: Record<string, unknown>): string =>
  JSON.stringify({ ts: '2026-03-01T10:00:00.000Z', event: 'prompt', agent: 'codex', ms: 12.5, outcome: 'ok', ...fields });

describe('hook call lines', () => {
  it('round-trips what recordHookCall writes, creating the log directory, and cuts long words', () => {
    dir = tempDir('hom-calls-');
    const path = join(dir.path, 'logs', 'hook-calls.jsonl');
    recordHookCall(path, { event: 'stop', agent: 'gemini', ms: 41.26, outcome: 'timeout' }, new Date('2026-03-01T10:00:00Z'));
    recordHookCall(path, { event: 'x'.repeat(100), agent: 'codex', ms: 3, outcome: 'ok' });
    const { calls, skipped } = parseHookCalls(readFileSync(path, 'utf8'));
    expect(skipped).toBe(0);
    expect(calls[0]).toEqual({ ts: '2026-03-01T10:00:00.000Z', event: 'stop', agent: 'gemini', ms: 41.3, outcome: 'timeout' });
    expect(calls[1]?.event).toHaveLength(64);
  });

  it('never throws when the log cannot be written', () => {
    dir = tempDir('hom-calls-');
    const file = join(dir.path, 'file');
    writeFileSync(file, '');
    expect(() => recordHookCall(join(file, 'logs', 'calls.jsonl'), { event: 'stop', agent: 'codex', ms: 1, outcome: 'ok' })).not.toThrow();
  });

  it('skips every malformed line and keeps the valid ones in order', () => {
    const text = [
      line({ event: 'start' }),
      'not json',
      '[1,2]',
      'null',
      line({ ms: -1 }),
      line({ ms: 'fast' }),
      line({ outcome: 'maybe' }),
      line({ ts: 'yesterday' }),
      line({ event: '' }),
      line({ agent: 'a'.repeat(65) }),
      '',
      line({ event: 'stop', outcome: 'failed' }),
    ].join('\n');
    const { calls, skipped } = parseHookCalls(text);
    expect(calls.map((c) => `${c.event}:${c.outcome}`)).toEqual(['start:ok', 'stop:failed']);
    expect(skipped).toBe(9);
    expect(parseHookCall(line({}))).toMatchObject({ event: 'prompt', agent: 'codex', ms: 12.5 });
  });
});

describe('the failure log', () => {
  it('reads each entry by its time, leaves stack lines out, and tells failures from notes', () => {
    const text = [
      '2026-03-01T10:00:00.000Z prompt (codex) failed: database is locked',
      '  at open (store.js:1:1)',
      '2026-03-01T10:01:00.000Z start (claude-code): payload of 9 bytes is not complete JSON; repaired',
      '2026-03-01T10:02:00.000Z stop: not recorded: disk full',
      'garbage',
    ].join('\n');
    const entries = parseHookLog(text);
    expect(entries.map((e) => e.ts)).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T10:01:00.000Z', '2026-03-01T10:02:00.000Z']);
    expect(entries[0]?.message).toBe('prompt (codex) failed: database is locked');
    expect(entries.filter(isHookFailure).map((e) => e.ts)).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T10:02:00.000Z']);
  });
});
