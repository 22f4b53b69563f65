import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { loadPersonas } from './persona.js';
import { pathProblem, scaffoldWorkspace } from './workspace.js';

const dir = tempDir('homunculus-workspace-');
afterAll(() => dir.cleanup());

describe('the workspace', () => {
  it('is scaffolded once; files that exist are never overwritten', () => {
    const root = join(dir.path, 'workspace');
    expect(scaffoldWorkspace(root)).toEqual({
      workspace: root,
      created: [
        'AGENTS.md',
        'agents/default/SOUL.md',
        'agents/coder/SOUL.md',
        'agents/home/SOUL.md',
        'agents/researcher/SOUL.md',
        'agents/planner/SOUL.md',
        'skills/',
        'HEARTBEAT.md',
      ],
      existing: [],
    });
    writeFileSync(join(root, 'AGENTS.md'), 'mine');
    expect(scaffoldWorkspace(root)).toMatchObject({
      created: [],
      existing: [
        'AGENTS.md',
        'agents/default/SOUL.md',
        'agents/coder/SOUL.md',
        'agents/home/SOUL.md',
        'agents/researcher/SOUL.md',
        'agents/planner/SOUL.md',
        'skills',
        'HEARTBEAT.md',
      ],
    });
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe('mine');
    // Every scaffolded persona parses: init offers five agents.
    expect(loadPersonas(root)).toMatchObject({ skipped: [] });
    expect(loadPersonas(root).personas.map((p) => p.name)).toEqual(['coder', 'default', 'home', 'planner', 'researcher']);
    expect(loadPersonas(root).personas.find((p) => p.name === 'home')).toMatchObject({
      model: 'local',
      keywords: expect.arrayContaining(['lights']),
    });
  });

  it('judges path text before touching the disk', () => {
    expect(pathProblem('notes/a.md')).toBeUndefined();
    expect(pathProblem('a..b/c')).toBeUndefined();
    expect(pathProblem('C:\\Windows')).toBe('is absolute');
    expect(pathProblem('')).toBe('is empty');
  });
});
