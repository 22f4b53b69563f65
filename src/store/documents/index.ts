/** The searchable index: documents of every collection, their full-text lists and their vectors. SQL only. */
import type { Db } from '../db.js';
import { type DocumentRecords, createDocumentRecords } from './records.js';

export type { DocumentInput, DocumentRow, ThreadPlace, UpsertCounts } from './records.js';

export type DocumentRepository = DocumentRecords;

export function createDocumentRepository(db: Db): DocumentRepository {
  return createDocumentRecords(db);
}
