/**
 * A session's history, for the dashboard's Chat and Replay: its steps (the captured
 * observations, or, when none were captured, its transcript file), its turns (each prompt
 * with the tool calls that followed), and the threads sessions form by continuing each other.
 * The transcript read is the one the store recorded for the session; no request names a file.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { NotFoundError } from '../core/errors.js';
import { readTranscript } from '../graph/extract/events.js';
import { parseStringArray } from '../store/json.js';
import type { ObservationRow } from '../store/observations.js';
import type { SessionRow } from '../store/sessions.js';
import type { Store } from '../store/store.js';
import { defineOperation } from './operation.js';
import { text, wholeNumber } from './schemas.js';

/** What a step shows of a tool's input or a prompt: the page needs a summary, not a file's content. */
const MAX_INPUT_CHARS = 600;

export interface Step {
  n: number;
  ts: string;
  kind: string;
  tool: string;
  intent: string;
  input: string;
  files: string[];
  outcome: string;
  error: string;
}

type StepFields = Omit<Step, 'n'>;

const cut = (s: string, max = MAX_INPUT_CHARS): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const fromObservation = (r: ObservationRow): StepFields => ({
  ts: r.ts,
  kind: r.event,
  tool: r.tool,
  intent: r.intent,
  input: cut(r.input),
  files: parseStringArray(r.files),
  outcome: r.outcome,
  error: cut(r.error),
});

/** The transcript file the store recorded for a session, when it is an absolute .jsonl path to a file; nothing else is read. */
export function transcriptFile(path: string | null | undefined): string | undefined {
  if (!path || !isAbsolute(path) || !path.endsWith('.jsonl') || !existsSync(path)) return undefined;
  return statSync(path).isFile() ? path : undefined;
}

interface SessionSteps {
  session: Pick<SessionRow, 'id' | 'source' | 'project_name' | 'started_at' | 'ended_at' | 'summary' | 'continues_from'> | null;
  /** Where the steps were read from. */
  origin: 'observations' | 'transcript' | 'none';
  steps: Step[];
}

function sessionSteps(store: Store, id: string): SessionSteps {
  const row = store.sessions.get(id);
  const observed = store.observations.forSession(id);
  if (!row && observed.length === 0) throw new NotFoundError(`session ${id}`, 'Pick one of `sessions.recent`.');
  const file = observed.length === 0 ? transcriptFile(row?.transcript_path) : undefined;
  const fields: StepFields[] = file
    ? readTranscript(file).events.map((e) => ({ ...e, kind: e.event, input: cut(e.input), error: cut(e.error) }))
    : observed.map(fromObservation);
  const session = row
    ? {
        id: row.id,
        source: row.source,
        project_name: row.project_name,
        started_at: row.started_at,
        ended_at: row.ended_at,
        summary: row.summary,
        continues_from: row.continues_from,
      }
    : null;
  return {
    session,
    origin: observed.length > 0 ? 'observations' : file ? 'transcript' : 'none',
    steps: fields.map(({ ts, kind, tool, intent, input, files, outcome, error }, i) => ({
      n: i + 1,
      ...{ ts, kind, tool, intent, input, files, outcome, error },
    })),
  };
}

export interface Turn {
  prompt: Step | null;
  tools: Step[];
}

/** Each prompt with the tool calls after it; calls before the first prompt form a turn without one. */
export function turnsOf(steps: readonly Step[]): Turn[] {
  const turns: Turn[] = [];
  for (const s of steps) {
    if (s.kind === 'prompt') turns.push({ prompt: s, tools: [] });
    else if (s.kind === 'tool') {
      const last = turns.at(-1);
      if (last) last.tools.push(s);
      else turns.push({ prompt: null, tools: [s] });
    }
  }
  return turns;
}

const sessionInput = () =>
  z.object({
    session: text(200).refine((s) => s.trim() !== '', { error: 'must name a session (an id from sessions.recent)' }),
  });

export const sessionReplay = defineOperation({
  name: 'sessions.replay',
  summary: "A session's observations one step at a time: kind, time, tool, input summary and outcome",
  input: sessionInput(),
  run: ({ store }, input) => sessionSteps(store, input.session),
});

export const sessionTranscript = defineOperation({
  name: 'sessions.transcript',
  summary: "A session's transcript: each prompt with the tool calls that followed and their outcomes",
  input: sessionInput(),
  run: ({ store }, input) => {
    const { steps, ...rest } = sessionSteps(store, input.session);
    return { ...rest, turns: turnsOf(steps) };
  },
});

interface Linked {
  id: string;
  continues_from: string | null;
  started_at?: string | null;
}

/** Sessions joined by continues_from into threads (oldest first), longest-lived first; a lone session is no thread. */
export function threadsOf<T extends Linked>(rows: readonly T[]): T[][] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, T[]>();
  for (const r of rows) {
    if (r.continues_from && byId.has(r.continues_from)) children.set(r.continues_from, [...(children.get(r.continues_from) ?? []), r]);
  }
  const roots = rows.filter((r) => !r.continues_from || !byId.has(r.continues_from));
  const threads: T[][] = [];
  for (const root of roots) {
    const thread: T[] = [];
    // Breadth first: a session continued twice lists both continuations in the thread.
    for (let queue = [root]; queue.length > 0;) {
      const next = queue.shift() as T;
      if (thread.includes(next)) continue;
      thread.push(next);
      queue = [...queue, ...(children.get(next.id) ?? [])];
    }
    // Read in time order: a continuation can start before the one it continues ended, or even began (a resumed transcript).
    if (thread.length > 1) threads.push(thread.sort((a, b) => (a.started_at ?? '').localeCompare(b.started_at ?? '')));
  }
  return threads.sort((a, b) => b.length - a.length);
}

/** How far back a thread is followed past the recent sessions. */
const MAX_ANCESTORS = 50;

export const sessionThreads = defineOperation({
  name: 'sessions.threads',
  summary: 'Threads of sessions, each continuing the one before, among the most recently active sessions',
  input: z.object({ limit: wholeNumber(1, 1000).default(100) }),
  run: ({ store }, input) => {
    const rows = store.sessions.recent(input.limit);
    const seen = new Set(rows.map((r) => r.id));
    // A recent session may continue an older one: follow the links a bounded number of steps.
    for (let i = 0, added = 0; i < rows.length && added < MAX_ANCESTORS; i++) {
      const parent = rows[i]?.continues_from;
      const row = parent && !seen.has(parent) ? store.sessions.get(parent) : undefined;
      if (!row) continue;
      rows.push(row);
      seen.add(row.id);
      added++;
    }
    const view = rows.map((r) => ({
      id: r.id,
      continues_from: r.continues_from,
      project_name: r.project_name,
      started_at: r.started_at,
      ended_at: r.ended_at,
      summary: r.summary.split('\n')[0] ?? '',
    }));
    const threads = threadsOf(view.sort((a, b) => (a.started_at ?? '').localeCompare(b.started_at ?? '')));
    return { threads: threads.map((sessions) => ({ sessions })) };
  },
});
