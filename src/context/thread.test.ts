import { describe, expect, it } from 'vitest';
import { formatThread } from './thread.js';

describe('the last session in one line', () => {
  it('joins its parts as sentences, never with a second full stop', () => {
    const line = formatThread(
      {
        id: 's1',
        when: '2026-02-15T10:00:00.000Z',
        summary: 'Learned "x". Noted "cli: `go run` only when asked".',
        files: ['/a/b/c/d.go'],
        tools: [],
      },
      600,
    );
    expect(line).toBe('Last session (2026-02-15): Learned "x". Noted "cli: `go run` only when asked". Files: b/c/d.go');
    expect(line).not.toContain('..');
  });
});
