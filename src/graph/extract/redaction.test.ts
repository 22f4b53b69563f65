/**
 * Defence in depth: an observation stored raw (by a version whose rules missed a secret)
 * never puts the secret into the graph's entities, facts or episodes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../../test-support/store.js';
import { buildGraphFromSession } from './build.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const GHP = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
let store: TestStore | undefined;
afterEach(() => store?.cleanup());

describe('building the graph from raw observations', () => {
  it('redacts entity names, fact descriptions and the episode summary', async () => {
    store = testStore('2026-03-01T12:00:00.000Z');
    store.observations.insert({
      source: 'claude-code',
      session_id: 's1',
      tool_use_id: 't1',
      ts: '2026-03-01T11:00:00.000Z',
      event: 'tool',
      project: 'fp',
      cwd: '/nowhere/app',
      tool: 'Bash',
      input: `./${GHP}.sh --deploy`,
      outcome: 'ok',
      data: { project_name: 'app', base_command: `${GHP}.sh` },
    });
    const report = await buildGraphFromSession(store, { sessionId: 's1' });
    expect(report.facts.length).toBeGreaterThan(0);
    const graph = JSON.stringify([
      store.graph.entities.list({ limit: 100 }),
      store.graph.facts.byIds(report.facts),
      report.episode !== undefined ? store.graph.episodes.get('s1') : undefined,
    ]);
    expect(graph).not.toContain(GHP);
    expect(graph).toContain('[REDACTED:token].sh');
  });
});
