/**
 * 3-5 queries per prompt (the agentic retrieval), each with a category and a
 * weight set by the task type, plus one for the identifiers and paths the prompt names.
 * Categories map to the relations (or memory types) they search.
 */
import type { Relation } from '../graph/ontology.js';
import { factTerms } from '../text/terms.js';
import type { TaskType } from './classify.js';

export type Category = 'stack' | 'context' | 'decisions' | 'errors' | 'patterns';

export interface GeneratedQuery {
  text: string;
  category: Category;
  weight: number;
}

/** Which facts a category searches; context searches them all. */
export const CATEGORY_RELATIONS: Record<Exclude<Category, 'context'>, readonly Relation[]> = {
  stack: ['uses', 'integrates', 'built_with', 'migrated_from', 'depends_on', 'replaces'],
  errors: ['caused_by', 'solved_by', 'blocked_by', 'workaround_for', 'fails_for'],
  decisions: ['decided_for', 'decided_against', 'prefers', 'learned_that', 'satisfied_with', 'frustrated_with'],
  patterns: [
    'implements',
    'follows_pattern',
    'exemplifies',
    'works_well_for',
    'performs_better_than',
    'anti_pattern_in',
    'specializes',
    'extends',
  ],
};

/** The category a fact belongs to, from its relation. */
export function categoryOf(relation: Relation): Category {
  for (const [category, relations] of Object.entries(CATEGORY_RELATIONS) as [Category, readonly Relation[]][]) {
    if (relations.includes(relation)) return category;
  }
  return 'context';
}

/** Words that reach a category's facts when the prompt shares none with them. */
const HINTS: Record<Category, string> = {
  stack: 'uses depends written library framework language',
  context: '',
  decisions: 'decided prefers chose always never',
  errors: 'error fails failed fix bug',
  patterns: 'when pattern convention workflow',
};

const PLAN: Record<TaskType, [Category, number][]> = {
  feature: [
    ['context', 1],
    ['stack', 0.8],
    ['patterns', 0.6],
    ['decisions', 0.5],
  ],
  bugfix: [
    ['errors', 1],
    ['context', 0.8],
    ['stack', 0.5],
    ['patterns', 0.5],
  ],
  debug: [
    ['errors', 1],
    ['context', 0.8],
    ['stack', 0.6],
  ],
  refactor: [
    ['patterns', 1],
    ['decisions', 0.8],
    ['context', 0.7],
    ['stack', 0.4],
  ],
  question: [
    ['context', 1],
    ['decisions', 0.7],
    ['stack', 0.6],
  ],
  design: [
    ['decisions', 1],
    ['patterns', 0.8],
    ['context', 0.7],
    ['stack', 0.5],
  ],
  unknown: [
    ['context', 1],
    ['stack', 0.6],
    ['decisions', 0.5],
  ],
};

/** Paths, file names and code identifiers (camelCase, snake_case, dotted) the prompt names. */
export function identifiers(prompt: string): string[] {
  const out = new Set<string>();
  for (const m of prompt.matchAll(
    /[\w@.-]*[/\\][\w@./\\-]+|\b[\w-]+\.(?:ts|tsx|js|jsx|py|go|rs|rb|java|json|toml|md|ya?ml|sql|css|html)\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b|\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g,
  )) {
    out.add(m[0]);
  }
  return [...out].slice(0, 8);
}

export const MAX_QUERIES = 5;

export function generateQueries(prompt: string, task: TaskType): GeneratedQuery[] {
  const keywords = factTerms(prompt, 12).join(' ');
  const queries: GeneratedQuery[] = PLAN[task].map(([category, weight]) => ({
    text: `${keywords} ${HINTS[category]}`.trim(),
    category,
    weight,
  }));
  const ids = identifiers(prompt);
  if (ids.length > 0 && queries.length < MAX_QUERIES) queries.push({ text: ids.join(' '), category: 'context', weight: 0.9 });
  return queries.slice(0, MAX_QUERIES);
}
