/** Knowledge-graph operations: facts in and out (with time travel), maintenance, and the context a prompt would get. */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { buildPromptContext } from '../context/build.js';
import { parseInstant } from '../core/clock.js';
import { UsageError } from '../core/errors.js';
import { isDirectory, regularInput } from '../core/fs.js';
import { addFact as addGraphFact, parseRelation } from '../graph/add-fact.js';
import { detectCommunities } from '../graph/communities.js';
import { runDreamCycle } from '../graph/dream.js';
import { requireEntity } from '../graph/entities.js';
import { requireFact } from '../graph/facts.js';
import { runLifecycle } from '../graph/maintenance.js';
import { ENTITY_TYPES, RELATIONS } from '../graph/ontology.js';
import { keptTargetUnnamed, reconsolidateFact, supersedeFact } from '../graph/revise.js';
import { graphSessionEnd } from '../graph/session-end.js';
import { graphStats } from '../graph/stats.js';
import { countFacts, queryFacts, timeline as entityTimeline } from '../graph/temporal.js';
import { defineOperation } from './operation.js';
import { resolveProject } from './project-ref.js';
import { changeSource, oneOf, text, unitInterval, wholeNumber } from './schemas.js';

/** An ISO-8601 date or instant, as a normalised instant. */
export const instant = () =>
  text(64)
    .refine((v) => parseInstant(v) !== undefined, { error: 'must be an ISO-8601 date or instant, e.g. 2026-03-01 or 2026-03-01T12:00:00Z' })
    .transform((v) => (parseInstant(v) as Date).toISOString());

const relation = () =>
  text(64).superRefine((v, ctx) => {
    try {
      parseRelation(v);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `must be one of the ${RELATIONS.length} relations: ${RELATIONS.join(', ')}`,
      });
    }
  });

const entityType = () => oneOf(ENTITY_TYPES);
const factId = () => wholeNumber(1);

export const addFact = defineOperation({
  name: 'graph.add',
  summary: 'Add a fact: deduplicated, merged, or superseding an older value as the graph decides',
  input: z.object({
    source: text(200),
    sourceType: entityType().optional(),
    relation: relation(),
    target: text(200),
    targetType: entityType().optional(),
    description: text(2000).refine((d) => d.trim() !== '', { error: 'must say what the fact states' }),
    confidence: unitInterval().optional(),
    validAt: instant().optional(),
    project: text(200).default(''),
    correction: z.boolean().default(false),
  }),
  run: ({ store }, i) =>
    addGraphFact(store, {
      source: { name: i.source, type: i.sourceType },
      target: { name: i.target, type: i.targetType },
      relation: i.relation,
      description: i.description,
      confidence: i.confidence,
      validAt: i.validAt,
      project: i.project,
      correction: i.correction,
    }),
});

export const listFacts = defineOperation({
  name: 'graph.facts',
  summary: 'Current facts, or time travel: at (what was true then), known_at (what the graph held then)',
  input: z.object({
    at: instant().optional(),
    knownAt: instant().optional(),
    entity: text(200).optional(),
    relation: relation().optional(),
    project: text(200).optional(),
    limit: wholeNumber(1, 100_000).default(100),
  }),
  run({ store }, i) {
    const entityId = i.entity === undefined ? undefined : requireEntity(store, i.entity).id;
    const q = {
      at: i.at,
      knownAt: i.knownAt,
      entityId,
      relation: i.relation === undefined ? undefined : parseRelation(i.relation),
      project: i.project,
    };
    const facts = queryFacts(store, { ...q, limit: i.limit });
    // Counted only when the limit may have cut the list.
    const total = facts.length < i.limit ? facts.length : countFacts(store, q);
    return { facts, count: facts.length, total, at: i.at ?? null, known_at: i.knownAt ?? null };
  },
});

export const showFact = defineOperation({
  name: 'graph.show',
  summary: 'One fact with its history (reconsolidations) and what superseded it',
  input: z.object({ id: factId() }),
  run: ({ store }, i) => requireFact(store, i.id),
});

export const timeline = defineOperation({
  name: 'graph.timeline',
  summary: 'Every fact about an entity, current or not, in the order they became true',
  input: z.object({ entity: text(200) }),
  run({ store }, i) {
    const facts = entityTimeline(store, requireEntity(store, i.entity).id);
    return { facts, count: facts.length };
  },
});

export const supersede = defineOperation({
  name: 'graph.supersede',
  summary: 'Close a fact in both time dimensions, optionally recording its replacement',
  input: z
    .object({
      id: factId(),
      description: text(2000).optional(),
      target: text(200).optional(),
      relation: relation().optional(),
      invalidAt: instant().optional(),
      validAt: instant().optional(),
      by: changeSource(),
    })
    .refine((i) => i.description !== undefined || (i.target === undefined && i.relation === undefined), {
      error: 'is needed for a replacement: say what is true now, e.g. "shop uses Kysely as its ORM"',
      path: ['description'],
    }),
  run({ store, warn }, i) {
    const old = requireFact(store, i.id);
    if (i.description !== undefined && i.target === undefined && keptTargetUnnamed(i.description, old.target))
      warn?.(
        `The replacement keeps the target "${old.target}", which its description does not name: give the new target (--target) if it changed.`,
      );
    const replacement =
      i.description === undefined
        ? undefined
        : {
            source: { name: old.source },
            target: { name: i.target ?? old.target },
            relation: i.relation ?? old.relation,
            description: i.description,
            validAt: i.validAt,
            project: old.project,
            confidence: old.confidence,
          };
    return supersedeFact(store, i.id, { invalidAt: i.invalidAt, replacement, by: i.by });
  },
});

export const invalidate = defineOperation({
  name: 'graph.invalidate',
  summary: 'Retract a fact that was never true or no longer holds: closed as retracted, kept in the history, no replacement',
  input: z.object({ id: factId(), invalidAt: instant().optional(), by: changeSource() }),
  run: ({ store }, i) => supersedeFact(store, i.id, { invalidAt: i.invalidAt, reason: 'retracted', by: i.by }),
});

export const reconsolidate = defineOperation({
  name: 'graph.reconsolidate',
  summary: 'Update a semantic or procedural fact in place, keeping its last 5 versions (episodic facts are immutable)',
  input: z.object({ id: factId(), description: text(2000).optional(), confidence: unitInterval().optional() }),
  run: ({ store }, i) => reconsolidateFact(store, i.id, { description: i.description, confidence: i.confidence }),
});

export const entities = defineOperation({
  name: 'graph.entities',
  summary: 'Entities, most recently seen first',
  input: z.object({ type: entityType().optional(), limit: wholeNumber(1, 100_000).default(100) }),
  run({ store }, i) {
    const list = store.graph.entities.list({ type: i.type, limit: i.limit });
    return { entities: list, count: list.length };
  },
});

/**
 * A transcript named on purpose must be there (a mistyped path would otherwise read as "nothing
 * recorded") and be a regular file (a pipe would never end).
 */
function requireTranscript(path: string | undefined): void {
  if (path === undefined) return;
  if (!existsSync(path) || isDirectory(path))
    throw new UsageError(
      `No such transcript: ${path}`,
      "Give the path of the session's transcript (a .jsonl file), or leave it out to read the session's observations.",
    );
  regularInput(path, 'Give a Claude Code transcript (.jsonl), or leave out --transcript to read the one the session recorded.');
}

export const build = defineOperation({
  name: 'graph.build',
  summary: 'Extract knowledge from a recorded session (its observations, else its transcript) into the graph',
  input: z.object({
    session: text(200).min(1),
    transcript: text(4096).optional(),
    root: text(4096).optional(),
    gc: z.boolean().default(true),
  }),
  run({ store }, i) {
    requireTranscript(i.transcript);
    return graphSessionEnd(store, { sessionId: i.session, transcriptPath: i.transcript, root: i.root, gc: i.gc });
  },
});

export const dream = defineOperation({
  name: 'graph.dream',
  summary: 'Consolidate recent episodes: reinforce recurring facts, distil recurring entities into semantic facts',
  input: z.object({}),
  run: ({ store }) => runDreamCycle(store),
});

export const communities = defineOperation({
  name: 'graph.communities',
  summary: 'Communities of entities (label propagation), largest first',
  input: z.object({}),
  run({ store }) {
    const list = detectCommunities(store);
    return { communities: list, count: list.length };
  },
});

export const lifecycle = defineOperation({
  name: 'graph.gc',
  summary: 'Expire decayed facts, dream, detect communities; at most every 6 hours unless forced',
  input: z.object({ force: z.boolean().default(false) }),
  run: ({ store }, i) => runLifecycle(store, { force: i.force }),
});

export const stats = defineOperation({
  name: 'graph.stats',
  summary: 'Memory quality metrics of the knowledge graph, against their healthy ranges',
  input: z.object({}),
  run: ({ store }) => graphStats(store),
});

export const promptContext = defineOperation({
  name: 'context.prompt',
  summary: 'What Homunculus injects with a prompt: the last session, task-aware graph facts, related projects, within a budget',
  input: z.object({
    prompt: text(100_000).refine((p) => p.trim() !== '', { error: 'is empty: give the prompt text' }),
    project: text(200).optional(),
    used: z
      .number({ error: 'must be a percentage between 0 and 100' })
      .min(0, { error: 'must be a percentage between 0 and 100' })
      .max(100, { error: 'must be a percentage between 0 and 100' })
      .default(0),
    session: text(200).optional(),
    at: instant().optional(),
    record: z.boolean().default(true),
    /** The directory whose repository is the project when none is named. */
    cwd: text(4096).optional(),
  }),
  run: ({ store }, i) =>
    buildPromptContext(store, {
      prompt: i.prompt.trim(),
      project: resolveProject(store, i.project, i.cwd),
      contextUsedPct: i.used,
      sessionId: i.session,
      at: i.at,
      recordAccess: i.record,
    }),
});
