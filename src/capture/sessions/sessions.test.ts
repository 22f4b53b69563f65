import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../core/frontmatter.js';
import { testStore } from '../../test-support/store.js';
import { sessionFacts, summaryText } from './facts.js';
import {
  ARCHIVED_DIR,
  type SessionRow,
  archiveSessions,
  renderSessionFile,
  renderSessionMarkdown,
  sessionFileName,
  sessionFilePath,
} from './files.js';

const row = (over: Record<string, string>) => ({
  ts: '2026-01-01T10:00:00.000Z',
  event: 'tool',
  tool: 'Bash',
  files: '[]',
  outcome: 'ok' as const,
  input: '',
  cwd: '/w',
  ...over,
});

describe('session facts and text', () => {
  it('counts tools, keeps changed files in order, errors and prompts', () => {
    const facts = sessionFacts(
      [
        row({ event: 'prompt', input: 'fix the loader', ts: '2026-01-01T09:59:00.000Z' }),
        row({ tool: 'Edit', files: '["/w/a.ts"]' }),
        row({ tool: 'Read', files: '["/w/b.ts"]' }),
        row({ tool: 'Edit', files: '["/w/c.ts"]', outcome: 'blocked' }),
        row({ tool: 'Bash', outcome: 'error', ts: '2026-01-01T10:05:00.000Z' }),
        row({ tool: 'Edit', files: '["/w/a.ts"]' }),
      ],
      '2026-01-01T10:01:00.000Z',
    );
    expect(facts).toEqual({
      startedAt: '2026-01-01T09:59:00.000Z',
      endedAt: '2026-01-01T10:05:00.000Z',
      toolCounts: { Edit: 3, Read: 1, Bash: 1 },
      toolsUsed: ['Edit', 'Bash', 'Read'],
      filesTouched: ['/w/a.ts'],
      errors: 1,
      blocked: 1,
      prompts: ['fix the loader'],
    });
    expect(summaryText(facts, 'Loader fix')).toBe(
      'Loader fix. 5 tool calls (Edit 3, Bash 1, Read 1), 1 file changed, 1 error, 1 blocked. First prompt: "fix the loader"',
    );
    expect(summaryText(sessionFacts([], '2026-01-01T00:00:00Z'))).toBe('0 tool calls, 0 files changed.');
  });

  it('counts the files a shell command wrote by redirection or tee, resolved against its folder', () => {
    const shell = (input: string, over: Record<string, string> = {}) => row({ tool: 'Bash', input, ...over });
    const facts = sessionFacts(
      [
        shell('echo hello > out.txt'),
        shell('npm test 2>&1 | tee -a logs/test.log'),
        shell('echo "a > b" > /dev/null'),
        shell('date >> ../notes.md', { cwd: '/w/sub' }),
        shell('echo gone > never.txt', { outcome: 'error' }),
        row({ tool: 'exec_command', input: 'printf x >| codex.txt' }),
      ],
      '2026-01-01T10:01:00.000Z',
    );
    expect(facts.filesTouched).toEqual(['/w/out.txt', '/w/logs/test.log', '/w/notes.md', '/w/codex.txt']);
    expect(summaryText(facts)).toMatch(/, 4 files changed, 1 error\.$/);
  });

  it('names files by start time and session', () => {
    const uuid = '0a1b2c3d-1111-4222-8333-444455556666';
    expect(sessionFileName('2026-02-07T13:14:48.123Z', uuid)).toBe('2026-02-07T131448Z-0a1b2c3d.md');
    expect(sessionFileName('2026-02-07T13:14:48Z', 'abc')).toBe('2026-02-07T131448Z-abc.md');
    expect(sessionFileName('2026-02-07T13:14:48Z', '../../')).toMatch(/^2026-02-07T131448Z-session-[0-9a-f]{8}\.md$/);
  });

  it('never gives two session ids one file, whatever characters they differ in', () => {
    const at = '2026-02-07T13:14:48Z';
    const ids = ['a/b', 'ab', 'a\\b', 'a:b', '../ab', 'session-1', 'session-2', '0a1b2c3d-9999', '0a1b2c3d-8888'];
    const names = ids.map((id) => sessionFileName(at, id));
    expect(new Set(names).size).toBe(ids.length);
    for (const name of names) expect(name).toMatch(/^[\w-]+\.md$/);
  });

  it('renders frontmatter that parses back', () => {
    const md = renderSessionMarkdown(
      {
        id: 's1',
        source: 'claude-code',
        project: 'p',
        project_name: 'app',
        cwd: '/w/app',
        started_at: '2026-01-01T10:00:00.000Z',
        ended_at: '2026-01-01T11:00:00.000Z',
        tools_used: '["Edit","Bash"]',
        tool_counts: '{"Edit":2,"Bash":1}',
        files_touched: '["/w/app/src/a.ts","/elsewhere/b.ts"]',
        summary: 'Did things.',
        continues_from: 's0',
        transcript_path: null,
        file_name: 'x.md',
      },
      '2025-12-31T090000Z-s0.md',
    );
    const { data, body } = parseFrontmatter(md);
    expect(data).toEqual({
      date: '2026-01-01T10:00:00.000Z',
      ended: '2026-01-01T11:00:00.000Z',
      project: 'app',
      directory: '/w/app',
      session_id: 's1',
      source: 'claude-code',
      tools_used: ['Edit', 'Bash'],
      continues_from: '2025-12-31T090000Z-s0.md',
    });
    expect(body).toContain('- Edit: 2');
    expect(body).toContain('- src/a.ts\n- /elsewhere/b.ts');
  });
});

describe('session archive (T2 expiry)', () => {
  const session = (id: string, endedAt: string): SessionRow => ({
    id,
    source: 'claude-code',
    project: 'p1',
    project_name: 'webapp',
    cwd: '/w',
    started_at: endedAt,
    ended_at: endedAt,
    tools_used: '["Bash"]',
    tool_counts: '{"Bash":1}',
    files_touched: '[]',
    summary: 'ran tests',
    continues_from: null,
    transcript_path: null,
    file_name: sessionFileName(endedAt, id),
  });
  it('moves files of sessions that ended more than 30 days ago, once, and writes old sessions straight to the archive', () => {
    const store = testStore('2026-03-01T00:00:00.000Z');
    try {
      const recent = session('recent', '2026-01-30T00:00:01.000Z'); // 29 days 23:59:59 before now
      const old = session('old', '2026-01-29T23:59:59.000Z'); // 30 days and a second
      for (const r of [recent, old]) {
        store.sessions.save(r);
        renderSessionFile(store, r);
      }
      const live = store.paths.sessions;
      const archive = join(store.paths.sessions, ARCHIVED_DIR);
      // Rendered where they belong already: the old one in the archive.
      expect(readdirSync(live).filter((f) => f.endsWith('.md'))).toEqual([recent.file_name]);
      expect(readdirSync(archive)).toEqual([old.file_name]);
      expect(archiveSessions(store)).toBe(0);

      // A day later the recent one is over 30 days old too.
      store.advanceDays(1);
      expect(archiveSessions(store)).toBe(1);
      expect(archiveSessions(store)).toBe(0);
      expect(readdirSync(live).filter((f) => f.endsWith('.md'))).toEqual([]);
      expect(readdirSync(archive).sort()).toEqual([old.file_name, recent.file_name].sort());
      expect(readFileSync(join(archive, recent.file_name as string), 'utf8')).toContain('session_id: recent');
      // Rendering an archived session again updates the archived file, never a second copy.
      renderSessionFile(store, { ...recent, summary: 'ran tests again' });
      expect(readdirSync(live).filter((f) => f.endsWith('.md'))).toEqual([]);
      expect(readFileSync(sessionFilePath(store, recent), 'utf8')).toContain('ran tests again');
    } finally {
      store.cleanup();
    }
  });
});
