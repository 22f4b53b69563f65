/** The record shapes of the MCP contract, as zod schemas shared by every tool's outputSchema. */
import { z } from 'zod';
import { oneOf } from '../app/schemas.js';
import { CATEGORIES } from '../core/domain.js';

/** Bounds on every string an agent can send: a 1 MB argument is refused with a clear error. */
export const MAX_ARG = 10_000;
export const keyArg = z.string().min(1).max(512);
export const textArg = z.string().max(MAX_ARG);
/** How many rows to return: at least one (the operations refuse 0, so the schema says so too). */
export const limitArg = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);

const category = oneOf(CATEGORIES);
/** A category or "" (none given): the error names the values, where a union said only "Invalid input". */
export const categoryFilter = z.enum([...CATEGORIES, ''], { error: `must be one of ${CATEGORIES.join(', ')}, or ""` });

export const record = z.object({
  pattern: z.string(),
  category,
  confidence: z.number().int(),
  promoted: z.number().int().min(0).max(3),
  level: z.enum(['raw', 'mature', 'rule', 'universal']),
  project: z.string(),
  source: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  explain: z.string(),
  first_seen: z.string(),
  last_seen: z.string(),
});

export const compactRecord = z.object({
  pattern: z.string(),
  confidence: z.number().int(),
  level: z.enum(['raw', 'mature', 'rule', 'universal']),
});

export const statsShape = z.object({
  total: z.number().int(),
  raw: z.number().int(),
  mature: z.number().int(),
  rules: z.number().int(),
  universal: z.number().int(),
  avg_confidence: z.number(),
  max_confidence: z.number().int(),
  by_category: z.record(z.string(), z.object({ count: z.number().int(), avg_confidence: z.number() })),
});

/** A result that is either the documented object or the contract's `{"error": "..."}`. */
export function orError<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape).partial().extend({ error: z.string().optional() });
}
