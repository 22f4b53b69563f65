/** Project operations: the projects sessions were seen in, and what one of them has learned and is given today. */
import { z } from 'zod';
import { NotFoundError } from '../core/errors.js';
import { promptInjection, startInjection } from '../context/inject.js';
import type { Store } from '../store/store.js';
import { listConvictions } from '../learn/evolve.js';
import { storeViews } from '../learn/records.js';
import { defineOperation } from './operation.js';
import { listFacts } from './graph.js';
import { text, wholeNumber } from './schemas.js';

export const listProjects = defineOperation({
  name: 'projects.list',
  summary: 'The projects sessions were seen in, the most recently active first, with how many instincts each has learned',
  input: z.object({}),
  run: ({ store }) => ({
    projects: store.sessions.projects().map((p) => ({ ...p, instincts: store.instincts.count({ project: p.project }) })),
  }),
});

export const fingerprint = () => text(64).regex(/^[0-9a-f]{16}$/, { error: 'must be a project fingerprint (16 hex characters)' });

/** A project as the hooks see it, from its latest session; a project no session was seen in is not found. */
function projectInfo(store: Store, project: string) {
  const activity = store.sessions.projects().find((p) => p.project === project);
  if (!activity) throw new NotFoundError(`project ${project}`, 'Pick one of `projects.list`.');
  return { activity, info: { fingerprint: activity.project, name: activity.project_name, root: activity.cwd, remote: null } };
}

export const previewPrompt = defineOperation({
  name: 'projects.preview-prompt',
  summary: 'What the prompt hook would inject for this prompt in this project, without counting anything as used',
  input: z.object({ project: fingerprint(), prompt: text(8000).refine((p) => p.trim() !== '', { error: 'is empty: type a prompt' }) }),
  async run({ store }, input) {
    const { info } = projectInfo(store, input.project);
    return { injected: await promptInjection(store, { project: info, prompt: input.prompt, sessionId: 'dashboard', record: false }) };
  },
});

export const showProject = defineOperation({
  name: 'projects.show',
  summary: 'One project: its instincts and the global ones, the convictions, and what a session there starts with today',
  input: z.object({ project: fingerprint() }),
  async run({ store }, input) {
    const { activity, info } = projectInfo(store, input.project);
    const rows = store.instincts.list({ project: input.project, includeGlobal: true });
    return {
      project: activity,
      instincts: storeViews(store, rows),
      convictions: listConvictions(store, input.project),
      // What the start hook would inject for a session starting now (the prompt hook adds per prompt).
      injected: (await startInjection(store, info, 'dashboard')).text,
    };
  },
});

export const projectFacts = defineOperation({
  name: 'projects.facts',
  summary: "One project's current facts; its fingerprint checked as the project itself is",
  input: z.object({ project: fingerprint(), limit: wholeNumber(1, 1000).default(100) }),
  // A name or junk would match no fact and answer an empty list, as if the project had none.
  run: (ctx, input) => listFacts.run(ctx, { project: input.project, limit: input.limit }),
});
