/** `import-files DIR`: instinct .md files in the readable format, from the file-based tools. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseInstant } from '../core/clock.js';
import { type Category, PREFIX_CATEGORY, parseKey } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import { slugify } from '../core/text.js';
import type { Store } from '../store/store.js';
import { type IncomingInstinct, mergeInstinct } from '../learn/merge.js';
import { parseFrontmatter } from '../core/frontmatter.js';

const PREFIX_BY_DOMAIN: Record<string, string> = { debugging: 'fix', tooling: 'seq', git: 'seq', testing: 'seq' };

interface FileProblem {
  file: string;
  reason: string;
}

interface ImportFilesResult {
  imported: number;
  raised: number;
  unchanged: number;
  skipped: FileProblem[];
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function instant(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = value instanceof Date ? value.toISOString() : text(value);
  const date = raw ? parseInstant(raw) : undefined;
  if (!date) throw new Error(`"${field}" is not an ISO-8601 date: ${JSON.stringify(value)}`);
  return date.toISOString();
}

/** Parses one instinct file; throws with the reason when it cannot be used. */
function parseInstinctFile(content: string, fileName: string): IncomingInstinct {
  const { data, body } = parseFrontmatter(content);
  const trigger = text(data.trigger);
  const action = text(data.action);
  if (!trigger) throw new Error('missing "trigger"');
  if (!action) throw new Error('missing "action"');
  let confidence: number | undefined;
  if (data.confidence !== undefined) {
    confidence = Number(data.confidence);
    if (!Number.isFinite(confidence) || confidence < 0 || confidence > 1)
      throw new Error(`"confidence" must be a number between 0 and 1, got ${JSON.stringify(data.confidence)}`);
  }
  const domain = text(data.domain) ?? 'general';
  const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  const observed = /observed\s+(\d+)/i.exec(body)?.[1];
  // `count` is what files written before the evidence count was named `evidence` call it.
  const stated = data.evidence ?? data.count;
  const evidence = stated !== undefined ? Number(stated) : observed !== undefined ? Number(observed) : 3;
  if (!Number.isInteger(evidence) || evidence < 1)
    throw new Error(`"evidence" must be a positive whole number, got ${JSON.stringify(stated)}`);
  const key = text(data.key)
    ? parseKey(text(data.key) as string).key
    : `${PREFIX_BY_DOMAIN[domain] ?? 'pref'}:${slugify(title ?? basename(fileName, '.md'))}`;
  const category = text(data.category);
  return {
    key,
    category: category && Object.values(PREFIX_CATEGORY).includes(category as Category) ? (category as Category) : undefined,
    trigger,
    action,
    title: title ?? trigger,
    domain,
    project: text(data.project) ?? '',
    source: text(data.source) ?? 'import-files',
    evidence,
    confidence,
    first_seen: instant(data.created, 'created'),
    last_seen: instant(data.last_seen, 'last_seen'),
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

export function importInstinctFiles(store: Store, dir: string): ImportFilesResult {
  const result: ImportFilesResult = { imported: 0, raised: 0, unchanged: 0, skipped: [] };
  const parsed: IncomingInstinct[] = [];
  for (const file of listMarkdown(dir)) {
    try {
      parsed.push(parseInstinctFile(readFileSync(file, 'utf8'), file));
    } catch (err) {
      result.skipped.push({ file, reason: (err as Error).message });
    }
  }
  store.transaction(() => {
    for (const incoming of parsed) {
      const outcome = mergeInstinct(store, incoming, 'import-files');
      if (outcome === 'created') result.imported++;
      else if (outcome === 'raised') result.raised++;
      else result.unchanged++;
    }
  });
  return result;
}
