/**
 * Cross-project relevance: another project matters to this one by the
 * dependencies they share and whether they share any other entity:
 *
 *   relevance = (sharedDeps / totalDeps) x 0.6 + (sharedEntities > 0 ? 0.4 : 0)
 *
 * totalDeps counts this project's dependencies. Dependencies are the libraries and tools
 * a project depends on or uses; shared entities are the other neighbours both projects
 * have (concepts, patterns, people, decisions), files excluded.
 */
import { round } from '../core/text.js';
import type { Relation } from '../graph/ontology.js';
import type { ProjectNeighbour } from '../store/graph/index.js';
import type { Store } from '../store/store.js';

const MAX_RELATED_PROJECTS = 3;

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

const DEPENDENCY_RELATIONS: ReadonlySet<Relation> = new Set(['depends_on', 'uses', 'built_with', 'integrates']);

/** A library or tool the project depends on or uses; any other neighbour is a shared entity. */
const isDependency = (n: ProjectNeighbour): boolean =>
  DEPENDENCY_RELATIONS.has(n.relation) && (n.entity_type === 'library' || n.entity_type === 'tool');

export function relatedProjects(store: Store, fingerprint: string): RelatedProject[] {
  const entities = store.graph.entities;
  const self = entities.projectByFingerprint(fingerprint);
  if (!self) return [];
  if (entities.count({ type: 'project' }) < 2) return [];
  const byProject = new Map<number, { deps: Map<number, string>; others: Map<number, string> }>();
  for (const n of entities.projectNeighbours(store.clock.now().toISOString())) {
    const p = byProject.get(n.project_id) ?? { deps: new Map(), others: new Map() };
    (isDependency(n) ? p.deps : p.others).set(n.entity_id, n.entity_name);
    byProject.set(n.project_id, p);
  }
  const mine = byProject.get(self.id);
  if (!mine) return [];
  const names = new Map(entities.list({ type: 'project' }).map((e) => [e.id, e.name]));
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
