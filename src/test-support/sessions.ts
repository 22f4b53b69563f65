/** A store's sessions as the dashboard's session sections show them: a thread of two captured sessions and one read from its transcript. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NewObservation } from '../store/observations.js';
import type { SessionRow } from '../store/sessions.js';
import type { Store } from '../store/store.js';

export const PROJECT = 'aaaaaaaaaaaaaaaa';

/** A session row: the fields given, the rest those of an empty webapp session. */
export const sessionRow = (over: Partial<SessionRow> & Pick<SessionRow, 'id' | 'started_at'>): SessionRow => ({
  ...{ source: 'claude-code', project: PROJECT, project_name: 'webapp', cwd: '/nonexistent/webapp', ended_at: null },
  ...{ tools_used: '[]', tool_counts: '{}', files_touched: '[]', summary: '', continues_from: null, transcript_path: null },
  file_name: null,
  ...over,
});

/** The first session's events, in order: 2 prompts, 4 tool calls (one failed), its start and end. */
export const FIRST_STEPS: Omit<NewObservation, 'source' | 'session_id' | 'tool_use_id'>[] = [
  { ts: '2026-02-27T09:00:00.000Z', event: 'session_start', input: 'startup' },
  { ts: '2026-02-27T09:01:00.000Z', event: 'prompt', input: 'add a login page to the webapp' },
  { ts: '2026-02-27T09:02:00.000Z', event: 'tool', tool: 'Read', input: '/nonexistent/webapp/src/app.tsx', files: ['src/app.tsx'] },
  { ts: '2026-02-27T09:03:00.000Z', event: 'tool', tool: 'Write', input: '/nonexistent/webapp/src/login.tsx', files: ['src/login.tsx'] },
  {
    ts: '2026-02-27T09:04:00.000Z',
    event: 'tool',
    tool: 'Bash',
    input: 'pnpm test',
    outcome: 'error',
    error: '1 test failed: login renders',
  },
  { ts: '2026-02-27T09:05:00.000Z', event: 'prompt', input: 'fix the failing test' },
  { ts: '2026-02-27T09:06:00.000Z', event: 'tool', tool: 'Bash', input: 'pnpm test' },
  { ts: '2026-02-27T09:07:00.000Z', event: 'session_end', input: 'exit' },
];

/**
 * Sessions s1 (captured), s2 (captured, continues s1) and s3 (its transcript file only), the
 * latest on 2026-02-28, or `shiftDays` days later (a browser test's server runs on today's clock).
 */
export function seedSessions(store: Store, transcriptDir: string, shiftDays = 0): void {
  const at = (iso: string): string => new Date(Date.parse(iso) + shiftDays * 86_400_000).toISOString();
  store.sessions.save(
    sessionRow({
      id: 's1',
      started_at: at('2026-02-27T09:00:00.000Z'),
      ended_at: at('2026-02-27T09:07:00.000Z'),
      summary: 'Added the login page.',
      tool_counts: '{"Read":1,"Write":1,"Bash":2}',
    }),
  );
  store.sessions.save(
    sessionRow({
      id: 's2',
      started_at: at('2026-02-28T10:00:00.000Z'),
      ended_at: at('2026-02-28T10:30:00.000Z'),
      summary: 'Styled the login page.',
      tool_counts: '{"Edit":1}',
      continues_from: 's1',
    }),
  );
  FIRST_STEPS.forEach((o, i) =>
    store.observations.insert({ ...o, ts: at(o.ts), source: 'claude-code', session_id: 's1', tool_use_id: `s1-${i}` }),
  );
  store.observations.insert({
    ts: at('2026-02-28T10:01:00.000Z'),
    event: 'prompt',
    input: 'style the login page',
    source: 'claude-code',
    session_id: 's2',
    tool_use_id: 's2-0',
  });
  store.observations.insert({
    ts: at('2026-02-28T10:02:00.000Z'),
    event: 'tool',
    tool: 'Edit',
    input: 'src/login.css',
    source: 'claude-code',
    session_id: 's2',
    tool_use_id: 's2-1',
  });
  const transcript = join(transcriptDir, 's3.jsonl');
  const lines = [
    { type: 'user', timestamp: at('2026-02-26T08:00:00.000Z'), sessionId: 's3', message: { content: 'why does the build fail?' } },
    {
      type: 'assistant',
      timestamp: at('2026-02-26T08:01:00.000Z'),
      message: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pnpm build' } }] },
    },
    {
      type: 'user',
      timestamp: at('2026-02-26T08:02:00.000Z'),
      message: { content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'tsc: 2 errors' }] },
    },
  ];
  writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n'));
  store.sessions.save(
    sessionRow({ id: 's3', started_at: at('2026-02-26T08:00:00.000Z'), summary: 'Looked at the build.', transcript_path: transcript }),
  );
}
