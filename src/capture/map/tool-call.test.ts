import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../core/project.js';
import { redactObservation } from '../redact.js';
import { absolutePath, patchFiles } from './files.js';
import { resultFacts } from './outcome.js';
import { type ToolCall, mapToolCall, shellCommand } from './tool-call.js';

const project: ProjectInfo = { fingerprint: '0123456789abcdef', name: 'app', root: '/w/app', remote: null };
const call = (over: Partial<ToolCall>): ToolCall => ({
  source: 'claude-code',
  sessionId: 's1',
  toolUseId: 't1',
  ts: '2026-02-01T10:00:00.000Z',
  cwd: '/w/app',
  tool: 'Bash',
  input: {},
  project,
  ...over,
});

/** A call mapped, then redacted: the observation as it is stored. */
const record = (c: ToolCall) => {
  const m = mapToolCall(c);
  if (m.kind !== 'record') throw new Error(`expected a record, got noise: ${m.reason}`);
  return redactObservation(m.observation);
};

describe('mapping a tool call: per-tool context', () => {
  it('Bash: command as input, description as intent, base command and exit code', () => {
    const o = record(
      call({
        input: { command: 'go test ./...', description: 'Run tests' },
        response: { stdout: 'ok', stderr: '', interrupted: false },
        durationMs: 1234.4,
      }),
    );
    expect(o).toMatchObject({
      event: 'tool',
      tool: 'Bash',
      intent: 'Run tests',
      input: 'go test ./...',
      outcome: 'ok',
      error: '',
      duration_ms: 1234,
      files: [],
    });
    expect(o.data).toEqual({ base_command: 'go test', project_name: 'app' });
  });

  it('Edit/Write: file path (absolute), filename, extension, intent', () => {
    const o = record(
      call({ tool: 'Edit', input: { file_path: 'src/a.test.ts', old_string: 'x', new_string: 'y', description: 'fix typo' } }),
    );
    expect(o.input).toBe('/w/app/src/a.test.ts');
    expect(o.files).toEqual(['/w/app/src/a.test.ts']);
    expect(o.intent).toBe('fix typo');
    expect(o.data).toMatchObject({ filename: 'a.test.ts', extension: 'ts' });
    expect(record(call({ tool: 'MultiEdit', input: { file_path: '/x/Makefile', edits: [{}, {}] } })).data).toMatchObject({
      filename: 'Makefile',
      extension: '',
      edits: 2,
    });
  });

  it('Read: filename for sequence analysis; Grep/Glob: the pattern', () => {
    expect(record(call({ tool: 'Read', input: { file_path: '/w/app/go.mod' } })).data).toMatchObject({
      filename: 'go.mod',
      extension: 'mod',
    });
    const g = record(call({ tool: 'Grep', input: { pattern: 'func Test', path: 'cmd' } }));
    expect(g.input).toBe('func Test in cmd');
    expect(g.data).toMatchObject({ pattern: 'func Test' });
    expect(record(call({ tool: 'Glob', input: { pattern: '**/*.go' } })).data).toMatchObject({ pattern: '**/*.go' });
  });

  it('Task, web and MCP tools keep a useful summary', () => {
    expect(
      record(call({ tool: 'Task', input: { description: 'Explore', prompt: 'find the config loader', subagent_type: 'Explore' } })),
    ).toMatchObject({
      intent: 'Explore',
      input: 'find the config loader',
      data: { subagent_type: 'Explore', project_name: 'app' },
    });
    expect(record(call({ tool: 'mcp__linear__get_issue', input: { id: 'ENT-1' } }))).toMatchObject({
      input: '{"id":"ENT-1"}',
      data: { mcp_server: 'linear' },
    });
  });

  it('Gemini, Codex and Cursor tool shapes', () => {
    expect(record(call({ tool: 'run_shell_command', input: { command: 'pytest -x' } })).data).toMatchObject({ base_command: 'pytest' });
    expect(record(call({ tool: 'Bash', input: { command: ['bash', '-lc', 'cargo build'] } })).input).toBe('cargo build');
    expect(record(call({ tool: 'replace', input: { file_path: '/w/app/x.py', instruction: 'rename' } })).intent).toBe('rename');
    // prettier-ignore
    expect(record(call({ tool: 'apply_patch', input: { input: '*** Begin Patch\n*** Update File: src/lib.rs\n@@\n*** Add File: b.rs\n' } })).files).toEqual([
      '/w/app/src/lib.rs',
      '/w/app/b.rs',
    ]);
    expect(record(call({ tool: 'afterMCP', input: '{"query": "select 1"}' })).input).toBe('{"query":"select 1"}');
  });
});

describe('mapping a tool call: outcome, errors, noise, redaction', () => {
  it('a failed call is an error with a one-line summary and its exit code', () => {
    const o = record(call({ input: { command: 'go test ./...' }, failed: true, error: 'Exit code 1\n--- FAIL: TestX\nFAIL pkg' }));
    expect(o).toMatchObject({ outcome: 'error', error: 'exit 1: --- FAIL: TestX' });
    expect(o.data).toMatchObject({ exit_code: 1 });
  });

  it('a refused call is blocked', () => {
    expect(
      record(call({ tool: 'Edit', input: { file_path: 'a' }, failed: true, error: "The user doesn't want to proceed with this tool use." }))
        .outcome,
    ).toBe('blocked');
  });

  it('reads failure from the response too (exit code, interrupted, success false)', () => {
    expect(resultFacts({ response: { exit_code: 2, stderr: 'boom' } })).toEqual({ outcome: 'error', error: 'boom', exitCode: 2 });
    expect(resultFacts({ response: { interrupted: true } }).outcome).toBe('error');
    expect(resultFacts({ response: { success: false, message: 'nope' } })).toMatchObject({ outcome: 'error', error: 'nope' });
    expect(resultFacts({ response: 'a plain string' })).toEqual({ outcome: 'ok', error: '' });
  });

  it('filters looking-around commands and bookkeeping, unless they failed', () => {
    expect(mapToolCall(call({ input: { command: 'git status' } })).kind).toBe('noise');
    expect(mapToolCall(call({ tool: 'TodoWrite', input: { todos: [] } })).kind).toBe('noise');
    expect(mapToolCall(call({ input: { command: 'git status' }, failed: true, error: 'Exit code 128\nfatal: bad object' })).kind).toBe(
      'record',
    );
  });

  it('redacts secrets in every stored field and truncates long input', () => {
    const secret = ['ghp_', 'Abcdefghijklmnopqrstuvwxyz0123456789'].join('');
    const o = record(
      call({
        input: { command: `curl -H "Authorization: token ${secret}" x && ${'y'.repeat(5000)}`, description: `uses ${secret}` },
        failed: true,
        error: `bad ${secret}`,
      }),
    );
    expect(JSON.stringify(o)).not.toContain(secret);
    expect(o.input?.length).toBeLessThanOrEqual(2000);
  });

  it('survives inputs of the wrong type', () => {
    for (const input of [null, 42, 'str', [1, 2], { command: 7 }, { file_path: {} }]) {
      expect(() => mapToolCall(call({ input, tool: 'Bash' }))).not.toThrow();
      expect(() => mapToolCall(call({ input, tool: 'Edit' }))).not.toThrow();
    }
  });
});

describe('helpers', () => {
  it('absolutePath resolves relative paths against cwd without the filesystem', () => {
    expect(absolutePath('src/../lib/a.ts', '/w/app/')).toBe('/w/app/lib/a.ts');
    expect(absolutePath('/abs', '/w')).toBe('/abs');
    expect(absolutePath('rel', '')).toBe('rel');
  });

  it('shellCommand and patchFiles', () => {
    expect(shellCommand({ command: ['ls', '-la'] })).toBe('ls -la');
    expect(shellCommand({})).toBe('');
    expect(patchFiles('*** Delete File: gone.txt')).toEqual(['gone.txt']);
  });
});
