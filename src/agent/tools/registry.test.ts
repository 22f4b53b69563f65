import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../test-support/cli.js';
import { readAudit, shortHash, verifyAudit } from '../audit.js';
import { BUILTIN_TOOLS, builtinRegistry } from './builtin.js';
import { type ToolContext, ToolRegistry, defineTool } from './registry.js';

const dir = tempDir('homunculus-registry-');
afterAll(() => dir.cleanup());

let runs = 0;
const dangerous = defineTool({
  name: 'launch',
  description: 'Something that needs a yes.',
  input: z.object({ target: z.string() }).strict(),
  trust: 'external',
  confirm: true,
  run: (_ctx, input) => {
    runs++;
    return { launched: input.target };
  },
});

const base: ToolContext = { workspace: dir.path, home: dir.path, session: 's1' };

describe('the tool registry', () => {
  it('declares seed 001 trust levels and confirmation flags for the built-in tools', () => {
    const declared = Object.fromEntries(BUILTIN_TOOLS.map((t) => [t.name, [t.trust, t.confirm]]));
    expect(declared).toEqual({
      echo: ['trusted', false],
      datetime_now: ['trusted', false],
      workspace_read: ['workspace', false],
      workspace_write: ['workspace', true],
      workspace_list: ['workspace', false],
      shell_exec: ['sandboxed', true],
      web_fetch: ['external', true],
      mqtt_publish: ['external', true],
      mqtt_subscribe: ['external', false],
      memory_search: ['trusted', false],
      memory_save: ['trusted', false],
      memory_daily_log: ['trusted', false],
    });
    const shell = builtinRegistry()
      .definitions()
      .find((d) => d.name === 'shell_exec');
    expect(shell?.inputSchema).toMatchObject({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] });
  });

  it('refuses a second tool of the same name, an unknown tool and bad input, naming the fix', async () => {
    const registry = new ToolRegistry([dangerous]);
    expect(() => registry.register(dangerous)).toThrow(/registered already/);
    expect(await registry.run('lanch', {}, base)).toMatchObject({ ok: false, refused: 'unknown', hint: 'The tools are: launch.' });
    expect(await registry.run('launch', { target: 5 }, base)).toMatchObject({
      ok: false,
      refused: 'input',
      error: expect.stringContaining('target'),
    });
    expect(await registry.run('launch', { target: 'x', extra: 1 }, base)).toMatchObject({ ok: false, refused: 'input' });
  });

  it('fails closed when nobody can confirm, and runs only on an explicit yes', async () => {
    const registry = new ToolRegistry([dangerous]);
    runs = 0;
    expect(await registry.run('launch', { target: 'moon' }, base)).toMatchObject({ ok: false, refused: 'unconfirmed' });
    const asked: unknown[] = [];
    const no = await registry.run('launch', { target: 'moon' }, { ...base, confirm: async (r) => (asked.push(r), false) });
    expect(no).toMatchObject({ ok: false, refused: 'declined' });
    expect(asked).toEqual([{ tool: 'launch', input: { target: 'moon' }, trust: 'external' }]);
    expect(runs).toBe(0);
    expect(await registry.run('launch', { target: 'moon' }, { ...base, confirm: async () => true })).toEqual({
      ok: true,
      tool: 'launch',
      output: { launched: 'moon' },
    });
    expect(runs).toBe(1);
  });

  it("refuses on the tool's own checks before anyone is asked: nobody says yes to a command that would be refused", async () => {
    const registry = builtinRegistry();
    const asked: unknown[] = [];
    const ctx = { ...base, confirm: async (r: unknown) => (asked.push(r), true) };
    for (const command of ['ls; id', 'curl http://example.com']) {
      expect(await registry.refusal('shell_exec', { command }, ctx)).toMatchObject({ refused: 'check' });
      expect(await registry.run('shell_exec', { command }, ctx)).toMatchObject({ ok: false, refused: 'check' });
    }
    expect(await registry.run('workspace_write', { path: '../out', content: 'x' }, ctx)).toMatchObject({ refused: 'check' });
    expect(await registry.run('web_fetch', { url: 'file:///etc/passwd' }, ctx)).toMatchObject({ refused: 'check' });
    expect(asked).toEqual([]);
    expect(await registry.refusal('workspace_write', { path: 'notes/a.md', content: 'x' }, ctx)).toBeUndefined();
  });

  it('tells the model which argument is wrong and what the tool takes', async () => {
    const registry = builtinRegistry();
    expect(await registry.run('workspace_read', { path: 7, extra: true }, base)).toMatchObject({
      refused: 'input',
      error: 'Bad input for workspace_read: `path` must be a string, not a number; `extra` is not an argument of workspace_read.',
      hint: 'workspace_read takes: path (string), max_bytes (integer, optional).',
    });
  });

  it('audits every run, refused or not, with hashes of input and output', async () => {
    const auditLog = join(dir.path, 'audit.jsonl');
    const registry = builtinRegistry();
    await registry.run('echo', { text: 'hi' }, { ...base, auditLog });
    await registry.run('workspace_write', { path: 'x', content: 'y' }, { ...base, auditLog });
    await registry.run('nonexistent_tool', {}, { ...base, auditLog });
    expect(registry.refuse('echo', '{not json', { ...base, auditLog }, 'not JSON')).toMatchObject({ refused: 'input', error: 'not JSON' });
    const entries = readAudit(auditLog).lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.action, e.subject, e.ok, e.session])).toEqual([
      ['tool_exec', 'echo', true, 's1'],
      ['tool_exec', 'workspace_write', false, 's1'],
      ['tool_exec', 'nonexistent_tool', false, 's1'],
      ['tool_exec', 'echo', false, 's1'],
    ]);
    expect(entries[0]?.input_sha).toBe(shortHash({ text: 'hi' }));
    expect(entries[0]?.output_sha).toBe(shortHash({ text: 'hi' }));
    expect(verifyAudit(auditLog).ok).toBe(true);
  });
});
