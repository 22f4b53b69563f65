/**
 * The agent's audit log: append-only JSONL, one entry per action (a model completion, a tool
 * run, a session's end), written under a lock file with O_APPEND. Inputs and outputs are
 * never stored, only their SHA-256 cut to 16 hex characters (seed 001). Each entry carries
 * its number and the hash of the one before it, and a head file beside the log keeps the
 * last number and hash, so `agent audit --verify` names the first line that was changed,
 * inserted or removed, even the last one. (Tamper-evident against edits, not against someone
 * who rewrites the whole chain: that would take a key kept elsewhere.)
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { pauseSync } from '../core/clock.js';
import { HomunculusError } from '../core/errors.js';
import { ensureDir, writeFileAtomic } from '../core/fs.js';
import { sha256 } from '../core/ids.js';
import { acquireLock } from '../core/lock.js';

export interface AuditEntry {
  /** 1-based position in the log. */
  seq: number;
  /** UTC, microsecond precision: 2026-11-26T07:14:44.123456Z. */
  time: string;
  /** completion, tool_exec, session_end, ... */
  action: string;
  session: string;
  /** What acted, when it is not the action itself (a tool's name, a model). */
  subject?: string;
  ok: boolean;
  input_sha: string;
  output_sha: string;
  tokens: { input: number; output: number } | null;
  duration_ms: number;
  /** Hash of the previous entry (64 zeros for the first). */
  prev: string;
  /** SHA-256 of this entry without `hash`, chained through `prev`. */
  hash: string;
}

export interface AuditRecord {
  action: string;
  session: string;
  subject?: string;
  ok?: boolean;
  input: unknown;
  output: unknown;
  tokens?: { input: number; output: number };
  durationMs: number;
}

const GENESIS = '0'.repeat(64);

/** SHA-256 of a value's JSON, cut to 16 hex characters. Pure. */
export const shortHash = (value: unknown): string => sha256(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).slice(0, 16);

/** `epochMs` (fractional) as ISO-8601 UTC with microseconds. Pure. */
export function isoMicro(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const micro = Math.floor((epochMs - whole) * 1000);
  return new Date(whole).toISOString().replace('Z', `${String(micro).padStart(3, '0')}Z`);
}

/** The hash an entry must carry: over its fields in a fixed order, without `hash`. Pure. */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const { seq, time, action, session, subject, ok, input_sha, output_sha, tokens, duration_ms, prev } = entry;
  return sha256(JSON.stringify([seq, time, action, session, subject ?? null, ok, input_sha, output_sha, tokens, duration_ms, prev]));
}

/** The entry that follows `last` for `record`. Pure. */
export function nextEntry(last: { seq: number; hash: string } | undefined, record: AuditRecord, epochMs: number): AuditEntry {
  const base: Omit<AuditEntry, 'hash'> = {
    seq: (last?.seq ?? 0) + 1,
    time: isoMicro(epochMs),
    action: record.action.slice(0, 100),
    session: record.session.slice(0, 200),
    ...(record.subject !== undefined ? { subject: record.subject.slice(0, 200) } : {}),
    ok: record.ok ?? true,
    input_sha: shortHash(record.input),
    output_sha: shortHash(record.output),
    tokens: record.tokens ?? null,
    duration_ms: Math.round(record.durationMs * 1000) / 1000,
    prev: last?.hash ?? GENESIS,
  };
  return { ...base, hash: entryHash(base) };
}

const headPath = (log: string): string => `${log}.head`;
const lockPath = (log: string): string => `${log}.lock`;

type Head = { seq: number; hash: string };

/** The head file's last entry number and hash; null when it is missing or unreadable. */
function readHead(log: string): Head | null {
  try {
    const head = JSON.parse(readFileSync(headPath(log), 'utf8')) as Partial<Head>;
    return typeof head.seq === 'number' && typeof head.hash === 'string' ? { seq: head.seq, hash: head.hash } : null;
  } catch {
    return null;
  }
}

/** Waits (synchronously, briefly) for the log's lock; a holder that died is reclaimed by acquireLock. */
function lockLog(log: string): () => void {
  const deadline = Date.now() + 5000;
  for (;;) {
    const release = acquireLock(lockPath(log), { staleMs: 10_000 });
    if (release) return release;
    if (Date.now() > deadline)
      throw new HomunculusError('audit_locked', `The audit log ${log} stayed locked for 5 s.`, {
        hint: `If no homunculus agent is running, remove '${lockPath(log)}'.`,
      });
    pauseSync(5);
  }
}

/** Appends one entry (O_APPEND, under the lock) and moves the head; returns the entry written. */
export function appendAudit(log: string, record: AuditRecord, epochMs = performance.timeOrigin + performance.now()): AuditEntry {
  ensureDir(dirname(log));
  const release = lockLog(log);
  try {
    const entry = nextEntry(readHead(log) ?? lastEntry(log), record, epochMs);
    const fd = openSync(log, 'a', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`);
    } finally {
      closeSync(fd);
    }
    writeFileAtomic(headPath(log), JSON.stringify({ seq: entry.seq, hash: entry.hash }));
    return entry;
  } finally {
    release();
  }
}

/** The last entry of a log with no head file (one written before heads, or whose head was lost). */
function lastEntry(log: string): AuditEntry | undefined {
  if (!existsSync(log)) return undefined;
  const size = statSync(log).size;
  const length = Math.min(size, 64 * 1024);
  const buffer = Buffer.alloc(length);
  const fd = openSync(log, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const last = buffer.toString('utf8').trimEnd().split('\n').pop();
  return last ? (JSON.parse(last) as AuditEntry) : undefined;
}

export interface AuditProblem {
  /** 1-based line of the log (one past the end when lines are missing at the end). */
  line: number;
  problem: string;
}

export interface AuditVerdict {
  ok: boolean;
  entries: number;
  problems: AuditProblem[];
}

/** A line as an entry, or why it is not one ('is not JSON', 'is not an audit entry'): the listing shows only entries. Pure. */
export function parseEntry(text: string): AuditEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  const e = value as Partial<AuditEntry> | null;
  const shaped =
    typeof e === 'object' &&
    e !== null &&
    typeof e.seq === 'number' &&
    typeof e.time === 'string' &&
    typeof e.action === 'string' &&
    typeof e.session === 'string' &&
    typeof e.ok === 'boolean' &&
    typeof e.duration_ms === 'number';
  return shaped ? (e as AuditEntry) : 'is not an audit entry';
}

/** Checks one line against the entry before it; the problem, or undefined. Pure. */
function lineProblem(text: string, line: number, prev: string): string | undefined {
  let entry: AuditEntry;
  try {
    entry = JSON.parse(text) as AuditEntry;
  } catch {
    return 'is not JSON: it was changed';
  }
  if (typeof entry !== 'object' || entry === null || typeof entry.seq !== 'number') return 'is not an audit entry: it was changed';
  if (entry.seq !== line)
    return entry.seq > line
      ? `holds entry ${entry.seq}: ${entry.seq - line === 1 ? 'an entry was' : `${entry.seq - line} entries were`} removed before it`
      : `holds entry ${entry.seq}: a line was inserted or moved before it`;
  if (entry.prev !== prev) return 'does not follow the line before it: a line was inserted, removed or changed there';
  const { hash, ...rest } = entry;
  if (entryHash(rest) !== hash) return 'was changed after it was written (its hash does not match)';
  return undefined;
}

/** Verifies a log's lines (and its head, when known). Stops at the first broken line: after it every line would be. Pure. */
export function verifyLines(lines: readonly string[], head: Head | null): AuditVerdict {
  let prev = GENESIS;
  for (const [i, text] of lines.entries()) {
    const problem = lineProblem(text, i + 1, prev);
    if (problem) return { ok: false, entries: lines.length, problems: [{ line: i + 1, problem: `line ${i + 1} ${problem}` }] };
    prev = (JSON.parse(text) as AuditEntry).hash;
  }
  if (head === null && lines.length > 0)
    return {
      ok: false,
      entries: lines.length,
      problems: [
        { line: lines.length + 1, problem: 'the head file is missing or unreadable: whether lines were removed at the end cannot be told' },
      ],
    };
  if (head && (head.seq !== lines.length || head.hash !== prev)) {
    const problem =
      head.seq > lines.length
        ? `the log ends at entry ${lines.length} but entry ${head.seq} was written: the last ${head.seq - lines.length === 1 ? 'line was' : `${head.seq - lines.length} lines were`} removed`
        : `the last line does not match the head file (${head.seq}, ${head.hash.slice(0, 16)}): it was changed or added by hand`;
    return {
      ok: false,
      entries: lines.length,
      problems: [{ line: Math.min(head.seq, lines.length) + (head.seq > lines.length ? 1 : 0), problem }],
    };
  }
  return { ok: true, entries: lines.length, problems: [] };
}

/** Reads a log: its entries as written, newest last. A missing log is empty. */
export function readAudit(log: string): { lines: string[]; head: Head | null } {
  if (!existsSync(log)) return { lines: [], head: readHead(log) };
  const text = readFileSync(log, 'utf8');
  return { lines: text.split('\n').filter((l) => l !== ''), head: readHead(log) };
}

/** Verifies the log at `log`. */
export function verifyAudit(log: string): AuditVerdict {
  const { lines, head } = readAudit(log);
  return verifyLines(lines, head);
}
