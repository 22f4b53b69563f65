/** Searchable documents, their full-text indexes and vectors. SQL only. */
import type { Db } from './db.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as search moves its SQL here
export interface DocumentRepository {}

export function createDocumentRepository(_db: Db): DocumentRepository {
  return {};
}
