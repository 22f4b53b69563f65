/**
 * Input fields shared by operations, with messages that read after a field name
 * ("--limit must be a whole number of at least 0, got -1").
 */
import { z } from 'zod';
import { CATEGORIES, DOMAINS, FEEDBACK } from '../core/domain.js';

const MAX_TEXT = 10_000;

export const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const message =
    max === Number.MAX_SAFE_INTEGER ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

export const unitInterval = () => {
  const message = 'must be a number between 0 and 1';
  return z.number({ error: message }).min(0, { error: message }).max(1, { error: message });
};

export const days = () => {
  const message = 'must be a positive number of days (at most 36500)';
  return z.number({ error: message }).positive({ error: message }).max(36_500, { error: message });
};

export const oneOf = <T extends string>(values: readonly [T, ...T[]]) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const text = (max = MAX_TEXT) => z.string({ error: 'must be text' }).max(max, { error: `must be at most ${max} characters` });

/** A pattern key (`prefix:body`); the key convention itself is checked by the domain (parseKey), which says how to fix it. */
export const patternKey = () =>
  z
    .string({ error: 'must be a pattern key such as "pref:pkg=pnpm"' })
    .max(512, { error: 'must be at most 512 characters' })
    // An empty key names nothing: a usage error saying what to give, not "Not found: ".
    .refine((key) => key.trim() !== '', { error: 'must not be empty: give a pattern key such as "pref:pkg=pnpm"' });

export const category = () => oneOf(CATEGORIES);
export const domain = () => oneOf(DOMAINS);
export const feedback = () => oneOf(FEEDBACK);

/** Where a correction came from, for the instinct event log: a surface (cli, mcp, dashboard), or 'user' when none says. */
export const CHANGE_SOURCES = ['cli', 'mcp', 'dashboard', 'user'] as const;
export const changeSource = () => oneOf(CHANGE_SOURCES).default('user');
