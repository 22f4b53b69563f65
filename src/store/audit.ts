/**
 * Reads for the dashboard's Memory and Security sections that span aggregates: what
 * redaction hid in stored text (counted here, so no text leaves the store), instinct
 * history since a date, and recent sessions.
 */
import { countMarks } from '../core/secret-values.js';
import { type Db, cachedStatement } from './db.js';
import type { EventKind } from './instincts.js';

/** Where stored text lives: tool calls, prompts (observations with event 'prompt'), search documents. */
export type TextPlace = 'observations' | 'prompts' | 'documents';

export interface RedactionCount {
  place: TextPlace;
  kind: string;
  count: number;
}

/** One instinct event, with its instinct's key and stored confidence now. */
export interface InstinctEventLine {
  /** null once the instinct was forgotten by hand: its log stays, keyed by `pattern`. */
  instinct_id: number | null;
  pattern: string;
  confidence: number;
  ts: string;
  kind: EventKind;
  delta_evidence: number;
  delta_confidence: number;
  /** Who made it (cli, dashboard, observer, ...). */
  source: string;
  /** What the event says: a merge's "absorbed KEY", a forget's snapshot with learning's reason. */
  detail: string;
}

export interface AuditRepository {
  /** How many `[REDACTED:kind]` marks the stored text holds, by place and kind (observations include the archive). */
  redactions(): RedactionCount[];
  /** Every instinct event at or after `since`, oldest first. */
  instinctEventsSince(since: string): InstinctEventLine[];
  /** Sessions that started or ended at or after `since`. */
  sessionsActiveSince(since: string): number;
}

const MARKED = "LIKE '%[REDACTED:%'";
const OBSERVED_TEXT = (table: string) => `SELECT CASE WHEN event = 'prompt' THEN 'prompts' ELSE 'observations' END AS place,
  intent || char(10) || input || char(10) || error AS text FROM ${table}
  WHERE intent ${MARKED} OR input ${MARKED} OR error ${MARKED}`;
const REDACTED_TEXT = `${OBSERVED_TEXT('observations')} UNION ALL ${OBSERVED_TEXT('observations_archive')}
  UNION ALL SELECT 'documents' AS place, title || char(10) || text AS text FROM documents WHERE title ${MARKED} OR text ${MARKED}`;

// A forgotten instinct's events have no row to join: its key is on the event, its confidence 0.
const EVENTS_SINCE = `SELECT e.instinct_id, coalesce(i.key, e.pattern) AS pattern, coalesce(i.confidence, 0) AS confidence, e.ts, e.kind,
  e.delta_evidence, e.delta_confidence, e.source, e.detail
  FROM instinct_events e LEFT JOIN instincts i ON i.id = e.instinct_id WHERE e.ts >= ? ORDER BY e.ts, e.id`;

export function createAuditRepository(db: Db): AuditRepository {
  return {
    redactions() {
      const counts = new Map<TextPlace, Map<string, number>>();
      for (const row of cachedStatement(db, REDACTED_TEXT).iterate() as Iterable<{ place: TextPlace; text: string }>) {
        const kinds = counts.get(row.place) ?? new Map<string, number>();
        countMarks(row.text, kinds);
        counts.set(row.place, kinds);
      }
      return [...counts].flatMap(([place, kinds]) => [...kinds].map(([kind, count]) => ({ place, kind, count })));
    },
    instinctEventsSince: (since) => cachedStatement(db, EVENTS_SINCE).all(since) as InstinctEventLine[],
    sessionsActiveSince: (since) =>
      (
        cachedStatement(db, 'SELECT COUNT(*) AS n FROM sessions WHERE COALESCE(ended_at, started_at) >= ?').get(since) as {
          n: number;
        }
      ).n,
  };
}
