/** Entities (graph nodes): one per normalised name, properties merged on every sighting. */
import { NotFoundError, UsageError } from '../core/errors.js';
import type { Entity } from '../store/graph/index.js';
import type { Store } from '../store/store.js';
import { type EntityType, entityKey, normalizeEntityType } from './ontology.js';

export type { Entity } from '../store/graph/index.js';

const MAX_ENTITY_NAME = 200;

export interface EntityInput {
  name: string;
  type?: EntityType | string;
  properties?: Record<string, unknown>;
}

function cleanEntityName(raw: string): string {
  const name = raw.replace(/\s+/g, ' ').trim();
  if (!name || !entityKey(name)) throw new UsageError('An entity name is empty.', 'Name the entity, e.g. "zod" or "src/cli/bin.ts".');
  return name.length > MAX_ENTITY_NAME ? name.slice(0, MAX_ENTITY_NAME) : name;
}

/**
 * Creates the entity or refreshes the one with the same normalised name: last_seen moves,
 * properties merge, and a vague type ('concept') gives way to a specific one.
 */
export function upsertEntity(store: Store, input: EntityInput, at: string): Entity {
  const name = cleanEntityName(input.name);
  const key = entityKey(name);
  const type = normalizeEntityType(input.type);
  const entities = store.graph.entities;
  const existing = entities.byKey(key);
  if (!existing) return entities.insert({ type, name, name_key: key, properties: input.properties ?? {}, created_at: at });
  const next = {
    type: existing.type === 'concept' && input.type !== undefined ? type : existing.type,
    properties: { ...existing.properties, ...(input.properties ?? {}) },
    last_seen: at > existing.last_seen ? at : existing.last_seen,
  };
  entities.update(existing.id, next);
  return { ...existing, ...next };
}

export function findEntity(store: Store, name: string): Entity | undefined {
  const key = entityKey(name);
  return key ? store.graph.entities.byKey(key) : undefined;
}

/** By exact id (digits) or by name. */
export function requireEntity(store: Store, ref: string): Entity {
  const entity = /^\d+$/.test(ref.trim()) ? store.graph.entities.get(Number(ref)) : findEntity(store, ref);
  if (!entity) throw new NotFoundError(`entity ${JSON.stringify(ref)}`, 'List entities with `homunculus graph entities`.');
  return entity;
}
