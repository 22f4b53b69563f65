import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SessionEvent, readTranscript } from './events.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const GHP = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
const PW = ['Hunter2', '-x9Q'].join('');

const at = (type: string, content: unknown): string =>
  JSON.stringify({ type, sessionId: 's', cwd: '/w', timestamp: '2026-02-01T10:00:00Z', message: { content } });

/** The events readTranscript reads from a transcript of these lines. */
function eventsOf(lines: readonly string[]): SessionEvent[] {
  const dir = mkdtempSync(join(tmpdir(), 'homunculus-events-'));
  try {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return readTranscript(file).events;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('reading a transcript for the graph', () => {
  it('redacts prompts, tool inputs, the base command and errors as it reads them', () => {
    const text = JSON.stringify(
      eventsOf([
        at('user', `deploy, my password is ${PW}`),
        at('assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `./${GHP}.sh`, description: 'run' } }]),
        at('user', [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: `Exit code 1\nbad token ${GHP}` }]),
        at('assistant', [{ type: 'tool_use', id: 't2', name: 'mcp__db__connect', input: { password: 'plainword' } }]),
      ]),
    );
    for (const secret of [PW, GHP, 'plainword']) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:token].sh');
  });

  it("hides in a call's error what its input hid: the password a failing command prints again", () => {
    const [call] = eventsOf([
      at('assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `psql postgresql://admin:${PW}@db/app` } }]),
      at('user', [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: `Exit code 2\nauth failed (pw ${PW})` }]),
    ]);
    expect(call?.error).toBe('Exit code 2\nauth failed (pw [REDACTED:password])');
  });
});
