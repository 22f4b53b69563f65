/**
 * The ontology as rules: relation labels, categories and opposites, the legacy
 * names older extractions used normalised onto the relations, and loose entity types
 * mapped onto the ten. The vocabularies themselves are shared with the store.
 */

import {
  ENTITY_TYPES,
  type EntityType,
  RELATION_CATEGORIES,
  RELATION_LABELS,
  type Relation,
  type RelationCategory,
} from '../core/graph-vocabulary.js';

export { ENTITY_TYPES, type EntityType, RELATION_CATEGORIES, RELATION_LABELS, type Relation, type RelationCategory };

export const RELATIONS: readonly Relation[] = Object.values(RELATION_CATEGORIES).flat();

const CATEGORY_OF = new Map<string, RelationCategory>(
  (Object.entries(RELATION_CATEGORIES) as [RelationCategory, readonly Relation[]][]).flatMap(([c, rs]) => rs.map((r) => [r, c] as const)),
);

/** Names earlier extractions produced, mapped onto the ontology. */
const LEGACY_RELATIONS: Readonly<Record<string, Relation>> = {
  involves: 'related_to',
  ecosystem: 'has_component',
  relates_to: 'related_to',
  associated_with: 'related_to',
  similar_to: 'related_to',
  part_of_ecosystem: 'has_component',
  contains: 'has_component',
  requires: 'depends_on',
  needs: 'depends_on',
  configured_with: 'configures',
  powered_by: 'built_with',
  written_in: 'built_with',
  uses_library: 'uses',
  uses_tool: 'uses',
  chose: 'decided_for',
  chosen: 'decided_for',
  rejected: 'decided_against',
  avoids: 'decided_against',
  fixed_by: 'solved_by',
  resolved_by: 'solved_by',
  likes: 'prefers',
  prefers_over: 'prefers',
  dislikes: 'frustrated_with',
  learned: 'learned_that',
  derived_from: 'inspired_by',
  supersedes: 'replaces',
};

/** Relation pairs that cannot both hold between the same two entities: the later one wins. */
export const OPPOSITE_RELATIONS: Readonly<Partial<Record<Relation, Relation>>> = {
  decided_for: 'decided_against',
  decided_against: 'decided_for',
  works_well_for: 'fails_for',
  fails_for: 'works_well_for',
  satisfied_with: 'frustrated_with',
  frustrated_with: 'satisfied_with',
};

const RELATION_SET = new Set<string>(RELATIONS);
const ENTITY_TYPE_SET = new Set<string>(ENTITY_TYPES);

/** "Depends-On", "depends on", "DEPENDS_ON" -> depends_on; legacy names mapped; unknown -> undefined. */
export function normalizeRelation(raw: string): Relation | undefined {
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (RELATION_SET.has(key)) return key as Relation;
  return LEGACY_RELATIONS[key];
}

export function relationCategory(relation: Relation): RelationCategory {
  return CATEGORY_OF.get(relation) ?? 'conceptual';
}

function isEntityType(value: string): value is EntityType {
  return ENTITY_TYPE_SET.has(value);
}

/** Entity types given loosely ("Library", "error", "lib") are mapped; anything else is a concept. */
export function normalizeEntityType(raw: string | undefined): EntityType {
  const key = (raw ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (isEntityType(key)) return key;
  const aliases: Record<string, EntityType> = {
    error: 'error_pattern',
    bug: 'error_pattern',
    lib: 'library',
    package: 'library',
    dependency: 'library',
    framework: 'library',
    language: 'tool',
    command: 'tool',
    user: 'person',
    repo: 'project',
    repository: 'project',
    idea: 'concept',
    choice: 'decision',
  };
  return aliases[key] ?? 'concept';
}

/** The key entities are deduplicated by: case, accents, spacing and quotes do not matter. */
export function entityKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[`"'“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
