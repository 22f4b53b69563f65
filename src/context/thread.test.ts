import { describe, expect, it } from 'vitest';
import { formatThread } from './thread.js';

describe('the last session in one line', () => {
  it("says what the session was about and changed, not the memory's bookkeeping, never with a second full stop", () => {
    const line = formatThread(
      {
        id: 's1',
        when: '2026-02-15T10:00:00.000Z',
        cwd: '/elsewhere',
        summary:
          'Review the e2e tests. 128 tool calls (Read 42, Bash 29), 9 files changed, 5 errors. First prompt: "can you review the e2e tests?" Learned "x". Reinforced 4 instincts. Noted "cli: `go run` only when asked" and "y".',
        files: ['/a/b/c/d.go'],
        tools: [],
      },
      600,
    );
    expect(line).toBe(
      'Last session (2026-02-15): Review the e2e tests. 9 files changed, 5 errors. First prompt: "can you review the e2e tests?". Files: b/c/d.go',
    );
    expect(line).not.toContain('..');
  });

  it('gives the files the room left, whole names only', () => {
    const files = ['/r/cmd/a/one.go', '/r/cmd/a/two.go', '/r/cmd/a/three.go'];
    const s = { id: 's1', when: '2026-02-15T10:00:00.000Z', cwd: '/x', summary: 'Fixed it.', files, tools: [] };
    expect(formatThread(s, 600)).toBe('Last session (2026-02-15): Fixed it. Files: cmd/a/one.go, cmd/a/two.go, cmd/a/three.go');
    const tight = formatThread(s, 70);
    expect(tight).toBe('Last session (2026-02-15): Fixed it. Files: cmd/a/one.go, ...');
    expect(formatThread(s, 40)).toBe('Last session (2026-02-15): Fixed it');
  });

  it('names each file from where the session ran, as the agent finds it there', () => {
    const files = ['/u/dev/cli/CLAUDE.md', '/u/dev/cli/cmd/entire/cli/e2e_test/testenv.go', '/tmp/notes.md'];
    const s = { id: 's1', when: '2026-02-15T10:00:00.000Z', cwd: '/u/dev/cli', summary: 'Fixed it.', files, tools: [] };
    expect(formatThread(s, 600)).toBe(
      'Last session (2026-02-15): Fixed it. Files: CLAUDE.md, cmd/entire/cli/e2e_test/testenv.go, /tmp/notes.md',
    );
  });
});
