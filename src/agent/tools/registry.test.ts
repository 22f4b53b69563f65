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

  it('audits every run, refused or not, with hashes of input and output', async () => {
    const auditLog = join(dir.path, 'audit.jsonl');
    const registry = builtinRegistry();
    await registry.run('echo', { text: 'hi' }, { ...base, auditLog });
    await registry.run('workspace_write', { path: 'x', content: 'y' }, { ...base, auditLog });
    const entries = readAudit(auditLog).lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.action, e.subject, e.ok, e.session])).toEqual([
      ['tool_exec', 'echo', true, 's1'],
      ['tool_exec', 'workspace_write', false, 's1'],
    ]);
    expect(entries[0]?.input_sha).toBe(shortHash({ text: 'hi' }));
    expect(entries[0]?.output_sha).toBe(shortHash({ text: 'hi' }));
    expect(verifyAudit(auditLog).ok).toBe(true);
  });
});
