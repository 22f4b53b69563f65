/**
 * A Claude Code transcript (~/.claude/projects/<slug>/<session>.jsonl) replayed as the hook
 * payloads Claude Code would have sent: SessionStart at the first record, UserPromptSubmit
 * for each typed prompt, PostToolUse / PostToolUseFailure for each tool_use once its
 * tool_result arrives, SessionEnd after the last record. The import and the replay tests
 * feed these to the same code the live hooks run.
 *
 * Record types: user (prompts and tool results), assistant (one content block per line,
 * tool_use among them), progress, system, file-history-snapshot, summary, queue-operation,
 * pr-link. Only user and assistant records carry observations; summary gives the title.
 */
import type { HookName } from '../agents.js';
import { type Obj, isObj, str } from '../../core/fields.js';
import { resultText, typedPrompt } from './records.js';

export interface TranscriptEvent {
  /** A hook's event, or `answer`: what the agent wrote in a turn, which no hook carries. */
  hook: HookName | 'answer';
  payload: Record<string, unknown>;
}

/** The end of a turn's text is its answer: kept when a turn says more. */
const MAX_ANSWER_CHARS = 4_000;
/** Where malformed lines are is kept for the first few of a file: enough to name them. */
const MAX_MALFORMED_KEPT = 5;

export interface TranscriptStats {
  lines: number;
  malformed: number;
  /** Where the malformed lines are (1-based line numbers in the file, the first few). */
  malformedAt: number[];
  byType: Record<string, number>;
  toolUses: number;
  toolResults: number;
  /** tool_use blocks that never got a result (the session was cut short). */
  unfinished: number;
  prompts: number;
  sessionId?: string;
  title?: string;
}

const emptyStats = (): TranscriptStats => ({
  lines: 0,
  malformed: 0,
  malformedAt: [],
  byType: {},
  toolUses: 0,
  toolResults: 0,
  unfinished: 0,
  prompts: 0,
});

interface PendingUse {
  name: string;
  input: unknown;
  ts: string;
}

/**
 * Replays transcript lines as hook events, fed one line at a time (files can be large).
 * `stats` is filled as lines are read; malformed lines are counted and skipped.
 */
export class TranscriptReplay {
  private readonly pending = new Map<string, PendingUse>();
  private sessionId: string | undefined;
  private cwd = '';
  private version: string | undefined;
  private lastTs: string | undefined;
  private startReason = 'startup';
  /** What the agent wrote since the last typed prompt. */
  private said: string[] = [];
  /** The physical line being read, blank ones included. */
  private lineNo = 0;
  private saidAt: string | undefined;
  /** Summary lines, and the line of each message uuid: the title is chosen once the file is read. */
  private readonly summaries: SummaryLine[] = [];
  private readonly uuidLines = new Map<string, number>();

  constructor(
    private readonly transcriptPath: string,
    readonly stats: TranscriptStats = emptyStats(),
  ) {}

  /** Counts the line being read as malformed, and keeps where the first few are. */
  private malformed(): void {
    this.stats.malformed++;
    if (this.stats.malformedAt.length < MAX_MALFORMED_KEPT) this.stats.malformedAt.push(this.lineNo);
  }

  private base(): Obj {
    return {
      session_id: this.sessionId,
      transcript_path: this.transcriptPath,
      cwd: this.cwd,
      ...(this.version ? { version: this.version } : {}),
    };
  }

  *feed(line: string): Generator<TranscriptEvent> {
    const stats = this.stats;
    this.lineNo++;
    if (!line.trim()) return;
    stats.lines++;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      this.malformed();
      // A write cut short, then the next record appended on the same line (the session's summary,
      // as Claude Code writes it on exit): the cut record is lost, the one after it is kept.
      record = recordAfterCut(line);
      if (record === undefined) return;
    }
    if (!isObj(record)) {
      this.malformed();
      return;
    }
    const type = str(record.type) ?? 'unknown';
    stats.byType[type] = (stats.byType[type] ?? 0) + 1;
    if (type === 'summary' && str(record.summary)) {
      this.summaries.push({ summary: record.summary as string, leafUuid: str(record.leafUuid) });
    }
    if (str(record.uuid)) this.uuidLines.set(record.uuid as string, stats.lines);
    const ts = str(record.timestamp) && !Number.isNaN(Date.parse(record.timestamp as string)) ? (record.timestamp as string) : undefined;
    if (ts) this.lastTs = ts;
    if (str(record.cwd)) this.cwd = record.cwd as string;
    if (str(record.version)) this.version = record.version as string;
    if (type === 'progress' && isObj(record.data) && record.data.hookEvent === 'SessionStart' && !this.sessionId) {
      this.startReason = String(record.data.hookName ?? '').split(':')[1] || this.startReason;
    }
    if (!this.sessionId && str(record.sessionId) && this.lastTs) {
      this.sessionId = record.sessionId as string;
      stats.sessionId = this.sessionId;
      yield {
        hook: 'start',
        payload: { ...this.base(), hook_event_name: 'SessionStart', source: this.startReason, timestamp: this.lastTs },
      };
    }
    if (!this.sessionId) return;
    const message = isObj(record.message) ? record.message : undefined;
    if (type === 'assistant' && message && Array.isArray(message.content)) {
      for (const block of message.content.filter(isObj)) {
        if (block.type === 'text' && str(block.text)) {
          this.said.push(block.text as string);
          this.saidAt = ts ?? this.lastTs;
        }
        if (block.type !== 'tool_use' || !str(block.id) || !str(block.name)) continue;
        stats.toolUses++;
        this.pending.set(block.id as string, { name: block.name as string, input: block.input, ts: ts ?? this.lastTs ?? '' });
      }
    } else if (type === 'user' && message) {
      yield* this.user(record, message, ts);
    }
  }

  private *user(record: Obj, message: Obj, ts: string | undefined): Generator<TranscriptEvent> {
    const blocks = Array.isArray(message.content) ? message.content.filter(isObj) : [];
    const results = blocks.filter((b) => b.type === 'tool_result' && str(b.tool_use_id));
    for (const block of results) {
      const id = block.tool_use_id as string;
      const use = this.pending.get(id);
      if (!use) continue;
      this.pending.delete(id);
      this.stats.toolResults++;
      const at = ts ?? this.lastTs ?? use.ts;
      const duration = Date.parse(at) - Date.parse(use.ts);
      const common = {
        ...this.base(),
        tool_name: use.name,
        tool_input: use.input,
        tool_use_id: id,
        timestamp: at,
        ...(duration >= 0 ? { duration_ms: duration } : {}),
      };
      if (block.is_error === true) {
        yield { hook: 'observe', payload: { ...common, hook_event_name: 'PostToolUseFailure', error: resultText(block) } };
      } else {
        // toolUseResult belongs to the record; it is this block's only when the record has one result.
        const response = results.length === 1 && record.toolUseResult !== undefined ? record.toolUseResult : resultText(block);
        yield { hook: 'observe', payload: { ...common, hook_event_name: 'PostToolUse', tool_response: response } };
      }
    }
    if (results.length > 0) return;
    const prompt = typedPrompt(record);
    if (prompt === undefined) return;
    yield* this.answer();
    this.stats.prompts++;
    yield { hook: 'prompt', payload: { ...this.base(), hook_event_name: 'UserPromptSubmit', prompt, timestamp: ts ?? this.lastTs } };
  }

  /** What the agent wrote in the turn that just ended, if anything. */
  private *answer(): Generator<TranscriptEvent> {
    const text = this.said.join('\n\n').trim();
    this.said = [];
    if (!text || !this.sessionId) return;
    yield { hook: 'answer', payload: { ...this.base(), answer: text.slice(-MAX_ANSWER_CHARS), timestamp: this.saidAt ?? this.lastTs } };
  }

  /** After the last line: counts unfinished tool calls and ends the session. */
  *finish(): Generator<TranscriptEvent> {
    const title = sessionTitle(this.summaries, this.uuidLines);
    if (title !== undefined) this.stats.title = title;
    yield* this.answer();
    this.stats.unfinished += this.pending.size;
    this.pending.clear();
    if (this.sessionId && this.lastTs) {
      yield { hook: 'stop', payload: { ...this.base(), hook_event_name: 'SessionEnd', reason: 'transcript', timestamp: this.lastTs } };
    }
  }
}

interface SummaryLine {
  summary: string;
  leafUuid: string | undefined;
}

/**
 * The session's title: the summary whose leaf message is latest in this file, as Claude Code
 * picks it. A summary whose leaf is not in the file summarises another session (Claude Code
 * copies those in on resume), so it is never this one's title.
 */
export function sessionTitle(summaries: readonly SummaryLine[], uuidLines: ReadonlyMap<string, number>): string | undefined {
  let best: { summary: string; line: number } | undefined;
  for (const s of summaries) {
    const line = s.leafUuid === undefined ? undefined : uuidLines.get(s.leafUuid);
    if (line !== undefined && (!best || line >= best.line)) best = { summary: s.summary, line };
  }
  return best?.summary;
}

/** The whole record at the end of a line whose start was cut short, if one is there (a few tries from the end). */
function recordAfterCut(line: string): unknown {
  let at = line.length;
  for (let tries = 0; tries < 20; tries++) {
    at = line.lastIndexOf('{"', at - 1);
    if (at <= 0) return undefined;
    try {
      return JSON.parse(line.slice(at));
    } catch {
      // Not a record's start: an object inside the cut one; look further back.
    }
  }
  return undefined;
}
