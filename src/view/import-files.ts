/**
 * `import-files DIR`: instinct .md files in the format of the file-based tools.
 * This reader only maps each file's fields to the names of an imported instinct; the
 * import validates them (nothing is coerced here: `confidence: true` stays a boolean).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

interface InstinctFiles {
  records: { file: string; record: Record<string, unknown> }[];
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
  const { data, body } = parseFrontmatter(content);
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

function listMarkdown(dir: string): string[] {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory())
      throw new UsageError(`${dir} is not a directory.`, 'Give the folder that holds the instinct .md files.');
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${dir}: ${(err as Error).message}`, 'Check the path, e.g. ~/.claude/homunculus/instincts/personal.');
  }
  return entries
    .filter((e) => e.endsWith('.md'))
    .sort()
    .map((e) => join(dir, e));
}

/** Every instinct .md below `dir`, mapped; a file that cannot be read as one is skipped with the reason. */
export function readInstinctFiles(dir: string): InstinctFiles {
  const result: InstinctFiles = { records: [], skipped: [] };
  for (const file of listMarkdown(dir)) {
    try {
      if (statSync(file).size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      result.records.push({ file, record: instinctFileRecord(readFileSync(file, 'utf8'), file) });
    } catch (err) {
      result.skipped.push({ file, reason: (err as Error).message });
    }
  }
  return result;
}
