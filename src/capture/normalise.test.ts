import { describe, expect, it } from 'vitest';
import { hookForEvent } from './agents.js';
import { detectAgent, normalise } from './normalise.js';

const NOW = '2026-03-01T00:00:00.000Z';

describe('normalise', () => {
  it('reads Claude Code payloads, old and new', () => {
    const full = normalise(
      {
        session_id: 's',
        cwd: '/w',
        transcript_path: '/t',
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_response: { stdout: '' },
        tool_use_id: 'tu',
        duration_ms: 12,
        permission_mode: 'default',
        new_field: 1,
      },
      undefined,
      NOW,
    );
    expect(full).toMatchObject({
      agent: 'claude-code',
      event: 'PostToolUse',
      sessionId: 's',
      cwd: '/w',
      ts: NOW,
      transcriptPath: '/t',
      tool: { name: 'Bash', toolUseId: 'tu', failed: false, durationMs: 12 },
    });
    const failure = normalise(
      { session_id: 's', hook_event_name: 'PostToolUseFailure', tool_name: 'Edit', tool_input: {}, tool_use_id: 'x', error: 'boom' },
      undefined,
      NOW,
    );
    expect(failure.tool).toMatchObject({ failed: true, error: 'boom' });
    const old = normalise({ session_id: 's', tool_name: 'Read', tool_input: { file_path: 'a' } }, undefined, NOW);
    expect(old.tool?.toolUseId).toMatch(/^derived:[0-9a-f]{24}$/);
    expect(normalise({ session_id: 's', hook_event_name: 'SessionStart', source: 'resume' }, undefined, NOW).reason).toBe('resume');
  });

  it('tolerates wrong types and non-objects', () => {
    for (const p of [null, 3, 'x', [], { session_id: 5, cwd: [], tool_name: {}, prompt: 7, timestamp: 'nope' }]) {
      const n = normalise(p, undefined, NOW);
      expect(n.sessionId).toBe('');
      expect(n.tool).toBeUndefined();
      expect(n.ts).toBe(NOW);
    }
  });

  it('detects Gemini, Cursor and Codex payloads', () => {
    expect(detectAgent({ hook_event_name: 'AfterTool' })).toBe('gemini');
    expect(detectAgent({ hook_event_name: 'afterFileEdit' })).toBe('cursor');
    expect(detectAgent({ conversation_id: 'c' })).toBe('cursor');
    expect(detectAgent({ hook_event_name: 'PostToolUse', turn_id: 't' })).toBe('codex');
    expect(detectAgent({ hook_event_name: 'PostToolUse' })).toBe('claude-code');
    const afterTool = () => ({
      session_id: 's',
      hook_event_name: 'AfterTool',
      timestamp: '2026-02-02T02:02:02Z',
      tool_name: 'write_file',
      tool_input: { file_path: 'a' },
    });
    const g = normalise(afterTool(), undefined, NOW);
    expect(g).toMatchObject({ agent: 'gemini', ts: '2026-02-02T02:02:02.000Z' });
    // Gemini's derived ids are stable for a replayed event.
    expect(normalise(afterTool(), undefined, NOW).tool?.toolUseId).toBe(g.tool?.toolUseId);
  });

  it('maps Cursor events onto tool calls', () => {
    const c = normalise(
      {
        conversation_id: 'c',
        generation_id: 'g',
        hook_event_name: 'afterMCPExecution',
        workspace_roots: ['/w'],
        tool_name: 'db_query',
        tool_input: '{"q":1}',
        result_json: '{}',
        duration: 5,
      },
      undefined,
      NOW,
    );
    expect(c).toMatchObject({ agent: 'cursor', sessionId: 'c', cwd: '/w', tool: { name: 'db_query', input: '{"q":1}', durationMs: 5 } });
  });

  it('names the hook of every agent event', () => {
    expect(
      ['PostToolUse', 'AfterTool', 'afterShellExecution', 'SessionEnd', 'BeforeAgent', 'beforeSubmitPrompt', 'observe', 'nonsense'].map(
        hookForEvent,
      ),
    ).toEqual(['observe', 'observe', 'observe', 'stop', 'prompt', 'prompt', 'observe', undefined]);
  });
});
