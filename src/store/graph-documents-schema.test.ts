import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { openDatabase } from './db.js';
import { schemaVersion } from './migrations.js';
import { MIGRATIONS } from './schema.js';
import { openStore } from './store.js';
import { rawDatabase } from './testing.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-02-01T00:00:00.000Z';

/** A home whose database has the schema before the graph joined the search index, with a few facts in it. */
function oldHome(): string {
  const db = openDatabase(join(dir.path, 'homunculus.db'), { migrations: MIGRATIONS.slice(0, 7) });
  expect(schemaVersion(db)).toBe(7);
  const entity = db.prepare(`INSERT INTO graph_entities (type, name, name_key, created_at, last_seen, embedding, embedding_model)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  entity.run('project', 'shop', 'shop', T0, T0, Buffer.alloc(8), 'm');
  entity.run('library', 'zod', 'zod', T0, T0, null, null);
  entity.run('library', 'valibot', 'valibot', T0, T0, null, null);
  const fact = db.prepare(`INSERT INTO graph_facts (source_id, target_id, relation, category, description, memory_type, confidence,
    valid_at, created_at, project, embedding, embedding_model) VALUES (?, ?, ?, 'technological', ?, 'semantic', ?, ?, ?, 'fp', ?, ?)`);
  fact.run(1, 2, 'uses', 'shop validates input with zod', 0.8, T0, T0, Buffer.alloc(16), 'm');
  fact.run(1, 3, 'built_with', 'shop validates input with valibot', 0.9, T1, T1, null, null);
  db.prepare(`UPDATE graph_facts SET expired_at = ?, invalid_at = ?, expired_reason = 'superseded', superseded_by = 2 WHERE id = 1`).run(
    T1,
    T1,
  );
  // Someone stored a memory under the collection name the graph now takes.
  db.prepare(`INSERT INTO documents (collection, ext_id, text, created_at, updated_at) VALUES ('facts', '1', 'my own note', ?, ?)`).run(
    T0,
    T0,
  );
  db.close();
  return dir.path;
}

const tables = (store: ReturnType<typeof openStore>) =>
  (rawDatabase(store).prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')").all() as { name: string }[]).map(
    (r) => r.name,
  );
const columns = (store: ReturnType<typeof openStore>, table: string) =>
  (rawDatabase(store).prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((r) => r.name);

describe('the graph joining the search index (migration 8)', () => {
  it('upgrades an old database in place: every fact and entity becomes a document, nothing of the graph is lost', () => {
    const store = openStore({ home: oldHome() });
    try {
      expect(store.health().schemaVersion).toBe(MIGRATIONS.length);
      expect(store.graph.facts.count()).toBe(2);
      expect(store.graph.facts.get(1)).toMatchObject({
        superseded_by: 2,
        expired_reason: 'superseded',
        description: 'shop validates input with zod',
      });
      const zod = store.documents.get('facts', '1');
      expect(zod).toMatchObject({ text: 'shop uses zod: shop validates input with zod', ts: T0, project: 'fp', confidence: 0.8 });
      expect(JSON.parse(zod?.metadata ?? '{}')).toMatchObject({ relation: 'uses', superseded_by: '2', expired_at: T1, valid_at: T0 });
      expect(store.documents.get('facts', '2')?.text).toBe('shop is built with valibot: shop validates input with valibot');
      expect(store.documents.get('entities', '3')?.text).toBe('valibot (library)');
      expect(store.documents.get('memories-facts', '1')?.text).toBe('my own note');
      // The graph's own full-text index, vectors and their counter are gone.
      expect(tables(store)).not.toContain('graph_facts_fts');
      expect(tables(store).filter((t) => t.startsWith('graph_facts_vector'))).toEqual([]);
      expect(store.meta.read('graph_vector_generation')).toBeUndefined();
      expect(columns(store, 'graph_facts')).not.toContain('embedding');
      expect(columns(store, 'graph_entities')).not.toContain('embedding_model');
      // The documents are in the full-text index.
      const found = store.documents.matchWords(['valibot'], { filter: { collections: ['facts'] }, limit: 10 });
      expect(found.ids).toEqual([store.documents.get('facts', '2')?.id]);
    } finally {
      store.close();
    }
  });

  it('keeps documents in step with every write to a fact or an entity', () => {
    const store = openStore({ home: oldHome() });
    try {
      const { facts, entities } = store.graph;
      const id = facts.insert({
        source_id: 1,
        target_id: 2,
        relation: 'depends_on',
        category: 'structural',
        description: 'shop depends on zod 3',
        memory_type: 'semantic',
        confidence: 0.6,
        valid_at: T1,
        created_at: T1,
        emotional_weight: 1,
        project: 'fp',
        source_session: '',
        origin: 'manual',
        metadata: {},
      });
      const doc = () => store.documents.get('facts', String(id));
      expect(doc()?.text).toBe('shop depends on zod: shop depends on zod 3');
      facts.raiseConfidence(id, 0.9);
      expect(doc()?.confidence).toBe(0.9);
      facts.revise(id, { description: 'shop depends on zod 4', confidence: 0.9, history: [] });
      expect(doc()?.text).toBe('shop depends on zod: shop depends on zod 4');
      expect(store.documents.matchWords(['4'], { filter: { collections: ['facts'] }, limit: 5 }).ids).toEqual([doc()?.id]);
      facts.close(id, { expiredAt: '2026-03-01T00:00:00.000Z', invalidAt: '2026-03-01T00:00:00.000Z', reason: 'retracted' });
      expect(JSON.parse(doc()?.metadata ?? '{}')).toMatchObject({ expired_reason: 'retracted', invalid_at: '2026-03-01T00:00:00.000Z' });
      entities.update(2, { type: 'tool', properties: {}, last_seen: T1 });
      expect(store.documents.get('entities', '2')?.text).toBe('zod (tool)');
      const added = entities.insert({ type: 'concept', name: 'Forms', name_key: 'forms', properties: {}, created_at: T1 });
      expect(store.documents.get('entities', String(added.id))?.text).toBe('Forms (concept)');
      rawDatabase(store).prepare('DELETE FROM graph_facts WHERE id = ?').run(id);
      expect(doc()).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
