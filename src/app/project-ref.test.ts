import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { sessionRow } from '../test-support/sessions.js';
import { addDocuments } from '../search/memory.js';
import { listInstincts, observe as observeOp } from './instincts.js';
import { observe } from '../learn/instincts.js';
import { query } from './memory.js';
import { invoke } from './operation.js';
import { projectKey, resolveProject } from './project-ref.js';

let store: TestStore;
beforeEach(() => {
  store = testStore('2026-02-01T00:00:00.000Z');
  store.sessions.save(
    sessionRow({
      id: 's1',
      project: '040c367c23054320',
      project_name: 'cli',
      cwd: '/w/cli',
      started_at: '2026-01-31T10:00:00.000Z',
      ended_at: '2026-01-31T11:00:00.000Z',
    }),
  );
});
afterEach(() => store.cleanup());

describe('naming a project', () => {
  it('takes a fingerprint, a name its sessions were seen under (any case), or the repository of a directory', () => {
    expect(resolveProject(store, '040c367c23054320')).toBe('040c367c23054320');
    expect(resolveProject(store, 'CLI')).toBe('040c367c23054320');
    expect(resolveProject(store, '')).toBe('');
    expect(resolveProject(store, undefined, '/w/somewhere')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('files an observation given a project name under its fingerprint, as the CLI and MCP name it', async () => {
    const r = await invoke(observeOp, { store, env: {} }, { pattern: 'pref:byname=cli', project: 'cli', count: 6 });
    expect(store.instincts.get(r.pattern)?.project).toBe('040c367c23054320');
  });

  it('refuses an unknown name with the names it knows, except where a tool call may file under a new one', () => {
    expect(() => resolveProject(store, 'nope')).toThrow(/Unknown project "nope"/);
    try {
      resolveProject(store, 'nope');
    } catch (err) {
      expect((err as { hint?: string }).hint).toContain('cli');
    }
    expect(projectKey(store, 'cli')).toBe('040c367c23054320');
    expect(projectKey(store, 'myrepo')).toBe('myrepo');
  });
});

describe('searching a project by a name', () => {
  it('finds documents filed under a name no session knows, and says so when such a name finds nothing', async () => {
    addDocuments(store, [{ id: 'n1', text: 'the release checklist lives in the wiki', collection: 'memories', project: 'team-notes' }]);
    const search = (project: string) => invoke(query, { store, env: {} }, { query: 'release checklist', mode: 'bm25', project });
    expect((await search('team-notes')).results.map((r) => r.id)).toEqual(['n1']);
    const none = await search('nosuch');
    expect(none.results).toEqual([]);
    expect(none.notes.join(' ')).toMatch(/Unknown project "nosuch".*cli/);
    // A collection nothing is in (a typo) says so, with the collections there are.
    const typo = await invoke(query, { store, env: {} }, { query: 'release checklist', mode: 'bm25', collections: ['memoires'] });
    expect(typo.results).toEqual([]);
    expect(typo.notes.join(' ')).toMatch(/^No document is in "memoires"; the collections here: .*\bmemories\b/);
  });
});

describe('listing a project by its name', () => {
  it('lists the instincts of the project its sessions were seen under', async () => {
    observe(store, { pattern: 'pref:cli/test=mise', source: 'learn', project: '040c367c23054320' });
    observe(store, { pattern: 'pref:other=x', source: 'learn', project: 'ffffffffffffffff' });
    const list = (project: string) => invoke(listInstincts, { store, env: {} }, { project });
    expect((await list('cli')).instincts.map((i) => i.pattern)).toEqual(['pref:cli/test=mise']);
    expect((await list('040c367c23054320')).count).toBe(1);
  });
});
