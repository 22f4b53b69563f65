/**
 * Real payloads captured from the clients (fixtures/, named by client and version): a shell
 * call that succeeds, one that fails with `exit 3`, prompts that echo injected context.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../core/project.js';
import { tempDir } from '../test-support/cli.js';
import type { Agent, HookInput } from './agents.js';
import { toolObservation } from './build.js';
import { rolloutFacts, withCodexRollout } from './codex-rollout.js';
import { MEMORY_HEADER, markInjected, stripInjected } from './injected.js';
import { normalise } from './normalise.js';

type Payload = Record<string, unknown>;
const fixture = (name: string): { payloads: Payload[]; rollout?: unknown[] } =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as { payloads: Payload[]; rollout?: unknown[] };

const NOW = '2026-11-23T21:00:00.000Z';
const project: ProjectInfo = { fingerprint: '0123456789abcdef', name: 'proj', root: '/home/user/proj', remote: null };
const scratch = tempDir('hom-payloads-');
afterAll(() => scratch.cleanup());

const codex = fixture('codex-0.169.0.json');
const gemini = fixture('gemini-0.61.0.json');
const toolPayload = (payloads: Payload[], command: string): Payload => {
  const p = payloads.find((x) => (x.tool_input as { command?: string } | undefined)?.command === command);
  if (!p) throw new Error(`no payload for ${command}`);
  return p;
};
const observe = (payload: Payload, agent: Agent) => {
  const built = toolObservation(withCodexRollout(normalise(payload, agent, NOW)).at(-1) as HookInput, project);
  if (!('observation' in built)) throw new Error(built.detail);
  return built.observation;
};

describe('Codex CLI 0.169.0 payloads', () => {
  const rollout = join(scratch.path, 'rollout.jsonl');
  writeFileSync(rollout, `${(codex.rollout ?? []).map((l) => JSON.stringify(l)).join('\n')}\n`);
  const withRollout = (p: Payload): Payload => ({ ...p, transcript_path: rollout });

  it('reads the exit code Codex leaves out of the payload from its rollout', () => {
    const failing = toolPayload(codex.payloads, 'echo oops >&2; exit 3');
    expect(failing.tool_response).toBe('oops\n');
    expect(observe(withRollout(failing), 'codex')).toMatchObject({
      tool: 'Bash',
      input: 'echo oops >&2; exit 3',
      outcome: 'error',
      error: 'exit 3: oops',
      data: { exit_code: 3 },
    });
    const ok = observe(withRollout(toolPayload(codex.payloads, 'touch notes.txt')), 'codex');
    expect(ok).toMatchObject({ outcome: 'ok', data: { exit_code: 0 } });
    expect(ok.tool_use_id).toMatch(/^call_\d+$/);
  });

  it('without a readable rollout, a string that states its exit code still counts', () => {
    const failing = { ...toolPayload(codex.payloads, 'echo oops >&2; exit 3'), transcript_path: join(scratch.path, 'gone.jsonl') };
    expect(observe(failing, 'codex').outcome).toBe('ok');
    const stated = { ...failing, tool_response: 'Chunk ID: a\nProcess exited with code 2\nOutput:\nboom\n' };
    expect(observe(stated, 'codex')).toMatchObject({ outcome: 'error', data: { exit_code: 2 } });
  });

  it('finds the code for the right call only', () => {
    const tail = (codex.rollout ?? []).map((l) => JSON.stringify(l)).join('\n');
    const id = (command: string) => toolPayload(codex.payloads, command).tool_use_id as string;
    const code = (t: string, callId: string) => rolloutFacts(t, callId).exitCode;
    expect(code(tail, id('echo oops >&2; exit 3'))).toBe(3);
    expect(code(tail, id('touch notes.txt'))).toBe(0);
    expect(code(tail, 'call_99')).toBeUndefined();
    expect(code('not json call_2 exit_code\n', 'call_2')).toBeUndefined();
  });

  it('records a patch the model ran through the shell, which Codex applies itself without a hook, before the call that saw it', () => {
    // Codex 0.169's rollout: a FileChange item for `apply_patch <<'PATCH'` run in exec_command, then the lint that passed.
    const item = (i: Record<string, unknown>) => JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', item: i } });
    const lines = [
      item({ type: 'UserMessage', id: 'u1', content: [] }),
      item({ type: 'CommandExecution', id: 'call_1', command: ['/bin/bash', '-lc', 'pnpm lint'], status: 'failed', exit_code: 1 }),
      item({
        type: 'FileChange',
        id: 'call_2',
        changes: { '/w/src/math.ts': { type: 'update' } },
        status: 'completed',
        stdout: 'Success.',
      }),
      item({ type: 'CommandExecution', id: 'call_3', command: ['/bin/bash', '-lc', 'pnpm lint'], status: 'completed', exit_code: 0 }),
    ];
    const tail = `${lines.join('\n')}\n`;
    const patches = (callId: string, t = tail) => rolloutFacts(t, callId).patches;
    expect(patches('call_3')).toEqual([{ id: 'call_2', files: ['/w/src/math.ts'], ok: true, output: 'Success.' }]);
    // The lint before the patch saw none; a call the rollout does not have yet sees those since the last call.
    expect(patches('call_1')).toEqual([]);
    expect(patches('call_9').map((p) => p.id)).toEqual([]);
    // Later calls already in the rollout change nothing for this one; a call not written yet sees a patch at the end.
    const later = item({ type: 'FileChange', id: 'call_4', changes: { '/w/b.ts': {} }, status: 'completed', stdout: '' });
    expect(patches('call_3', `${tail}${later}\n`).map((p) => p.id)).toEqual(['call_2']);
    expect(patches('call_5', `${tail}${later}\n`).map((p) => p.id)).toEqual(['call_4']);
    expect(rolloutFacts(tail, 'call_3').exitCode).toBe(0);
    const path = join(scratch.path, 'patched.jsonl');
    writeFileSync(path, tail);
    const lint = { ...toolPayload(codex.payloads, 'touch notes.txt'), tool_use_id: 'call_3', transcript_path: path };
    const calls = withCodexRollout(normalise(lint, 'codex', NOW));
    expect(calls.map((c) => c.tool?.name)).toEqual(['apply_patch', 'Bash']);
    expect(Date.parse(calls[0]?.ts ?? '')).toBeLessThan(Date.parse(calls[1]?.ts ?? ''));
    const built = toolObservation(calls[0] as HookInput, project);
    expect('observation' in built && built.observation).toMatchObject({
      tool: 'apply_patch',
      tool_use_id: 'call_2',
      files: ['/w/src/math.ts'],
      outcome: 'ok',
    });
  });

  it('maps its session events', () => {
    const end = codex.payloads.find((p) => p.hook_event_name === 'SessionEnd') as Payload;
    expect(normalise(end, 'codex', NOW)).toMatchObject({ event: 'SessionEnd', reason: 'other' });
    const prompt = codex.payloads.find((p) => p.hook_event_name === 'UserPromptSubmit') as Payload;
    expect(normalise(prompt, undefined, NOW)).toMatchObject({ agent: 'codex', prompt: 'create the notes file' });
  });

  it('reads the files of an apply_patch call', () => {
    const patch: Payload = {
      ...toolPayload(codex.payloads, 'touch notes.txt'),
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n' },
      tool_response: '',
    };
    expect(observe(patch, 'codex')).toMatchObject({ tool: 'apply_patch', files: ['/home/user/proj/hello.txt'], outcome: 'ok' });
  });
});

describe('Gemini CLI 0.61.0 payloads', () => {
  it('reads the exit code inside llmContent', () => {
    const failing = toolPayload(gemini.payloads, 'echo oops >&2; exit 3');
    expect(observe(failing, 'gemini')).toMatchObject({ outcome: 'error', error: 'exit 3: oops', data: { exit_code: 3 } });
    expect(observe(toolPayload(gemini.payloads, 'touch notes.txt'), 'gemini').outcome).toBe('ok');
  });

  it('takes an error object as a failure', () => {
    const p = {
      ...toolPayload(gemini.payloads, 'touch notes.txt'),
      tool_response: { llmContent: 'x', error: { message: 'File not found' } },
    };
    expect(observe(p, 'gemini')).toMatchObject({ outcome: 'error', error: 'File not found' });
  });

  it('leaves the session-start context it echoes out of the prompt', () => {
    for (const event of ['BeforeAgent', 'AfterAgent']) {
      const p = gemini.payloads.find((x) => x.hook_event_name === event) as Payload;
      expect(p.prompt).toContain(MEMORY_HEADER);
      expect(normalise(p, 'gemini', NOW).prompt).toBe('create the notes file');
    }
  });
});

describe('injected context', () => {
  it('is marked once and recognised wherever it is echoed', () => {
    const block = markInjected('Homunculus memory for proj:\n- 0.50 use pnpm');
    expect(block.split('\n')[0]).toBe(MEMORY_HEADER);
    expect(markInjected(block)).toBe(block);
    expect(markInjected('')).toBe('');
    expect(stripInjected(`<hook_context>${block}</hook_context>\n\nfix the test`)).toBe('fix the test');
    expect(stripInjected(`${block}\n[END HOMUNCULUS MEMORY]\nfix the test`)).toBe('fix the test');
    expect(stripInjected(`fix it\n\n${block}`)).toBe('fix it');
    expect(stripInjected(block)).toBe('');
    expect(stripInjected('plain prompt  ')).toBe('plain prompt  ');
    // The user's own words about the header are theirs (they were cut to "Why does").
    const asked = `Why does ${MEMORY_HEADER} show up twice in my context?`;
    expect(stripInjected(asked)).toBe(asked);
    expect(stripInjected(`${MEMORY_HEADER} shows up twice, why?`)).toBe(`${MEMORY_HEADER} shows up twice, why?`);
    expect(stripInjected(`${asked}\n\n${block}`)).toBe(asked);
    // A fenced block as the context hooks render it: it ends at its closing tag.
    const fenced = `${MEMORY_HEADER} Data recorded in earlier sessions.\n<homunculus-memory-0123456789abcdef>\n- use pnpm\n</homunculus-memory-0123456789abcdef>`;
    expect(stripInjected(`<hook_context>${fenced}</hook_context>\nfix the test`)).toBe('fix the test');
    expect(stripInjected(`${fenced}\nfix the test`)).toBe('fix the test');
  });
});
