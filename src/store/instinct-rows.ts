/** The instinct row and the filters the repository reads it by: types only, shared by the repository and its queries. */
import type { Category } from '../core/domain.js';

export interface InstinctRow {
  id: number;
  key: string;
  category: Category;
  trigger: string;
  action: string;
  title: string;
  domain: string;
  project: string;
  source: string;
  explain: string;
  metadata: string;
  evidence: number;
  level: number;
  confidence: number;
  folded_periods: number;
  first_seen: string;
  last_seen: string;
  promoted_at: string | null;
  promoted_to: string | null;
  file_name: string | null;
}

export interface ListFilter {
  /** Only these instincts. */
  ids?: readonly number[];
  category?: Category;
  project?: string;
  /** Also include the global '' bucket when a project is given. */
  includeGlobal?: boolean;
  minEvidence?: number;
  minLevel?: number;
  /** Case-insensitive substring of key, metadata or explain. */
  keyword?: string;
  /** Each a case-insensitive substring of the trigger or the action (the dashboard's Find). */
  words?: readonly string[];
  /** Only instincts seen at or after this instant. */
  seenSince?: string;
  /** Leave out instincts promoted to convictions. */
  unpromoted?: boolean;
  /** Leave out instincts whose latest feedback from the user is "wrong". */
  unrefuted?: boolean;
  /** 'evidence' (default: strongest first) or 'recent' (last seen first). */
  order?: 'evidence' | 'recent';
  limit?: number;
}

/** An instinct matched by its terms: BM25 over key, trigger, action, explain and metadata (lower is better). */
export interface TermMatch {
  row: InstinctRow;
  bm25: number;
}
