/**
 * The knowledge graph's closed vocabularies, shared by the graph's rules and the
 * store that keeps its records: 10 entity types, the relations in 6 categories, and
 * Tulving's three memory types.
 *
 * The design announces 34 relations but its tables list 33; the 34th is `follows_pattern`,
 * which the design's own Tulving rules name as a procedural relation.
 */

export const ENTITY_TYPES = [
  'project',
  'tool',
  'error_pattern',
  'preference',
  'concept',
  'person',
  'file',
  'library',
  'pattern',
  'decision',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const RELATION_CATEGORIES = {
  structural: ['has_component', 'depends_on', 'extends', 'implements', 'configures', 'replaces', 'hosts'],
  technological: ['uses', 'integrates', 'built_with', 'migrated_from'],
  learning: ['decided_for', 'decided_against', 'learned_that', 'caused_by', 'solved_by', 'blocked_by', 'workaround_for'],
  experience: ['works_well_for', 'fails_for', 'performs_better_than', 'anti_pattern_in'],
  actor: ['works_on', 'prefers', 'frustrated_with', 'satisfied_with', 'created', 'maintains'],
  conceptual: ['related_to', 'inspired_by', 'contradicts', 'specializes', 'exemplifies', 'follows_pattern'],
} as const;

export type RelationCategory = keyof typeof RELATION_CATEGORIES;
export type Relation = (typeof RELATION_CATEGORIES)[RelationCategory][number];

/** Readable verb phrases, used when a fact is written as a sentence (and in the text its search document holds). */
export const RELATION_LABELS: Record<Relation, string> = {
  has_component: 'has component',
  depends_on: 'depends on',
  extends: 'extends',
  implements: 'implements',
  configures: 'configures',
  replaces: 'replaces',
  hosts: 'hosts',
  uses: 'uses',
  integrates: 'integrates',
  built_with: 'is built with',
  migrated_from: 'migrated from',
  decided_for: 'decided for',
  decided_against: 'decided against',
  learned_that: 'learned that',
  caused_by: 'is caused by',
  solved_by: 'is solved by',
  blocked_by: 'is blocked by',
  workaround_for: 'is a workaround for',
  works_well_for: 'works well for',
  fails_for: 'fails for',
  performs_better_than: 'performs better than',
  anti_pattern_in: 'is an anti-pattern in',
  works_on: 'works on',
  prefers: 'prefers',
  frustrated_with: 'is frustrated with',
  satisfied_with: 'is satisfied with',
  created: 'created',
  maintains: 'maintains',
  related_to: 'is related to',
  inspired_by: 'is inspired by',
  contradicts: 'contradicts',
  specializes: 'specializes',
  exemplifies: 'exemplifies',
  follows_pattern: 'follows the pattern',
};

/** The search collections the graph's records are mirrored into (one document per fact, per entity). */
export const FACTS_COLLECTION = 'facts';
export const ENTITIES_COLLECTION = 'entities';

export const MEMORY_TYPES = ['episodic', 'semantic', 'procedural'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];
