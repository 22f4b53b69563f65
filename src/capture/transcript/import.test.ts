import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { cli, tempDir } from '../../test-support/cli.js';
import { pluginHooks, replayInProcess, transcriptHookEvents } from '../../test-support/replay.js';
import { TRANSCRIPTS, hasShared } from '../../test-support/shared.js';
import { runHook } from '../../hooks/run.js';
import { importTranscripts } from './import.js';
import { typedPrompt } from './records.js';

const CORPUS = TRANSCRIPTS;

let dir: { path: string; cleanup: () => void };
beforeEach(() => (dir = tempDir('hom-import-')));
afterEach(() => dir.cleanup());

const base = { sessionId: 'sess-1', cwd: '/work/app', version: '2.1.30', isSidechain: false, userType: 'external' };
const t = (s: number): string => new Date(Date.UTC(2026, 0, 10, 9, 0, s)).toISOString();

/** A transcript with every record type Claude Code writes. */
function fixture(): string[] {
  const use = (id: string, name: string, input: object, s: number) => ({
    ...base,
    type: 'assistant',
    timestamp: t(s),
    message: { id: `m${s}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  });
  const result = (id: string, s: number, content: string, extra: object = {}, isError = false) => ({
    ...base,
    type: 'user',
    timestamp: t(s),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }] },
    ...extra,
  });
  const records: object[] = [
    { type: 'summary', summary: 'Fix the config loader', leafUuid: 'x' },
    { type: 'file-history-snapshot', messageId: 'm0', snapshot: {}, isSnapshotUpdate: false },
    {
      ...base,
      type: 'progress',
      timestamp: t(0),
      data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:resume' },
    },
    { ...base, type: 'user', uuid: 'x', timestamp: t(1), message: { role: 'user', content: 'the config loader ignores env vars, fix it' } },
    {
      ...base,
      type: 'assistant',
      timestamp: t(2),
      message: { id: 'm2', role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }] },
    },
    use('tu1', 'Read', { file_path: '/work/app/src/config.ts' }, 3),
    result('tu1', 4, 'file body', { toolUseResult: { type: 'text', file: { filePath: '/work/app/src/config.ts' } } }),
    use('tu2', 'Bash', { command: 'npm test', description: 'Run tests' }, 5),
    { ...base, type: 'progress', timestamp: t(6), data: { type: 'bash_progress', output: '...' } },
    result('tu2', 8, 'Exit code 1\nFAIL src/config.test.ts', { toolUseResult: 'Error: Exit code 1' }, true),
    use('tu3', 'Edit', { file_path: '/work/app/src/config.ts', old_string: 'a', new_string: 'b' }, 9),
    result('tu3', 10, "The user doesn't want to proceed with this tool use.", {}, true),
    use('tu4', 'Bash', { command: 'git status' }, 11),
    result('tu4', 12, 'clean', { toolUseResult: { stdout: 'clean', stderr: '', interrupted: false } }),
    { ...base, type: 'system', subtype: 'turn_duration', timestamp: t(13), durationMs: 100 },
    {
      ...base,
      type: 'user',
      timestamp: t(14),
      message: {
        role: 'user',
        content: '<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>42</command-args>',
      },
    },
    {
      ...base,
      type: 'user',
      timestamp: t(15),
      message: { role: 'user', content: '<command-name>/exit</command-name><command-args></command-args>' },
    },
    { ...base, type: 'user', timestamp: t(16), message: { role: 'user', content: '<local-command-stdout>Bye!</local-command-stdout>' } },
    {
      ...base,
      type: 'user',
      timestamp: t(17),
      isMeta: true,
      message: { role: 'user', content: [{ type: 'text', text: 'Base directory for this skill' }] },
    },
    { type: 'queue-operation', operation: 'enqueue', timestamp: t(18), sessionId: 'sess-1', content: 'later' },
    { type: 'pr-link', prNumber: 7, prUrl: 'https://x/7', sessionId: 'sess-1', timestamp: t(19) },
    use('tu5', 'Write', { file_path: 'src/new.ts', content: 'x' }, 20),
  ];
  return [
    ...records.map((r) => JSON.stringify(r)),
    '{"type": "user", "message": {"content": "cut sh',
    JSON.stringify({ ...base, type: 'user', timestamp: t(21), message: { role: 'user', content: 'yes' } }),
  ];
}

describe('import-transcripts', () => {
  it('reports a named pipe as not a transcript instead of waiting on it forever', async () => {
    const fifo = join(dir.path, 'pipe.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const store = openStore({ home: join(dir.path, 'home') });
    try {
      const r = await importTranscripts(store, [fifo]);
      expect(r.unreadable_files).toEqual([
        { file: fifo, reason: 'it is a named pipe (FIFO), not a regular file (give a transcript file)' },
      ]);
    } finally {
      store.close();
    }
  }, 10_000);

  it('keeps the record appended after a cut-short one on the same line (the summary Claude Code writes on exit)', async () => {
    const file = join(dir.path, 'cut.jsonl');
    // The summary, first in the fixture, moved to the end of the file, after a write cut short.
    const [summary, ...rest] = fixture();
    writeFileSync(file, [...rest.slice(0, -2), `${rest.at(-2) ?? ''}${summary ?? ''}`, rest.at(-1)].join('\n'));
    const store = openStore({ home: join(dir.path, 'home') });
    try {
      expect(await importTranscripts(store, [file])).toMatchObject({ malformed_lines: 1, sessions: 1 });
      expect(store.sessions.get('sess-1')?.summary).toMatch(/^Fix the config loader\. /);
    } finally {
      store.close();
    }
  });

  it('maps every record type: prompts, tool calls with outcomes, noise, malformed and unfinished lines, the session summary', async () => {
    const file = join(dir.path, 'sess-1.jsonl');
    writeFileSync(file, fixture().join('\n'));
    const store = openStore({ home: join(dir.path, 'home') });
    try {
      const r = await importTranscripts(store, [file]);
      expect(r).toMatchObject({
        files: 1,
        imported_files: 1,
        tool_calls: 4,
        noise: 1,
        prompts: 3,
        malformed_lines: 1,
        // The line cut short, second to last: named by file and line so it can be looked at.
        malformed_at: [{ file, line: fixture().length - 1 }],
        unfinished_tool_calls: 1,
        sessions: 1,
        new_sessions: 1,
      });
      expect(Object.keys(r.records_by_type).sort()).toEqual([
        'assistant',
        'file-history-snapshot',
        'pr-link',
        'progress',
        'queue-operation',
        'summary',
        'system',
        'user',
      ]);
      const rows = store.observations.forSession('sess-1');
      expect(store.observations.count()).toBe(rows.length);
      expect(
        rows.map(({ event, tool, input, outcome, error, duration_ms }) => ({ event, tool, input, outcome, error, duration_ms })),
      ).toEqual([
        { event: 'session_start', tool: '', input: 'resume', outcome: 'ok', error: '', duration_ms: null },
        { event: 'prompt', tool: '', input: 'the config loader ignores env vars, fix it', outcome: 'ok', error: '', duration_ms: null },
        { event: 'tool', tool: 'Read', input: '/work/app/src/config.ts', outcome: 'ok', error: '', duration_ms: 1000 },
        { event: 'tool', tool: 'Bash', input: 'npm test', outcome: 'error', error: 'exit 1: FAIL src/config.test.ts', duration_ms: 3000 },
        {
          event: 'tool',
          tool: 'Edit',
          input: '/work/app/src/config.ts',
          outcome: 'blocked',
          error: 'rejected by the user',
          duration_ms: 1000,
        },
        { event: 'prompt', tool: '', input: '/review 42', outcome: 'ok', error: '', duration_ms: null },
        { event: 'prompt', tool: '', input: 'yes', outcome: 'ok', error: '', duration_ms: null },
        { event: 'session_end', tool: '', input: 'transcript', outcome: 'ok', error: '', duration_ms: null },
      ]);
      const session = store.sessions.get('sess-1');
      expect(session?.summary).toMatch(/^Fix the config loader\. 3 tool calls/);
      expect(session?.transcript_path).toBe(file);
      expect(session?.started_at).toBe(t(0));
      expect(readdirSync(store.paths.sessions)).toHaveLength(1);

      // Idempotent: unchanged files are skipped; forced re-reads add nothing.
      expect(await importTranscripts(store, [file])).toMatchObject({ unchanged_files: 1, observations_new: 0 });
      expect(await importTranscripts(store, [file], { force: true })).toMatchObject({
        imported_files: 1,
        observations_new: 0,
        observations_existing: 8,
        new_sessions: 0,
      });
    } finally {
      store.close();
    }
  });

  it('resumes: a file that grew is read again and only its new records are added', async () => {
    const file = join(dir.path, 'sess-1.jsonl');
    const lines = fixture();
    writeFileSync(file, lines.slice(0, 10).join('\n'));
    const store = openStore({ home: join(dir.path, 'home') });
    try {
      const first = await importTranscripts(store, [file]);
      writeFileSync(file, lines.join('\n'));
      const second = await importTranscripts(store, [file]);
      const total = store.observations.count();
      expect(first.observations_new + second.observations_new).toBeGreaterThanOrEqual(total);
      expect(total).toBe(8);
      expect(store.sessions.get('sess-1')).toBeDefined();
      expect(readdirSync(store.paths.sessions)).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('adds no second start for a session whose start the live hook recorded at its own moment', async () => {
    const home = join(dir.path, 'home');
    const started = JSON.stringify({
      session_id: 'sess-1',
      cwd: '/work/app',
      hook_event_name: 'SessionStart',
      timestamp: t(0).replace(':00.000Z', ':00.641Z'),
    });
    await runHook('start', started, { home, env: { HOMUNCULUS_NO_LEARN: '1' } });
    const file = join(dir.path, 'sess-1.jsonl');
    writeFileSync(file, fixture().join('\n'));
    const store = openStore({ home });
    try {
      await importTranscripts(store, [file]);
      expect(store.observations.forSession('sess-1').filter((o) => o.event === 'session_start')).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('typedPrompt keeps what the user typed and nothing the client generated', () => {
    const user = (content: unknown, extra: object = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });
    expect(typedPrompt(user('fix it'))).toBe('fix it');
    expect(typedPrompt(user([{ type: 'text', text: 'and test it' }, { type: 'image' }]))).toBe('and test it');
    expect(typedPrompt(user([{ type: 'text', text: '[Request interrupted by user]' }]))).toBeUndefined();
    expect(typedPrompt(user('summary', { isCompactSummary: true }))).toBeUndefined();
    expect(typedPrompt(user('<bash-input>git pull</bash-input>'))).toBeUndefined();
    expect(typedPrompt(user('<command-message>x</command-message> <command-name>/superpowers:brainstorm</command-name>'))).toBe(
      '/superpowers:brainstorm',
    );
    expect(typedPrompt(user([{ type: 'tool_result', tool_use_id: 'a' }]))).toBeUndefined();
    expect(typedPrompt(user(42))).toBeUndefined();
  });
});

describe.runIf(hasShared('import-transcripts on the real corpus'))('import-transcripts on the corpus', () => {
  it('imports every session through the CLI, idempotently, and adds nothing a live replay already stored', async () => {
    const home = join(dir.path, 'home');
    const r1 = cli(home, ['import-transcripts', CORPUS, '--json']);
    expect(r1.status).toBe(0);
    const first = JSON.parse(r1.stdout) as Record<string, number>;
    expect(first).toMatchObject({
      files: 116,
      imported_files: 116,
      tool_calls: 6618,
      malformed_lines: 3,
      unfinished_tool_calls: 7,
      sessions: 116,
    });
    const again = JSON.parse(cli(home, ['import-transcripts', CORPUS, '--json']).stdout) as Record<string, number>;
    expect(again).toMatchObject({ unchanged_files: 116, observations_new: 0 });

    // Live hooks first, then an import of the same transcripts: nothing new.
    const live = join(dir.path, 'live');
    const files = readdirSync(CORPUS)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .slice(0, 3)
      .map((f) => join(CORPUS, f));
    for (const f of files) await replayInProcess(transcriptHookEvents(f), pluginHooks(), { home: live, env: { HOMUNCULUS_NO_LEARN: '1' } });
    const after = JSON.parse(cli(live, ['import-transcripts', ...files, '--json']).stdout) as Record<string, number>;
    expect(after).toMatchObject({ imported_files: 3, observations_new: 0, new_sessions: 0 });
  });

  it('reads ~/.claude/projects by default, quietly when it is quick', () => {
    const home = join(dir.path, 'user');
    const projects = join(home, '.claude', 'projects', '-work-app');
    mkdirSync(projects, { recursive: true });
    writeFileSync(join(projects, 'sess-1.jsonl'), fixture().join('\n'));
    const r = cli(join(home, '.homunculus'), ['import-transcripts'], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Imported 1 of 1 transcript/);
    expect(r.stdout).toMatch(/1 malformed line skipped/);
    // Quick work prints no progress into a pipe.
    expect(r.stderr).toBe('');
    // A file with no JSON in it is no transcript: said, and not counted imported.
    writeFileSync(join(home, 'readme.txt'), 'hello\nworld\n');
    const notOne = cli(join(home, '.homunculus'), ['import-transcripts', join(home, 'readme.txt')]);
    expect(notOne.stdout).toMatch(/Imported 0 of 1 transcript/);
    expect(notOne.stdout).toMatch(/readme\.txt: not a transcript: no line of it is a JSON record/);
    // An empty file, or one holding only a summary line, holds no session: said, and not counted imported.
    writeFileSync(join(home, 'empty.jsonl'), '');
    writeFileSync(join(home, 'summary.jsonl'), '{"type":"summary","summary":"Fix the login","leafUuid":"u1"}\n');
    const none = cli(join(home, '.homunculus'), ['import-transcripts', join(home, 'empty.jsonl'), join(home, 'summary.jsonl')]);
    expect(none.stdout).toMatch(/Imported 0 of 2 transcripts \(0 unchanged since the last import, 2 with no session in them\)/);
    const missing = cli(join(home, '.homunculus'), ['import-transcripts', join(home, 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/No such file or directory/);
  });
});
