/**
 * A store at the dashboard's target size, written fast: instincts, sessions, observations,
 * graph entities, facts and their accesses through the repositories' own inserts, one
 * transaction per kind. The graph is scale-free (a few hubs, many leaves), its facts spread
 * over the last 300 days, a tenth of them closed, so the date slider has something to show.
 */
import { CATEGORIES, DOMAINS } from '../core/domain.js';
import { ENTITY_TYPES, RELATION_CATEGORIES, type Relation, type RelationCategory } from '../core/graph-vocabulary.js';
import { detectCommunities } from '../graph/communities.js';
import type { Store } from '../store/store.js';
import { rng } from './synthetic.js';

export interface SeedSize {
  instincts: number;
  facts: number;
  observations: number;
}

export const FULL_SIZE: SeedSize = { instincts: 10_000, facts: 50_000, observations: 200_000 };

const DAY_MS = 86_400_000;
const PROJECTS = ['webapp', 'api', 'cli', 'infra', 'docs'];
const fingerprint = (p: number) => `be7c${String(p).padStart(12, '0')}`;

const iso = (ms: number) => new Date(ms).toISOString();

function seedInstincts(store: Store, count: number, now: number): void {
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const p = i % PROJECTS.length;
      store.instincts.insert({
        key: `pref:${PROJECTS[p]}/topic${i}=choice${i % 7}`,
        category: CATEGORIES[i % CATEGORIES.length] as (typeof CATEGORIES)[number],
        trigger: `when you work on topic ${i} in ${PROJECTS[p]}`,
        action: `Use choice ${i % 7} for topic ${i}.`,
        title: `Topic ${i}`,
        domain: DOMAINS[i % DOMAINS.length] as string,
        project: i % 10 === 0 ? '' : fingerprint(p),
        source: 'bench',
        explain: '',
        metadata: '{}',
        evidence: 1 + (i % 9),
        confidence: 0.3 + ((i * 37) % 60) / 100,
        first_seen: iso(now - (i % 300) * DAY_MS),
        last_seen: iso(now - (i % 30) * DAY_MS),
      });
    }
  });
}

function seedSessions(store: Store, observations: number, now: number): void {
  const sessions = Math.max(50, Math.round(observations / 400));
  store.transaction(() => {
    for (let s = 0; s < sessions; s++) {
      const p = s % PROJECTS.length;
      const start = now - (sessions - s) * 3_600_000 * 6;
      store.sessions.save({
        ...{ id: `bench-${s}`, source: 'claude-code', project: fingerprint(p), project_name: PROJECTS[p] as string },
        ...{ cwd: `/nonexistent/${PROJECTS[p]}`, started_at: iso(start), ended_at: iso(start + 3_600_000), tools_used: '[]' },
        ...{ tool_counts: '{}', files_touched: '[]', summary: `Bench session ${s}.`, continues_from: null },
        ...{ transcript_path: null, file_name: null },
      });
    }
    for (let i = 0; i < observations; i++) {
      const s = i % sessions;
      store.observations.insert({
        ...{ source: 'claude-code', session_id: `bench-${s}`, tool_use_id: `t${i}`, ts: iso(now - (sessions - s) * 3_600_000 * 6 + i) },
        ...{ event: 'post', project: fingerprint(s % PROJECTS.length), tool: i % 3 ? 'Bash' : 'Edit', input: `npm test -- part ${i % 50}` },
      });
    }
  });
}

const RELATIONS = Object.entries(RELATION_CATEGORIES).flatMap(([category, list]) =>
  list.map((relation) => ({ relation: relation as Relation, category: category as RelationCategory })),
);

function seedGraph(store: Store, facts: number, now: number): void {
  const random = rng(16);
  const entities = Math.max(20, Math.round(facts / 4));
  const created: number[] = [];
  store.transaction(() => {
    for (let e = 0; e < entities; e++) {
      // Hubs (low ids) are the oldest; leaves keep arriving until today.
      created.push(now - Math.round(300 * (1 - e / entities) * DAY_MS));
      const name = `${ENTITY_TYPES[e % ENTITY_TYPES.length]}-${e}`;
      store.graph.entities.insert({
        type: ENTITY_TYPES[e % ENTITY_TYPES.length] as (typeof ENTITY_TYPES)[number],
        name,
        name_key: name,
        properties: {},
        created_at: iso(created[e] as number),
      });
    }
    for (let f = 0; f < facts; f++) {
      // Preferential: cubing a uniform draw favours low ids, the hubs.
      const s = 1 + Math.floor(entities * random() ** 3);
      let t = 1 + Math.floor(entities * random());
      if (t === s) t = (t % entities) + 1;
      const at = Math.max(created[s - 1] as number, created[t - 1] as number) + Math.floor(random() * 5 * DAY_MS);
      const { relation, category } = RELATIONS[f % RELATIONS.length] as (typeof RELATIONS)[number];
      const closed = f % 10 === 0 ? iso(Math.min(now, at + 20 * DAY_MS)) : null;
      const id = store.graph.facts.insert({
        ...{ source_id: s, target_id: t, relation, category, description: `entity ${s} ${relation} entity ${t} (fact ${f})` },
        ...{ memory_type: (['semantic', 'episodic', 'procedural'] as const)[f % 3] as 'semantic', confidence: 0.5 + (f % 50) / 100 },
        ...{ valid_at: iso(at), invalid_at: closed, created_at: iso(at), emotional_weight: 1, project: '', source_session: '' },
        ...{ origin: 'deterministic', metadata: {} },
      });
      store.graph.accesses.record([id], iso(at), 'create');
      if (f % 7 === 0) store.graph.accesses.record([id], iso(Math.min(now, at + DAY_MS * (1 + (f % 20)))), 'retrieval');
    }
  });
  detectCommunities(store);
}

/** Fills the store at `scale` × the full size (`now` is the dashboard's clock). */
export function seedDashboardStore(store: Store, size: SeedSize, now = Date.now()): void {
  seedInstincts(store, size.instincts, now);
  seedSessions(store, size.observations, now);
  seedGraph(store, size.facts, now);
}

export const scaled = (size: SeedSize, factor: number): SeedSize => ({
  instincts: Math.round(size.instincts * factor),
  facts: Math.round(size.facts * factor),
  observations: Math.round(size.observations * factor),
});
