/**
 * What extraction reads from a session: one event per prompt or tool use, from the
 * observations table (the capture contract) or, when a session was never captured, from
 * its Claude Code transcript, redacted as it is read (capture redacted the observations).
 */
import { readFileSync } from 'node:fs';
import { baseCommand } from '../../capture/map/command.js';
import { redact } from '../../core/redact.js';
import { type HiddenValues, hideEchoes, redactInput } from '../../core/redact-echo.js';
import type { ObservationRow } from '../../store/observations.js';
import { parseJsonObject, parseStringArray } from '../../store/json.js';

export interface SessionEvent {
  ts: string;
  event: 'tool' | 'prompt' | 'session_start' | 'session_end';
  tool: string;
  intent: string;
  /** Bash: the command; file tools: the path; prompts: the text. */
  input: string;
  files: string[];
  outcome: 'ok' | 'error' | 'blocked';
  error: string;
  /** Bash: the program and its subcommand ("git commit"), as capture records it in base_command. */
  baseCommand: string;
}

const MAX_TRANSCRIPT_BYTES = 50_000_000;
/** Each text is cut to this before it is redacted, as capture does. */
const MAX_TEXT_CHARS = 16 * 1024;

export function eventsFromObservations(rows: readonly ObservationRow[]): SessionEvent[] {
  return rows.map((r) => {
    const data = parseJsonObject(r.data);
    const event = (['tool', 'prompt', 'session_start', 'session_end'] as const).find((e) => e === r.event) ?? 'tool';
    const base = typeof data.base_command === 'string' ? data.base_command : r.tool === 'Bash' ? baseCommand(r.input) : '';
    return {
      ts: r.ts,
      event,
      tool: r.tool,
      intent: r.intent,
      input: r.input,
      files: parseStringArray(r.files),
      outcome: r.outcome,
      error: r.error,
      baseCommand: base,
    };
  });
}

type Block = {
  type?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
  text?: string;
};

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((b) => (typeof b === 'string' ? b : typeof (b as Block)?.text === 'string' ? (b as Block).text : '')).join('\n');
  return '';
}

function toolInput(name: string, input: Record<string, unknown>): { input: string; files: string[]; intent: string } {
  const str = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  const path = str('file_path') || str('notebook_path') || str('path');
  if (name === 'Bash') return { input: str('command').slice(0, 2000), files: [], intent: str('description') };
  if (['Edit', 'Write', 'MultiEdit', 'Read', 'NotebookEdit'].includes(name)) return { input: path, files: path ? [path] : [], intent: '' };
  if (name === 'Grep' || name === 'Glob') return { input: str('pattern'), files: [], intent: '' };
  if (name === 'Task') return { input: str('prompt').slice(0, 500), files: [], intent: str('description') };
  return { input: JSON.stringify(input).slice(0, 500), files: [], intent: '' };
}

interface PendingCall {
  e: SessionEvent;
  /** The values the call's input hid, which its result may print again. */
  hidden: HiddenValues;
}

/** A call whose result is an error: its error text, redacted, with what its input hid hidden too. */
function markFailed(call: PendingCall, content: unknown): void {
  call.e.outcome = 'error';
  const text = hideEchoes(blockText(content).slice(0, MAX_TEXT_CHARS), call.hidden);
  call.e.error = redact(text).trim().slice(0, 500) || 'error';
}

interface Transcript {
  sessionId: string;
  cwd: string;
  events: SessionEvent[];
}

/** Parses a Claude Code transcript (JSONL); unreadable lines are skipped. */
export function readTranscript(path: string): Transcript {
  const text = readFileSync(path, 'utf8').slice(0, MAX_TRANSCRIPT_BYTES);
  const events: SessionEvent[] = [];
  const pending = new Map<string, PendingCall>();
  let sessionId = '';
  let cwd = '';
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let rec: { type?: string; timestamp?: string; sessionId?: string; cwd?: string; message?: { content?: unknown } };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      continue;
    }
    sessionId ||= rec.sessionId ?? '';
    cwd ||= rec.cwd ?? '';
    const ts = rec.timestamp ?? '';
    const content = rec.message?.content;
    if (rec.type === 'user' && typeof content === 'string') {
      if (!content.trimStart().startsWith('<'))
        events.push({
          ts,
          event: 'prompt',
          tool: '',
          intent: '',
          input: redact(content.slice(0, MAX_TEXT_CHARS)).slice(0, 4000),
          files: [],
          outcome: 'ok',
          error: '',
          baseCommand: '',
        });
      continue;
    }
    if (!Array.isArray(content)) continue;
    for (const block of content as Block[]) {
      if (rec.type === 'assistant' && block.type === 'tool_use' && block.name) {
        const { input, hidden } = redactInput(block.input ?? {}, MAX_TEXT_CHARS);
        const t = toolInput(block.name, input);
        const e: SessionEvent = {
          ts,
          event: 'tool',
          tool: redact(block.name),
          ...t,
          outcome: 'ok',
          error: '',
          baseCommand: block.name === 'Bash' ? baseCommand(t.input) : '',
        };
        events.push(e);
        if (block.id) pending.set(block.id, { e, hidden });
      } else if (rec.type === 'user' && block.type === 'tool_result' && block.tool_use_id && block.is_error) {
        const call = pending.get(block.tool_use_id);
        if (call) markFailed(call, block.content);
      }
    }
  }
  return { sessionId, cwd, events };
}
