/**
 * What an agent's session already holds from us: the instincts its start block, its prompts and
 * its recalls named (and the earlier sessions a recall listed), so a later prompt or recall does
 * not give them again, and, for a client that would lose it, the start block itself, held for the
 * first prompt. One small record per session in the store's meta table; the oldest go once there
 * are more than KEEP.
 */
import type { Agent } from '../capture/agents.js';
import type { Store } from '../store/store.js';
import type { StartContext } from './session-start.js';

const PREFIX = 'in-context:';
const KEEP = 500;

interface Held {
  at: string;
  keys: string[];
  /** The start block, until the first prompt gives it. */
  start?: string;
}

const keyOf = (agent: Agent, sessionId: string): string => `${PREFIX}${agent}:${sessionId}`;

function parse(value: string): Held | undefined {
  try {
    const v = JSON.parse(value) as Partial<Held>;
    if (!Array.isArray(v.keys) || typeof v.at !== 'string') return undefined;
    return {
      at: v.at,
      keys: v.keys.filter((k): k is string => typeof k === 'string'),
      ...(typeof v.start === 'string' ? { start: v.start } : {}),
    };
  } catch {
    return undefined;
  }
}

/** After a start: what it named, and its block when `hold` (given with the first prompt instead). */
export function rememberStart(store: Store, agent: Agent, sessionId: string, start: StartContext, hold: boolean): void {
  if (!sessionId) return;
  const record: Held = { at: store.clock.now().toISOString(), keys: start.keys, ...(hold && start.text ? { start: start.text } : {}) };
  store.meta.write(keyOf(agent, sessionId), JSON.stringify(record));
  const rows = store.meta.prefixed(PREFIX);
  if (rows.length <= KEEP) return;
  const at = (value: string) => parse(value)?.at ?? '';
  rows
    .sort((a, b) => at(a.value).localeCompare(at(b.value)))
    .slice(0, rows.length - KEEP)
    .forEach((row) => store.meta.remove(row.key));
}

/** What a session holds from us, as its prompt hook read it. */
export interface InContext {
  keys: ReadonlySet<string>;
  /** The start block when it was held for this prompt (given once). */
  start: string;
  /** When the record was begun; absent when the session had none. */
  at?: string;
}

const readRecord = (store: Store, agent: Agent, sessionId: string): Held | undefined =>
  sessionId ? parse(store.meta.read(keyOf(agent, sessionId)) ?? '') : undefined;

/** What the session holds from its start, its prompts and its recalls; a start block held for the first prompt stays held. */
export function inContext(store: Store, agent: Agent, sessionId: string): InContext {
  const record = readRecord(store, agent, sessionId);
  return record ? { keys: new Set(record.keys), start: '', at: record.at } : { keys: new Set(), start: '' };
}

/** What the session holds, for a prompt: a held start block is taken out of the record and given with it. */
export function takeInContext(store: Store, agent: Agent, sessionId: string): InContext {
  const record = readRecord(store, agent, sessionId);
  if (!record) return { keys: new Set(), start: '' };
  if (record.start) store.meta.write(keyOf(agent, sessionId), JSON.stringify({ at: record.at, keys: record.keys }));
  return { keys: new Set(record.keys), start: record.start ?? '', at: record.at };
}

/** Adds what a prompt or a recall gave to what the session held when it began (`takeInContext`, `inContext`), without reading the record again. */
export function rememberGiven(store: Store, agent: Agent, sessionId: string, held: InContext, keys: readonly string[]): void {
  if (!sessionId || keys.length === 0) return;
  const record: Held = { at: held.at ?? store.clock.now().toISOString(), keys: [...new Set([...held.keys, ...keys])] };
  store.meta.write(keyOf(agent, sessionId), JSON.stringify(record));
}
