import { UsageError } from './errors.js';

/** One clock for every time-dependent rule. HOMUNCULUS_NOW (ISO-8601) freezes it. */
export interface Clock {
  now(): Date;
}

export const DAY_MS = 86_400_000;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses a strict ISO-8601 date or instant; returns undefined when it is not one (2026-02-31 is not: Date would roll it over). */
export function parseInstant(text: string): Date | undefined {
  const trimmed = text.trim();
  if (!ISO_INSTANT.test(trimmed)) return undefined;
  const [year, month, day] = trimmed.slice(0, 10).split('-').map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function systemClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const frozen = env.HOMUNCULUS_NOW;
  if (frozen !== undefined && frozen !== '') {
    const date = parseInstant(frozen);
    if (!date) {
      throw new UsageError(
        `HOMUNCULUS_NOW is not an ISO-8601 instant: ${JSON.stringify(frozen)}`,
        'Use a value such as 2026-03-01T12:00:00Z, or unset HOMUNCULUS_NOW.',
      );
    }
    return fixedClock(date);
  }
  return { now: () => new Date() };
}

export function fixedClock(date: Date | string): Clock {
  const at = typeof date === 'string' ? new Date(date) : date;
  return { now: () => new Date(at.getTime()) };
}

/** Waits `ms` without giving up the thread, for synchronous code that must retry (locks, busy files). */
export const pauseSync = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
