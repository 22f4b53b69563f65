/** Searchable documents: the collections, and validation of what a user or agent sends to store. */
import { parseInstant } from '../core/clock.js';
import type { DocumentInput } from '../store/documents/index.js';

export const COLLECTIONS = ['instincts', 'sessions', 'turns', 'episodes', 'facts', 'entities', 'memories'] as const;
/** Collections indexed from their own tables; written only through those records. */
export const MIRRORED_COLLECTIONS: readonly string[] = ['instincts', 'sessions', 'turns', 'episodes', 'facts', 'entities'];
export const DEFAULT_COLLECTION = 'memories';
export const MAX_ID_CHARS = 512;
export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_SPEAKER_CHARS = 200;
const COLLECTION_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** Thrown for one bad input record; the message says which field and why. */
export class DocumentInputError extends Error {}

export function validateCollection(name: string, options: { allowMirrored?: boolean } = {}): string {
  if (!COLLECTION_NAME.test(name)) {
    throw new DocumentInputError(`collection must be lower-case letters, digits, "-" or "_" (max 64), got ${JSON.stringify(name)}`);
  }
  if (!options.allowMirrored && MIRRORED_COLLECTIONS.includes(name)) {
    throw new DocumentInputError(`collection "${name}" is indexed from its own records and cannot be written directly`);
  }
  return name;
}

const optionalString = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new DocumentInputError(`${field} must be a string`);
  return value;
};

const optionalNumber = (value: unknown, field: string, range?: [number, number]): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new DocumentInputError(`${field} must be a number`);
  if (range && (value < range[0] || value > range[1])) throw new DocumentInputError(`${field} must be between ${range[0]} and ${range[1]}`);
  return value;
};

/** Checks one `{id, text, collection?, ts?, project?, metadata?, ...}` record. */
export function validateDocumentInput(raw: unknown, defaults: { collection?: string } = {}): DocumentInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new DocumentInputError('expected a JSON object');
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'number' && Number.isFinite(r.id) ? String(r.id) : r.id;
  if (typeof id !== 'string' || id.trim() === '') throw new DocumentInputError('id must be a non-empty string');
  if (id.length > MAX_ID_CHARS) throw new DocumentInputError(`id is longer than ${MAX_ID_CHARS} characters`);
  if (typeof r.text !== 'string' || r.text.trim() === '') throw new DocumentInputError('text must be a non-empty string');
  if (r.text.length > MAX_TEXT_CHARS) throw new DocumentInputError(`text is longer than ${MAX_TEXT_CHARS} characters`);
  const collection = validateCollection(optionalString(r.collection, 'collection') ?? defaults.collection ?? DEFAULT_COLLECTION);
  const tsText = optionalString(r.ts, 'ts');
  let ts: string | undefined;
  if (tsText !== undefined) {
    const at = parseInstant(tsText);
    if (!at) throw new DocumentInputError(`ts must be an ISO-8601 date or instant, got ${JSON.stringify(tsText)}`);
    ts = at.toISOString();
  }
  const metadata = r.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw new DocumentInputError('metadata must be a JSON object');
  }
  const speaker = optionalString(r.speaker, 'speaker')?.trim();
  if (speaker !== undefined && (speaker === '' || speaker.length > MAX_SPEAKER_CHARS)) {
    throw new DocumentInputError(`speaker must be a non-empty name of at most ${MAX_SPEAKER_CHARS} characters`);
  }
  const seq = optionalNumber(r.seq, 'seq');
  if (seq !== undefined && !Number.isSafeInteger(seq)) throw new DocumentInputError('seq must be a whole number');
  return {
    id,
    text: r.text,
    collection,
    title: optionalString(r.title, 'title'),
    ts,
    project: optionalString(r.project, 'project'),
    thread: optionalString(r.thread, 'thread'),
    seq,
    speaker,
    metadata: (metadata as Record<string, unknown> | undefined) ?? undefined,
    confidence: optionalNumber(r.confidence, 'confidence', [0, 1]),
    activation: optionalNumber(r.activation, 'activation'),
  };
}
