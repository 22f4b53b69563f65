/**
 * Session summaries: one row per session, upserted from its observations at
 * every stop, so a session's summary grows with it; the session is counted once, when its
 * row is created.
 */
import type { ProjectInfo } from '../../core/project.js';
import { redact } from '../../core/redact.js';
import type { SessionRow } from '../../store/sessions.js';
import type { Store } from '../../store/store.js';
import { sessionFacts, summaryText } from './facts.js';
import { shortText } from '../redact.js';
import { sessionFileName } from './files.js';

interface SessionEndInput {
  source: string;
  sessionId: string;
  cwd: string;
  project: ProjectInfo;
  /** When the session (or its latest turn) ended. */
  endedAt: string;
  transcriptPath?: string;
  /** A title the agent gave the session (a transcript's summary record). */
  title?: string;
}

export interface SavedSession {
  row: SessionRow;
  /** The row is new: the session was counted now. */
  created: boolean;
}

/**
 * Upserts the session's row from its observations, counts the session the first time it
 * is seen, and returns the row (undefined when the session has no observations at all).
 */
export function upsertSession(store: Store, input: SessionEndInput): SavedSession | undefined {
  return store.transaction(() => {
    const rows = store.observations.forSession(input.sessionId, { source: input.source });
    const existing = store.sessions.get(input.sessionId);
    if (rows.length === 0 && !existing) return undefined;
    const facts = sessionFacts(rows, input.endedAt);
    const startedAt = existing?.started_at && existing.started_at < facts.startedAt ? existing.started_at : facts.startedAt;
    const previous = store.sessions.previous(input.project.fingerprint, input.sessionId, startedAt);
    const row: SessionRow = {
      id: input.sessionId,
      source: input.source,
      project: input.project.fingerprint,
      project_name: redact(input.project.name),
      cwd: redact(input.cwd) || existing?.cwd || '',
      started_at: startedAt,
      ended_at: existing?.ended_at && existing.ended_at > facts.endedAt ? existing.ended_at : facts.endedAt,
      tools_used: JSON.stringify(facts.toolsUsed),
      tool_counts: JSON.stringify(facts.toolCounts),
      files_touched: JSON.stringify(facts.filesTouched),
      // The title comes from the transcript as written; the rest from redacted observations.
      summary: redact(summaryText(facts, input.title ? shortText(input.title) : undefined)),
      continues_from: previous ?? null,
      transcript_path: input.transcriptPath ?? existing?.transcript_path ?? null,
      file_name: existing?.file_name ?? sessionFileName(startedAt, input.sessionId),
    };
    store.sessions.save(row);
    if (!existing) store.identity.countSession(row.ended_at ?? input.endedAt);
    return { row, created: !existing };
  });
}
