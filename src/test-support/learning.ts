/** Test support for learning: typed observations built step by step, and throwaway stores. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { fixedClock } from '../core/clock.js';
import type { Obs } from '../learn/observation.js';
import type { NewObservation } from '../store/observations.js';
import { type Store, openStore, withClock } from '../store/store.js';

export type Step =
  /** `reported`: what a call that exited 0 still printed as failures (capture keeps it as the error text). */
  | { bash: string; error?: string; exit?: number; reported?: string }
  | { call: string; input: string }
  | { edit: string; tool?: 'Edit' | 'Write' | 'MultiEdit' }
  | { read: string }
  | { prompt: string }
  | { wait: number };

interface SessionOptions {
  sessionId?: string;
  start?: string;
  cwd?: string;
  project?: string;
  projectName?: string;
  /** Seconds between steps. */
  gap?: number;
}

let nextId = 1;

/** One session as typed observations (what the miners read). */
export function steps(list: readonly Step[], options: SessionOptions = {}): Obs[] {
  const cwd = options.cwd ?? '/work/demo';
  let at = Date.parse(options.start ?? '2026-03-02T10:00:00Z');
  const out: Obs[] = [];
  for (const step of list) {
    if ('wait' in step) {
      at += step.wait * 1000;
      continue;
    }
    at += (options.gap ?? 10) * 1000;
    const base = {
      id: nextId++,
      sessionId: options.sessionId ?? 'session-1',
      at,
      ts: new Date(at).toISOString(),
      project: options.project ?? 'p-demo',
      projectName: options.projectName ?? 'demo',
      cwd,
      intent: '',
      files: [] as string[],
      outcome: 'ok' as const,
      error: '',
      processed: false,
    };
    if ('bash' in step) {
      const failed = step.error !== undefined || (step.exit ?? 0) !== 0;
      out.push({
        ...base,
        event: 'tool',
        tool: 'Bash',
        input: step.bash,
        outcome: failed ? 'error' : 'ok',
        error: step.error ?? step.reported ?? '',
        exitCode: step.exit ?? (failed ? 1 : 0),
      });
    } else if ('call' in step) {
      out.push({ ...base, event: 'tool', tool: step.call, input: step.input });
    } else if ('edit' in step) {
      out.push({ ...base, event: 'tool', tool: step.tool ?? 'Edit', input: `${cwd}/${step.edit}`, files: [`${cwd}/${step.edit}`] });
    } else if ('read' in step) {
      out.push({ ...base, event: 'tool', tool: 'Read', input: `${cwd}/${step.read}`, files: [`${cwd}/${step.read}`] });
    } else {
      out.push({ ...base, event: 'prompt', tool: '', input: step.prompt });
    }
  }
  return out;
}

/** The same steps as observation rows of the contract, ready for insertObservation. */
export function stepRows(list: readonly Step[], options: SessionOptions & { source?: string } = {}): NewObservation[] {
  return steps(list, options).map((o) => ({
    source: options.source ?? 'claude-code',
    session_id: o.sessionId,
    tool_use_id: o.event === 'prompt' ? `prompt:${o.id}` : `toolu_${o.id}`,
    ts: o.ts,
    event: o.event,
    project: o.project,
    cwd: o.cwd,
    tool: o.tool,
    input: o.input,
    files: o.files,
    outcome: o.outcome,
    error: o.error,
    data: { project_name: o.projectName, ...(o.tool === 'Bash' ? { exit_code: o.exitCode ?? 0 } : {}) },
  }));
}

export interface TempStore {
  store: Store;
  home: string;
  /** The same store seen at another instant. */
  at(iso: string): Store;
  cleanup(): void;
}

function tempStore(now = '2026-03-10T12:00:00Z'): TempStore {
  const home = mkdtempSync(join(tmpdir(), 'hom-learn-'));
  const store = openStore({ home, clock: fixedClock(now) });
  return {
    store,
    home,
    at: (iso) => withClock(store, fixedClock(iso)),
    cleanup: () => {
      store.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A factory of temporary stores, each removed after the test that made it. */
export function tempStores(defaultNow: string): (now?: string) => TempStore {
  let made: TempStore[] = [];
  afterEach(() => {
    for (const t of made) t.cleanup();
    made = [];
  });
  return (now = defaultNow) => {
    const t = tempStore(now);
    made.push(t);
    return t;
  };
}
