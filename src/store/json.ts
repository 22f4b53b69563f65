/** JSON columns: parse defensively so one bad row never breaks a listing. */
import { isObj } from '../core/fields.js';

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  const value = parseJson<unknown>(text, {});
  return isObj(value) ? value : {};
}

export function parseStringArray(text: string | null | undefined): string[] {
  const value = parseJson<unknown>(text, []);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
