/**
 * Cross-project relevance (seed 003): another project matters to this one by the
 * dependencies they share and whether they share any other entity:
 *
 *   relevance = (sharedDeps / totalDeps) x 0.6 + (sharedEntities > 0 ? 0.4 : 0)
 *
 * totalDeps counts this project's dependencies. Dependencies are the libraries and tools
 * a project depends on or uses; shared entities are the other neighbours both projects
 * have (concepts, patterns, people, decisions), files excluded.
 */
import { round } from '../core/text.js';
import { CURRENT } from '../graph/facts.js';
import { projectEntity } from '../graph/entities.js';
import type { Store } from '../store/store.js';

export const MAX_RELATED_PROJECTS = 3;

export function crossProjectRelevance(sharedDeps: number, totalDeps: number, sharedEntities: number): number {
  const deps = totalDeps > 0 ? Math.min(1, sharedDeps / totalDeps) : 0;
  return round(deps * 0.6 + (sharedEntities > 0 ? 0.4 : 0), 3);
}

export interface RelatedProject {
  name: string;
  relevance: number;
  shared_dependencies: string[];
  shared_entities: string[];
}

interface Neighbour {
  project_id: number;
  id: number;
  name: string;
  dep: number;
}

export function relatedProjects(store: Store, fingerprint: string): RelatedProject[] {
  const self = projectEntity(store.db, fingerprint);
  if (!self) return [];
  const projects = (store.db.prepare("SELECT COUNT(*) AS n FROM graph_entities WHERE type = 'project'").get() as { n: number }).n;
  if (projects < 2) return [];
  const rows = store.db
    .prepare(
      `SELECT p.id AS project_id, e.id, e.name,
         (f.relation IN ('depends_on', 'uses', 'built_with', 'integrates') AND e.type IN ('library', 'tool')) AS dep
       FROM graph_entities p JOIN graph_facts f ON (f.source_id = p.id OR f.target_id = p.id) AND ${CURRENT}
       JOIN graph_entities e ON e.id = CASE WHEN f.source_id = p.id THEN f.target_id ELSE f.source_id END
       WHERE p.type = 'project' AND e.type NOT IN ('file', 'project')`,
    )
    .all({ now: store.clock.now().toISOString() }) as Neighbour[];
  const byProject = new Map<number, { deps: Map<number, string>; others: Map<number, string> }>();
  for (const r of rows) {
    const p = byProject.get(r.project_id) ?? { deps: new Map(), others: new Map() };
    (r.dep ? p.deps : p.others).set(r.id, r.name);
    byProject.set(r.project_id, p);
  }
  const mine = byProject.get(self.id);
  if (!mine) return [];
  const names = new Map(
    (store.db.prepare("SELECT id, name FROM graph_entities WHERE type = 'project'").all() as { id: number; name: string }[]).map((r) => [
      r.id,
      r.name,
    ]),
  );
  const out: RelatedProject[] = [];
  for (const [id, other] of byProject) {
    if (id === self.id) continue;
    const sharedDeps = [...mine.deps.keys()].filter((d) => other.deps.has(d));
    const sharedEntities = [...mine.others.keys()].filter((e) => other.others.has(e));
    const relevance = crossProjectRelevance(sharedDeps.length, mine.deps.size, sharedEntities.length);
    if (relevance <= 0) continue;
    out.push({
      name: names.get(id) ?? String(id),
      relevance,
      shared_dependencies: sharedDeps.map((d) => mine.deps.get(d) ?? ''),
      shared_entities: sharedEntities.map((e) => mine.others.get(e) ?? ''),
    });
  }
  return out.sort((a, b) => b.relevance - a.relevance || a.name.localeCompare(b.name)).slice(0, MAX_RELATED_PROJECTS);
}
