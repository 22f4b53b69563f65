/**
 * Defence in depth: observations stored raw (by a version whose rules missed a secret)
 * still never reach what learning writes: instincts, their examples, episodes, sightings.
 */
import { describe, expect, it } from 'vitest';
import { stepRows, tempStores } from '../test-support/learning.js';
import { runLearn } from './run.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const SECRET = ['wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY'].join('');
const fresh = tempStores('2026-03-20T12:00:00Z');

describe('learning from raw observations', () => {
  it('writes no secret into instincts, examples, episodes or sightings', async () => {
    const { store } = fresh();
    for (const day of ['01', '02', '03']) {
      const rows = stepRows([{ bash: `aws configure set aws_secret_access_key ${SECRET} && make deploy` }, { bash: 'make deploy' }], {
        sessionId: `s${day}`,
        start: `2026-03-${day}T10:00:00Z`,
      });
      for (const row of rows) store.observations.insert({ ...row, tool_use_id: `${row.tool_use_id}-${day}` });
    }
    await runLearn(store, { quiet: true });
    const instincts = store.instincts.list();
    const sightings = instincts.map((i) => store.learning.listSightings('pattern', i.key));
    const learned = JSON.stringify([instincts, store.episodes.list(), sightings]);
    expect(instincts.length).toBeGreaterThan(0);
    expect(learned).not.toContain(SECRET);
  });
});
