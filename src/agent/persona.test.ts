import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { HandoffBox, handoffTool } from './handoff.js';
import { loadPersonas, parsePersona } from './persona.js';
import { SCAFFOLD } from './workspace.js';

describe('personas', () => {
  let dir: ReturnType<typeof tempDir>;
  const write = (name: string, text: string) => {
    mkdirSync(join(dir.path, 'agents', name), { recursive: true });
    writeFileSync(join(dir.path, 'agents', name, 'SOUL.md'), text);
  };
  beforeEach(() => (dir = tempDir('personas-')));
  afterEach(() => dir.cleanup());

  it('reads front matter when there is one, and the whole text as the soul when not', () => {
    expect(parsePersona('x', '---\nmodel: local\nkeywords: [Lights]\ntools: [echo]\n---\n# X\n\nKind.')).toMatchObject({
      model: 'local',
      keywords: ['lights'],
      tools: ['echo'],
      soul: '# X\n\nKind.',
      description: 'Kind.',
    });
    expect(parsePersona('y', '# Y\nPlain.')).toMatchObject({ model: 'auto', keywords: [], soul: '# Y\nPlain.' });
    expect(parsePersona('y', '# Y\nPlain.').tools).toBeUndefined();
  });

  it('describes the scaffolded default by its first real line, not the line that says what to write', () => {
    const scaffold = SCAFFOLD.find((f) => f.path === 'agents/default/SOUL.md');
    write('default', scaffold?.content ?? '');
    const [persona] = loadPersonas(dir.path).personas;
    expect(persona?.description).toBe('Helpful, direct and honest; brief unless asked for depth.');
  });

  it('skips a persona with bad front matter or a bad folder name, saying the fix; default always exists', () => {
    write('odd', '---\nmodel: huge\ncolour: red\n---\nx');
    write('Bad Name', 'x');
    mkdirSync(join(dir.path, 'agents', 'empty'));
    const { personas, skipped } = loadPersonas(dir.path);
    expect(personas.map((p) => p.name)).toEqual(['default']);
    const why = Object.fromEntries(skipped.map((s) => [s.name, s.reason]));
    expect(why.odd).toMatch(/agents\/odd\/SOUL\.md: .*model: .*allowed: description, tools: \[names\], model: local\|remote\|auto/);
    expect(why.odd).toMatch(/"colour" is not a key it takes/);
    expect(why.odd).not.toMatch(/the input/);
    expect(why['Bad Name']).toMatch(/lowercase letters/);
    expect(why.empty).toBe('no SOUL.md in agents/empty/');
  });
});

describe('the handoff tool', () => {
  it('records a handoff to another agent and refuses itself or an unknown one', async () => {
    const box = new HandoffBox();
    const tool = handoffTool('coder', ['default', 'coder'], box);
    const ctx = { workspace: '/w', home: '/h', session: 's' };
    expect(await tool.run(ctx, { to: 'default', summary: 'over to you' })).toMatchObject({ handed_to: 'default' });
    expect(box.take('s')).toEqual({ from: 'coder', to: 'default', summary: 'over to you' });
    expect(box.take('s')).toBeUndefined();
    expect(() => tool.run(ctx, { to: 'coder', summary: 'me' })).toThrow(/No other agent is named "coder"/);
    expect(() => tool.run(ctx, { to: 'ghost', summary: 'x' })).toThrow(/No other agent/);
    expect(box.take('s')).toBeUndefined();
  });
});
