/**
 * `import-files DIR`: instinct .md files in the format of the file-based tools.
 * This reader only maps each file's fields to the names of an imported instinct; the
 * import validates them (nothing is coerced here: `confidence: true` stays a boolean).
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isInside } from '../core/confine.js';
import { basename, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseFrontmatter } from '../core/frontmatter.js';
import { slugify, truncate } from '../core/text.js';

const PREFIX_BY_DOMAIN: Record<string, string> = { debugging: 'fix', tooling: 'seq', git: 'seq', testing: 'seq' };
/** Files written before the evidence count was named `evidence` call it `count`; without either, "Observed N" in the body, else 3. */
const DEFAULT_EVIDENCE = 3;
/** An instinct file is a few hundred bytes; a larger one is not read at all. */
const MAX_FILE_BYTES = 1024 * 1024;

interface FileProblem {
  file: string;
  reason: string;
}

export interface InstinctFiles {
  /** `wrong`: the file says the user marked it wrong (`verdict: wrong`, as the readable view writes it). */
  records: { file: string; record: Record<string, unknown>; wrong: boolean }[];
  skipped: FileProblem[];
}

/** Text fields may be written as YAML scalars (`trigger: yes`); they are read as text. Numbers and dates are not touched. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A YAML null (`confidence:` with nothing after it) means the field is absent. */
const present = (value: unknown): unknown => (value === null ? undefined : value);

/** One instinct file's fields under the names of an imported instinct; throws when it has no trigger or action. */
export function instinctFileRecord(content: string, fileName: string): Record<string, unknown> {
  return recordOf(parseFrontmatter(content), fileName);
}

function recordOf({ data, body }: ReturnType<typeof parseFrontmatter>, fileName: string): Record<string, unknown> {
  const trigger = scalarText(data.trigger);
  const action = scalarText(data.action);
  if (!trigger) throw new Error('missing "trigger"');
  if (!action) throw new Error('missing "action"');
  const domain = scalarText(data.domain);
  const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  const observed = /observed\s+(\d+)/i.exec(body)?.[1];
  const key = present(data.key) ?? `${PREFIX_BY_DOMAIN[domain ?? ''] ?? 'pref'}:${slugify(heading ?? basename(fileName, '.md'))}`;
  return {
    key: typeof key === 'number' ? String(key) : key,
    category: present(data.category),
    trigger,
    action,
    title: truncate(heading ?? trigger, 200),
    domain,
    project: scalarText(data.project),
    source: scalarText(data.source) ?? 'import-files',
    evidence: present(data.evidence) ?? present(data.count) ?? (observed !== undefined ? Number(observed) : DEFAULT_EVIDENCE),
    confidence: present(data.confidence),
    first_seen: present(data.created),
    last_seen: present(data.last_seen),
  };
}

/** How far and how wide the walk goes: a folder of instinct files is small and shallow. */
const MAX_DEPTH = 16;
const MAX_ENTRIES = 100_000;

/**
 * The .md files below `dir`, found without leaving it: a link to a folder is never followed
 * (so a loop or a link to / cannot make the walk endless), a link to a file counts only when
 * it resolves inside `dir`, and only regular files count (not a device or a pipe).
 */
function listMarkdown(dir: string): { files: string[]; skipped: FileProblem[] } {
  let root: string;
  try {
    if (!statSync(dir).isDirectory())
      throw new UsageError(`${dir} is not a directory.`, 'Give the folder that holds the instinct .md files.');
    root = realpathSync(dir);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${dir}: ${(err as Error).message}`, 'Check the path, e.g. ~/.claude/homunculus/instincts/personal.');
  }
  const files: string[] = [];
  const skipped: FileProblem[] = [];
  let seen = 0;
  const walk = (folder: string, depth: number): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (++seen > MAX_ENTRIES)
        throw new UsageError(`${dir} holds more than ${MAX_ENTRIES} entries.`, 'Give the folder of the instinct files only.');
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path, depth + 1);
      } else if (entry.name.endsWith('.md')) {
        const problem = entry.isSymbolicLink() ? linkProblem(path, root) : entry.isFile() ? undefined : 'not a regular file';
        if (problem) skipped.push({ file: path, reason: problem });
        else files.push(path);
      }
    }
  };
  walk(root, 0);
  return { files, skipped };
}

function linkProblem(path: string, root: string): string | undefined {
  try {
    const real = realpathSync(path);
    if (!isInside(real, root)) return 'a link to a file outside the folder';
    return statSync(real).isFile() ? undefined : 'a link to something that is not a regular file';
  } catch {
    return 'a link that leads nowhere';
  }
}

/** Every instinct .md below `dir`, mapped; a file that cannot be read as one is skipped with the reason. */
export function readInstinctFiles(dir: string): InstinctFiles {
  const listed = listMarkdown(dir);
  const read = readInstinctFileList(listed.files);
  return { records: read.records, skipped: [...listed.skipped, ...read.skipped] };
}

/** The given instinct files, mapped; a file that cannot be read as one is skipped with the reason. */
export function readInstinctFileList(files: readonly string[]): InstinctFiles {
  const result: InstinctFiles = { records: [], skipped: [] };
  for (const file of files) {
    try {
      if (statSync(file).size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      const parsed = parseFrontmatter(readFileSync(file, 'utf8'));
      // The readable view writes `verdict: wrong` for an instinct the user marked wrong.
      result.records.push({ file, record: recordOf(parsed, file), wrong: parsed.data.verdict === 'wrong' });
    } catch (err) {
      result.skipped.push({ file, reason: (err as Error).message });
    }
  }
  return result;
}
