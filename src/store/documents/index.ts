/** The searchable index: documents of every collection, their full-text lists and their vectors. SQL only. */
import type { Db } from '../db.js';
import { type FullTextLists, createFullTextLists } from './full-text.js';
import { type DocumentRecords, createDocumentRecords } from './records.js';
import { type CollectionScopes, createCollectionScopes } from './scopes.js';
import { type StoredVectors, createStoredVectors } from './vectors.js';

export type { DocumentFilter, MatchOptions, RankedMatches } from './full-text.js';
export type { DocumentInput, DocumentRow, ThreadPlace, UpsertCounts } from './records.js';
export type { ScopedIds } from './scopes.js';
export type { SignCodeRow, VectorCounts, VectorWrite } from './vectors.js';

export interface DocumentRepository extends DocumentRecords, FullTextLists, StoredVectors, CollectionScopes {}

export function createDocumentRepository(db: Db): DocumentRepository {
  return { ...createDocumentRecords(db), ...createFullTextLists(db), ...createStoredVectors(db), ...createCollectionScopes(db) };
}
