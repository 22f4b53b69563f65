/** Entities (graph nodes): one row per normalised name, properties merged on every sighting. */
import { NotFoundError, UsageError } from '../core/errors.js';
import type { Db } from '../store/db.js';
import { parseJsonObject } from '../store/json.js';
import { type EntityType, ENTITY_TYPES, entityKey, normalizeEntityType } from './ontology.js';

export const MAX_ENTITY_NAME = 200;

export interface Entity {
  id: number;
  type: EntityType;
  name: string;
  properties: Record<string, unknown>;
  has_embedding: boolean;
  created_at: string;
  last_seen: string;
}

export interface EntityInput {
  name: string;
  type?: EntityType | string;
  properties?: Record<string, unknown>;
}

interface EntityRow {
  id: number;
  type: EntityType;
  name: string;
  properties: string;
  has_embedding: number;
  created_at: string;
  last_seen: string;
}

const SELECT = 'SELECT id, type, name, properties, embedding IS NOT NULL AS has_embedding, created_at, last_seen FROM graph_entities';

const toEntity = (r: EntityRow): Entity => ({ ...r, properties: parseJsonObject(r.properties), has_embedding: r.has_embedding === 1 });

export function cleanEntityName(raw: string): string {
  const name = raw.replace(/\s+/g, ' ').trim();
  if (!name || !entityKey(name)) throw new UsageError('An entity name is empty.', 'Name the entity, e.g. "zod" or "src/cli/bin.ts".');
  return name.length > MAX_ENTITY_NAME ? name.slice(0, MAX_ENTITY_NAME) : name;
}

/**
 * Creates the entity or refreshes the one with the same normalised name: last_seen moves,
 * properties merge, and a vague type ('concept') gives way to a specific one.
 */
export function upsertEntity(db: Db, input: EntityInput, at: string): Entity {
  const name = cleanEntityName(input.name);
  const key = entityKey(name);
  const type = normalizeEntityType(input.type);
  const existing = db.prepare(`${SELECT} WHERE name_key = ?`).get(key) as EntityRow | undefined;
  if (!existing) {
    const info = db
      .prepare('INSERT INTO graph_entities (type, name, name_key, properties, created_at, last_seen) VALUES (?, ?, ?, ?, ?, ?)')
      .run(type, name, key, JSON.stringify(input.properties ?? {}), at, at);
    return getEntity(db, Number(info.lastInsertRowid)) as Entity;
  }
  const properties = { ...parseJsonObject(existing.properties), ...(input.properties ?? {}) };
  const nextType = existing.type === 'concept' && input.type !== undefined ? type : existing.type;
  const lastSeen = at > existing.last_seen ? at : existing.last_seen;
  db.prepare('UPDATE graph_entities SET type = ?, properties = ?, last_seen = ? WHERE id = ?').run(
    nextType,
    JSON.stringify(properties),
    lastSeen,
    existing.id,
  );
  return { ...toEntity(existing), type: nextType, properties, last_seen: lastSeen };
}

export function getEntity(db: Db, id: number): Entity | undefined {
  const row = db.prepare(`${SELECT} WHERE id = ?`).get(id) as EntityRow | undefined;
  return row ? toEntity(row) : undefined;
}

export function findEntity(db: Db, name: string): Entity | undefined {
  const key = entityKey(name);
  if (!key) return undefined;
  const row = db.prepare(`${SELECT} WHERE name_key = ?`).get(key) as EntityRow | undefined;
  return row ? toEntity(row) : undefined;
}

/** By exact id (digits) or by name. */
export function requireEntity(db: Db, ref: string): Entity {
  const entity = /^\d+$/.test(ref.trim()) ? getEntity(db, Number(ref)) : findEntity(db, ref);
  if (!entity) throw new NotFoundError(`entity ${JSON.stringify(ref)}`, 'List entities with `homunculus graph entities`.');
  return entity;
}

export function listEntities(db: Db, options: { type?: EntityType; limit?: number } = {}): Entity[] {
  if (options.type && !ENTITY_TYPES.includes(options.type)) return [];
  const where = options.type ? 'WHERE type = ?' : '';
  const params = options.type ? [options.type] : [];
  return (db.prepare(`${SELECT} ${where} ORDER BY last_seen DESC, id LIMIT ?`).all(...params, options.limit ?? -1) as EntityRow[]).map(
    toEntity,
  );
}

export function countEntities(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM graph_entities').get() as { n: number }).n;
}

/** Entities whose properties name this project fingerprint (the project nodes of a repository). */
export function projectEntity(db: Db, fingerprint: string): Entity | undefined {
  if (!fingerprint) return undefined;
  const row = db
    .prepare(`${SELECT} WHERE type = 'project' AND json_extract(properties, '$.fingerprint') = ? ORDER BY last_seen DESC LIMIT 1`)
    .get(fingerprint) as EntityRow | undefined;
  return row ? toEntity(row) : undefined;
}
