/** Free text as a full-text query: its size limits, its cleaning, deliberate FTS5 syntax. Pure. */

/** Longer queries are cut here: a 1 MB paste must not become a 1 MB FTS expression. */
export const MAX_QUERY_CHARS = 2000;
export const MAX_QUERY_TERMS = 48;

/** Removes NUL and other control characters and caps the length. */
export function sanitizeQuery(text: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  return cleaned.length > MAX_QUERY_CHARS ? cleaned.slice(0, MAX_QUERY_CHARS) : cleaned;
}

/** Whether the user wrote FTS5 syntax on purpose (phrases, boolean operators, prefix stars, NEAR). */
export function looksLikeFtsSyntax(text: string): boolean {
  return /"|\*|\b(AND|OR|NOT)\b|NEAR\(|\^/.test(text);
}
