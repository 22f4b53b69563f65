import { describe, expect, it } from 'vitest';
import {
  ENTITY_TYPES,
  RELATIONS,
  RELATION_CATEGORIES,
  entityKey,
  normalizeEntityType,
  normalizeRelation,
  relationCategory,
} from './ontology.js';

describe('ontology', () => {
  it('has 10 entity types and 34 relations in 6 categories', () => {
    expect(ENTITY_TYPES).toHaveLength(10);
    expect(Object.keys(RELATION_CATEGORIES)).toHaveLength(6);
    expect(RELATIONS).toHaveLength(34);
    expect(new Set(RELATIONS).size).toBe(34);
  });

  it('normalises spelling and legacy names, and rejects unknown relations', () => {
    expect(normalizeRelation('Depends-On')).toBe('depends_on');
    expect(normalizeRelation(' built with ')).toBe('built_with');
    expect(normalizeRelation('involves')).toBe('related_to');
    expect(normalizeRelation('ecosystem')).toBe('has_component');
    expect(normalizeRelation('configured_with')).toBe('configures');
    expect(normalizeRelation('avoids')).toBe('decided_against');
    expect(normalizeRelation('teleports_to')).toBeUndefined();
    expect(normalizeRelation('')).toBeUndefined();
  });

  it('knows the category of every relation', () => {
    expect(relationCategory('uses')).toBe('technological');
    expect(relationCategory('solved_by')).toBe('learning');
    expect(relationCategory('prefers')).toBe('actor');
    expect(relationCategory('follows_pattern')).toBe('conceptual');
  });

  it('maps loose entity types and falls back to concept', () => {
    expect(normalizeEntityType('Library')).toBe('library');
    expect(normalizeEntityType('error')).toBe('error_pattern');
    expect(normalizeEntityType('package')).toBe('library');
    expect(normalizeEntityType('spaceship')).toBe('concept');
    expect(normalizeEntityType(undefined)).toBe('concept');
  });

  it('deduplicates entity names by case, accents, quotes and spacing', () => {
    expect(entityKey('  Réact  Force  Graph ')).toBe('react force graph');
    expect(entityKey('`zod`')).toBe('zod');
  });
});
