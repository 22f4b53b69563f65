/**
 * The instance's data files (seed 004): soul.md, values.json, goals/<year>.json and the daily
 * memory logs. Every read and write is validated; JSON is written through a temporary file and
 * a rename; a corrupt file is reported (which file, which line or field) and never overwritten.
 */
import { appendFileSync, closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { pauseSync } from '../core/clock.js';
import { HomunculusError } from '../core/errors.js';
import { ensureDir, writeFileAtomic } from '../core/fs.js';
import { type Goal, goalsSchema, issueText, type Memory, memorySchema, type Value, valuesSchema } from './schemas.js';

export const soulPath = (data: string): string => join(data, 'soul.md');
export const valuesPath = (data: string): string => join(data, 'values.json');
export const goalsPath = (data: string, year: number): string => join(data, 'goals', `${year}.json`);

/** memory/<year>/<year>-<month>-<day>.jsonl for the UTC day of `timestamp`. */
export function memoryPath(data: string, timestamp: string): string {
  const day = new Date(timestamp).toISOString().slice(0, 10);
  return join(data, 'memory', day.slice(0, 4), `${day}.jsonl`);
}

function corrupt(path: string, where: string, why: string, hint: string): HomunculusError {
  return new HomunculusError('corrupt', `The mind's file ${path} is corrupt (${where}: ${why}); it was left untouched.`, { hint });
}

/** A JSON document can be restored whole from data/'s git history. */
const restoreHint = (path: string, where: string): string =>
  `fix ${where} by hand, or restore the last committed version: git -C '${dirname(path)}' checkout -- '${basename(path)}'`;

/** A memory log is append-only: restoring it from git would lose what came since the commit. */
const lineHint = (path: string, line: number): string => `repair or delete line ${line} of ${path} (the other memories are fine)`;

/**
 * Where a JSON syntax error is: the offset Node gives, or, for "Unexpected token" (whose message
 * quotes the ten characters either side instead), the offset of that quote in the text.
 */
function syntaxOffset(text: string, message: string): number | undefined {
  const at = /position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const quoted = /^Unexpected token .*?, (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  if (!quoted) return undefined;
  const [, cutBefore, context = '', cutAfter] = quoted;
  if (cutBefore) {
    const start = text.indexOf(context);
    return start < 0 ? undefined : start + 10;
  }
  return cutAfter ? context.length - 11 : undefined;
}

/** A JSON syntax error at a line and column rather than a character offset, on one line. */
function syntaxError(text: string, err: Error): string {
  const offset = syntaxOffset(text, err.message);
  const what = err.message.replace(/ in JSON at position \d+.*/, '').replace(/, (\.\.\.)?"[\s\S]*$/, '');
  if (offset === undefined) return what.replace(/\s+/g, ' ');
  const before = text.slice(0, offset).split('\n');
  return `${what} at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** Parses and validates a JSON document; a bad one names its field. */
function readJson<T>(path: string, schema: z.ZodType<T>, fallback: T): T {
  if (!existsSync(path)) return fallback;
  const text = readFileSync(path, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw corrupt(path, 'the JSON', syntaxError(text, err as Error), restoreHint(path, 'the JSON'));
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const { where, message } = issueText(parsed.error);
    throw corrupt(path, where, message, restoreHint(path, where));
  }
  return parsed.data;
}

/** Validates before writing: an invalid document is a bug in the caller and never reaches the disk. */
function writeJson<T>(path: string, schema: z.ZodType<T>, doc: T): void {
  const parsed = schema.safeParse(doc);
  if (!parsed.success) {
    const { where, message } = issueText(parsed.error);
    throw new HomunculusError('invalid', `Refused to write ${path}: ${where} ${message}.`, {
      hint: 'weights are between 0 and 1; statuses are those of seed 004',
    });
  }
  writeFileAtomic(path, `${JSON.stringify(parsed.data, null, 2)}\n`);
}

export const readSoul = (data: string): string => (existsSync(soulPath(data)) ? readFileSync(soulPath(data), 'utf8') : '');
export const writeSoul = (data: string, text: string): void => writeFileAtomic(soulPath(data), text);
export const readValues = (data: string): Value[] => readJson(valuesPath(data), valuesSchema, []);
export const writeValues = (data: string, values: Value[]): void => writeJson(valuesPath(data), valuesSchema, values);
/**
 * The goals file `year` reads: its own, or else the latest earlier year's, whose open goals
 * (todo, working, perpetual) carry over: a new year does not end what the mind pursues.
 */
export function goalsSource(data: string, year: number): { path: string; carried: boolean } | undefined {
  const path = goalsPath(data, year);
  if (existsSync(path)) return { path, carried: false };
  const dir = join(data, 'goals');
  const last = (existsSync(dir) ? readdirSync(dir) : [])
    .map((f) => /^(\d{4})\.json$/.exec(f)?.[1])
    .filter((y): y is string => y !== undefined && Number(y) < year)
    .sort()
    .at(-1);
  return last === undefined ? undefined : { path: goalsPath(data, Number(last)), carried: true };
}

/** The goals of `year` (goalsSource: a year without its file yet starts from the last one's open goals). */
export function readGoals(data: string, year: number): Goal[] {
  const source = goalsSource(data, year);
  if (!source) return [];
  const goals = readJson(source.path, goalsSchema, []);
  return source.carried ? goals.filter((g) => g.status !== 'done') : goals;
}
export const writeGoals = (data: string, year: number, goals: Goal[]): void => writeJson(goalsPath(data, year), goalsSchema, goals);

/** Whether a file has text after its last newline. */
function endsOpen(path: string): boolean {
  if (!existsSync(path)) return false;
  const size = statSync(path).size;
  if (size === 0) return false;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the file ends open once another process's append in flight has landed: a reader can
 * see an append half written (the size grown before its last bytes), which is no cut-short line.
 */
function endsOpenSettled(path: string): boolean {
  for (let tries = 0; tries < 5; tries++) {
    if (!endsOpen(path)) return false;
    pauseSync(10);
  }
  return true;
}

/**
 * Appends one memory as one line. A single small append (O_APPEND) is not interleaved with
 * another process's, so `mind run` and `mind chat` may append at once without a lock.
 */
export function appendMemory(data: string, memory: Memory): void {
  const valid = memorySchema.safeParse(memory);
  if (!valid.success) {
    const { where, message } = issueText(valid.error);
    throw new HomunculusError('invalid', `Refused to record a memory: ${where} ${message}.`, {
      hint: 'a memory is {timestamp, author self|kernel|goal|external, weight 0-1, situation, description}',
    });
  }
  const path = memoryPath(data, memory.timestamp);
  ensureDir(join(path, '..'));
  const open = endsOpenSettled(path);
  // A log saved by an editor without its last newline: ending that line keeps both memories. A
  // cut-short one (a write that died, a hand edit) would become a corrupt line in the middle.
  const text = open ? readFileSync(path, 'utf8') : '';
  if (open && !lastOpenLine(text)) {
    const line = text.split('\n').length;
    throw corrupt(path, `line ${line}`, 'the last line is cut short, so nothing can be added after it', lineHint(path, line));
  }
  appendFileSync(path, `${open ? '\n' : ''}${JSON.stringify(valid.data)}\n`);
}

/** Text after the last newline, when it is a whole memory (an editor dropped the newline), or nothing. */
function lastOpenLine(text: string): string {
  const tail = text.slice(text.lastIndexOf('\n') + 1);
  if (!tail.trim()) return '';
  try {
    return memorySchema.safeParse(JSON.parse(tail)).success ? tail : '';
  } catch {
    return '';
  }
}

/**
 * The memories of one day log, each line validated; a bad line is reported with its number.
 * Text after the last newline counts only when it is a whole memory: otherwise it is one that
 * another process (`mind run` beside `mind chat`) is appending at this very moment.
 */
export function readMemoryFile(path: string): Memory[] {
  const text = readFileSync(path, 'utf8');
  return `${text.slice(0, text.lastIndexOf('\n') + 1)}${lastOpenLine(text)}`.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw corrupt(path, `line ${i + 1}`, syntaxError(line, err as Error).replace(/ at line 1,/, ' at'), lineHint(path, i + 1));
    }
    const parsed = memorySchema.safeParse(raw);
    if (!parsed.success) {
      const { where, message } = issueText(parsed.error);
      throw corrupt(path, `line ${i + 1}, ${where}`, message, lineHint(path, i + 1));
    }
    return [parsed.data];
  });
}

/** Every day log, oldest first (file names sort by date). */
export function memoryFiles(data: string): string[] {
  const root = join(data, 'memory');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .flatMap((year) =>
      readdirSync(join(root, year))
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => join(root, year, f)),
    );
}

/** All memories, oldest first; with `date` (YYYY-MM-DD), only that day's log. */
export function readMemories(data: string, date?: string): Memory[] {
  const files = memoryFiles(data).filter((f) => date === undefined || f.endsWith(`${date}.jsonl`));
  return files.flatMap(readMemoryFile);
}

/** The goals files of every year there is one for. */
function goalsFiles(data: string): string[] {
  const dir = join(data, 'goals');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(dir, f))
    : [];
}

/** The corrupt files of data/, each as its read reports it (which file, where, the fix); none when every file is valid. */
export function corruptFiles(data: string): HomunculusError[] {
  const reads = [
    () => readValues(data),
    ...goalsFiles(data).map((path) => () => readJson(path, goalsSchema, [])),
    ...memoryFiles(data).map((path) => () => readMemoryFile(path)),
  ];
  return reads.flatMap((read) => {
    try {
      read();
      return [];
    } catch (err) {
      if (err instanceof HomunculusError && err.code === 'corrupt') return [err];
      throw err;
    }
  });
}
