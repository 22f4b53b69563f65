/** The session sections' API types (Chat, Replay, Tools, the Overview's signals and threads), and how they show a time. */

export interface Step {
  n: number;
  ts: string;
  kind: string;
  tool: string;
  intent: string;
  input: string;
  files: string[];
  outcome: 'ok' | 'error' | 'blocked' | string;
  error: string;
}

export interface SessionHead {
  id: string;
  source: string;
  project_name: string;
  started_at: string | null;
  ended_at: string | null;
  summary: string;
  continues_from: string | null;
}

export interface Replay {
  session: SessionHead | null;
  origin: 'observations' | 'transcript' | 'none';
  steps: Step[];
}

export interface Transcript {
  session: SessionHead | null;
  origin: Replay['origin'];
  turns: { prompt: Step | null; tools: Step[] }[];
}

export interface Source {
  n: number;
  kind: 'fact' | 'memory';
  title: string;
  text: string;
  ts: string | null;
  ref: string;
  /** Present when the user may forget this memory. */
  forget?: { collection: string; id: string };
}

export interface ChatAnswer {
  question: string;
  answer: string | null;
  model: string | null;
  cited: number[];
  note?: string;
  sources: Source[];
  queries: string[];
  /** The chosen project's learned rules that the question names, in plain words. */
  learned: string[];
}

export interface ToolTotals {
  calls: number;
  failed: number;
}

export interface ToolGroup extends ToolTotals {
  key: string;
  tools: Record<string, ToolTotals>;
}

/** When the stored history starts and ends (null when nothing is stored). */
export interface HistorySpan {
  first: string | null;
  latest: string | null;
}

export interface ToolTimeline extends HistorySpan {
  tools: string[];
  days: ToolGroup[];
  sessions: ToolGroup[];
  failures: { ts: string; session_id: string; tool: string; outcome: string; error: string }[];
}

export type Signal = 'observations' | 'sessions' | 'corrections' | 'feedback' | 'instincts';

export interface Signals extends HistorySpan {
  signals: Signal[];
  days: ({ day: string } & Record<Signal, number>)[];
}

export interface Threads {
  threads: { sessions: { id: string; project_name: string; started_at: string | null; ended_at: string | null; summary: string }[] }[];
}

/** An ISO instant as "2026-02-27 09:04" (UTC, as stored). */
export const shortTime = (ts: string | null | undefined): string => (ts ?? '').slice(0, 16).replace('T', ' ');
