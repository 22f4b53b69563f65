/** Project operations: the projects sessions were seen in, and what one of them has learned and is given today. */
import { z } from 'zod';
import { NotFoundError } from '../core/errors.js';
import { startInjection } from '../context/inject.js';
import { listConvictions } from '../learn/evolve.js';
import { storeViews } from '../learn/records.js';
import { defineOperation } from './operation.js';
import { text } from './schemas.js';

export const listProjects = defineOperation({
  name: 'projects.list',
  summary: 'The projects sessions were seen in, the most recently active first',
  input: z.object({}),
  run: ({ store }) => ({ projects: store.sessions.projects() }),
});

export const showProject = defineOperation({
  name: 'projects.show',
  summary: 'One project: its instincts and the global ones, the convictions, and what a session there starts with today',
  input: z.object({ project: text(64).regex(/^[0-9a-f]{16}$/, { error: 'must be a project fingerprint (16 hex characters)' }) }),
  async run({ store }, input) {
    const activity = store.sessions.projects().find((p) => p.project === input.project);
    if (!activity) throw new NotFoundError(`project ${input.project}`, 'Pick one of `projects.list`.');
    const rows = store.instincts.list({ project: input.project, includeGlobal: true });
    const info = { fingerprint: activity.project, name: activity.project_name, root: activity.cwd, remote: null };
    return {
      project: activity,
      instincts: storeViews(store, rows),
      convictions: listConvictions(store),
      // What the start hook would inject for a session starting now (the prompt hook adds per prompt).
      injected: await startInjection(store, info, 'dashboard'),
    };
  },
});
