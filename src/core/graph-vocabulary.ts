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

export const MEMORY_TYPES = ['episodic', 'semantic', 'procedural'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];
