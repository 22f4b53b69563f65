/**
 * Lenient reading of untyped data (hook payloads, transcript records, tool inputs, parsed
 * manifests): a missing or mistyped value is undefined, never an exception.
 */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A non-empty string. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A string with something besides white space in it. */
export const nonBlank = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** An object, or a string holding a JSON object (some agents send tool input and output as text); else {}. */
export function asObject(value: unknown): Obj {
  if (isObj(value)) return value;
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return {};
}
