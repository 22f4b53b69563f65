import { describe, expect, it } from 'vitest';
import type { ObservationRow } from '../store/observations.js';
import { checkObservation, relativeToCwd } from './observation.js';

const now = new Date('2026-03-10T12:00:00Z');

function row(over: Partial<ObservationRow>): ObservationRow {
  return {
    id: 1,
    source: 'claude-code',
    session_id: 's1',
    tool_use_id: 'toolu_1',
    ts: '2026-03-10T11:00:00.000Z',
    event: 'tool',
    project: 'p',
    cwd: '/repo',
    tool: 'Bash',
    intent: '',
    input: 'mise run lint',
    files: '[]',
    outcome: 'ok',
    error: '',
    duration_ms: 1200,
    data: '{"project_name":"demo","exit_code":0}',
    processed_at: null,
    ...over,
  };
}

describe('checkObservation', () => {
  it('accepts a contract row and reads its data', () => {
    const checked = checkObservation(row({}), now);
    expect(checked).toMatchObject({
      ok: true,
      obs: { sessionId: 's1', projectName: 'demo', exitCode: 0, outcome: 'ok', processed: false },
    });
  });

  it('treats a non-zero exit code as an error even if the outcome says ok', () => {
    expect(checkObservation(row({ data: '{"exit_code":2}' }), now)).toMatchObject({ ok: true, obs: { outcome: 'error', exitCode: 2 } });
  });

  it('treats a piped command that printed failures as failed: the pipe hid its exit code', () => {
    const lint = { tool: 'Bash', input: 'mise run lint 2>&1 | tail -20', error: 'a.go:1:2: x is unused (unused)' };
    expect(checkObservation(row(lint), now)).toMatchObject({ ok: true, obs: { outcome: 'error' } });
    expect(checkObservation(row({ ...lint, input: 'mise run lint' }), now)).toMatchObject({ ok: true, obs: { outcome: 'ok' } });
    expect(checkObservation(row({ ...lint, input: 'cat lint.log | tail' }), now)).toMatchObject({ ok: true, obs: { outcome: 'ok' } });
  });

  it.each([
    [{ session_id: '' }, 'missing session_id'],
    [{ tool_use_id: ' ' }, 'missing tool_use_id'],
    [{ ts: 'yesterday' }, 'unparseable timestamp'],
    [{ ts: '1970-01-01T00:00:00Z' }, 'timestamp out of range'],
    [{ ts: '2031-01-01T00:00:00Z' }, 'timestamp out of range'],
    [{ event: 'dance' }, 'unknown event "dance"'],
    [{ tool: '' }, 'tool event without a tool name'],
    [{ event: 'prompt', tool: '', input: '  ' }, 'prompt without text'],
    [{ input: 'x'.repeat(50_000) }, 'absurd input size'],
    [{ error: 'e'.repeat(6_000) }, 'absurd error size'],
    [{ files: '{"a":1}' }, 'files is not a JSON array of strings'],
    [{ files: 'not json' }, 'files is not a JSON array of strings'],
    [{ data: '[1]' }, 'data is not a JSON object'],
    [{ duration_ms: -5 }, 'absurd duration'],
    [{ duration_ms: 30 * 86_400_000 }, 'absurd duration'],
  ] as [Partial<ObservationRow>, string][])('skips %o: %s', (over, reason) => {
    expect(checkObservation(row(over), now)).toEqual({ ok: false, reason });
  });
});

describe('relativeToCwd', () => {
  it('keeps paths inside the working directory only', () => {
    expect(relativeToCwd('/repo/src/a.ts', '/repo')).toBe('src/a.ts');
    expect(relativeToCwd('/repo/src/a.ts', '/repo/')).toBe('src/a.ts');
    expect(relativeToCwd('/other/a.ts', '/repo')).toBeUndefined();
    expect(relativeToCwd('./src/a.ts', '/repo')).toBe('src/a.ts');
    expect(relativeToCwd('', '/repo')).toBeUndefined();
  });
});
