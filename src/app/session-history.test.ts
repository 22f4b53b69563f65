import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionRow } from '../store/sessions.js';
import { FIRST_STEPS, seedSessions } from '../test-support/sessions.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { InputError, invoke } from './operation.js';
import { sessionReplay, sessionThreads, sessionTranscript, threadsOf, transcriptFile } from './session-history.js';

let store: TestStore;
beforeEach(() => {
  store = testStore('2026-03-01T00:00:00.000Z');
  seedSessions(store, store.paths.home);
});
afterEach(() => store.cleanup());

const ctx = () => ({ store, env: {} });

describe('sessions.replay', () => {
  it("steps through a session's observations in order, with kind, time, tool, input and outcome", () => {
    const res = invoke(sessionReplay, ctx(), { session: 's1' });
    expect(res.origin).toBe('observations');
    expect(res.session).toMatchObject({ id: 's1', project_name: 'webapp', summary: 'Added the login page.' });
    expect(res.steps.map((s) => [s.n, s.kind, s.ts])).toEqual(FIRST_STEPS.map((o, i) => [i + 1, o.event, o.ts]));
    expect(res.steps[4]).toMatchObject({ tool: 'Bash', input: 'pnpm test', outcome: 'error', error: '1 test failed: login renders' });
  });

  it('reads the transcript file the store recorded when nothing was captured, and no other file', () => {
    const res = invoke(sessionReplay, ctx(), { session: 's3' });
    expect(res.origin).toBe('transcript');
    expect(res.steps.map((s) => [s.kind, s.tool, s.input, s.outcome])).toEqual([
      ['prompt', '', 'why does the build fail?', 'ok'],
      ['tool', 'Bash', 'pnpm build', 'error'],
    ]);
    const other = join(store.paths.home, 'notes.txt');
    writeFileSync(other, 'not a transcript');
    store.sessions.save({ ...(store.sessions.get('s3') as SessionRow), id: 's4', transcript_path: other });
    expect(invoke(sessionReplay, ctx(), { session: 's4' })).toMatchObject({ origin: 'none', steps: [] });
    expect(transcriptFile('relative/s3.jsonl')).toBeUndefined();
    expect(transcriptFile(store.paths.home)).toBeUndefined();
  });

  it('refuses an unknown session (not found) and a missing or empty one (bad input)', () => {
    expect(() => invoke(sessionReplay, ctx(), { session: 'nope' })).toThrow(/Not found: session nope/);
    expect(() => invoke(sessionReplay, ctx(), { session: ' ' })).toThrow(InputError);
    expect(() => invoke(sessionTranscript, ctx(), {} as never)).toThrow(/session must be text/);
  });
});

describe('sessions.transcript', () => {
  it('groups each prompt with the tool calls after it', () => {
    const { turns } = invoke(sessionTranscript, ctx(), { session: 's1' });
    expect(turns.map((t) => [t.prompt?.input, t.tools.map((s) => `${s.tool}:${s.outcome}`)])).toEqual([
      ['add a login page to the webapp', ['Read:ok', 'Write:ok', 'Bash:error']],
      ['fix the failing test', ['Bash:ok']],
    ]);
  });
});

describe('sessions.threads', () => {
  it('links sessions that continue each other, oldest first; a lone session is no thread', () => {
    const { threads } = invoke(sessionThreads, ctx(), {});
    expect(threads.map((t) => t.sessions.map((s) => s.id))).toEqual([['s1', 's2']]);
    // A recent session continuing one older than the limit still shows its whole thread.
    expect(invoke(sessionThreads, ctx(), { limit: 1 }).threads.map((t) => t.sessions.map((s) => s.id))).toEqual([['s1', 's2']]);
    expect(() => invoke(sessionThreads, ctx(), { limit: 0 })).toThrow(/limit must be a whole number from 1 to 1000/);
  });

  it('keeps branches in their thread and ignores links to unknown sessions', () => {
    const row = (id: string, from: string | null) => ({ id, continues_from: from });
    const threads = threadsOf([row('a', null), row('b', 'a'), row('c', 'a'), row('d', 'gone'), row('e', 'd')]);
    expect(threads.map((t) => t.map((r) => r.id))).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('lists a thread in time order, whatever order the links give', () => {
    const at = (id: string, from: string | null, started_at: string) => ({ id, continues_from: from, started_at });
    const [thread] = threadsOf([at('a', null, '2026-01-23'), at('b', 'a', '2026-01-24'), at('c', 'a', '2026-01-13')]);
    expect(thread?.map((r) => r.id)).toEqual(['c', 'a', 'b']);
  });
});
