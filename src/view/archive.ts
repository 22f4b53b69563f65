/**
 * `export` / `import`: a tarball of instincts only (privacy: no observations, no
 * code, no sessions). manifest.json carries the records; the .md files are for people.
 * Neither carries the examples (excerpts of observations) an instinct keeps at home.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { z } from 'zod';
import { HomunculusError, explainSystemError } from '../core/errors.js';
import { redact, redactDeep, withoutHomeFolders } from '../core/redact.js';
import { isObj } from '../core/fields.js';
import { isFingerprint } from '../core/project.js';
import { parseJsonObject } from '../store/json.js';
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { currentConfidence } from '../learn/records.js';
import { renderInstinctMarkdown } from './render.js';
import { type TarLimits, TarLimitError, readTarEntry } from './tar-entry.js';
import { isDirectory, regularInput, writeFileAtomic } from '../core/fs.js';

const ARCHIVE_FORMAT = 'homunculus-instincts/1';

/** Archives written before the confidence score was named `confidence` call it `score`. */
const renameScore = (raw: unknown): unknown =>
  isObj(raw) && 'score' in raw && !('confidence' in raw) ? { ...raw, confidence: raw.score } : raw;

/** The manifest's frame only: each record is validated on its own by the import, so one bad record costs only itself. */
const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  exported_at: z.string(),
  instincts: z.array(z.unknown()),
  /** The names the exporting store knew its projects by (fingerprint -> name); older archives have none. */
  projects: z.record(z.string(), z.unknown()).optional(),
});

/** What an archive holds: its instinct records, unvalidated, and the names of their projects. */
export interface ArchiveContents {
  records: unknown[];
  projects: Record<string, string>;
}

interface ExportResult {
  file: string;
  instincts: number;
  /** Instincts the user marked wrong: never shared, as they are never given to an agent. */
  left_out_wrong: number;
}

/**
 * What of an instinct may leave the machine: trigger, action and explanation, redacted
 * again, with home folders said as `~` (a path names its user); its metadata without the
 * examples, which are excerpts of observations.
 */
function shareable(row: InstinctRow): InstinctRow {
  const { examples: _examples, ...metadata } = parseJsonObject(row.metadata);
  const share = (text: string) => withoutHomeFolders(redact(text));
  return {
    ...row,
    trigger: share(row.trigger),
    action: share(row.action),
    title: share(row.title),
    explain: share(row.explain),
    // Every string of it: a JSON text's escapes would hide a Windows path from the pattern.
    metadata: JSON.stringify(redactDeep(metadata), (_key, value: unknown) =>
      typeof value === 'string' ? withoutHomeFolders(value) : value,
    ),
  };
}

/** The names this store knows the exported instincts' projects by, so the importing store can say "cli", not a fingerprint. */
function projectNamesOf(store: Store, rows: readonly InstinctRow[]): Record<string, string> {
  const used = new Set(rows.map((r) => r.project).filter(Boolean));
  const names: Record<string, string> = {};
  for (const p of store.sessions.projects()) if (used.has(p.project) && p.project_name) names[p.project] ??= p.project_name;
  return names;
}

export async function exportInstincts(store: Store, out?: string): Promise<ExportResult> {
  const now = store.clock.now();
  const name = `instincts-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  // An existing directory gets the archive inside it, under the name it would have had.
  const file = out === undefined ? join(store.paths.exports, name) : isDirectory(out) ? join(out, name) : out;
  const rows = store.instincts.list({ unrefuted: true }).map(shareable);
  const wrong = store.instincts.count() - rows.length;
  const staging = mkdtempSync(join(tmpdir(), 'homunculus-export-'));
  try {
    const manifest = {
      format: ARCHIVE_FORMAT,
      exported_at: now.toISOString(),
      projects: projectNamesOf(store, rows),
      instincts: rows.map((r) => ({
        key: r.key,
        category: r.category,
        trigger: r.trigger,
        action: r.action,
        title: r.title,
        domain: r.domain,
        project: r.project,
        source: r.source,
        explain: r.explain,
        metadata: parseJsonObject(r.metadata),
        evidence: r.evidence,
        confidence: currentConfidence(r, now),
        first_seen: r.first_seen,
        last_seen: r.last_seen,
      })),
    };
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(join(staging, 'instincts'));
    rows.forEach((r, i) => writeFileSync(join(staging, 'instincts', `${String(i).padStart(5, '0')}.md`), renderInstinctMarkdown(store, r)));
    // Packed beside the staging files, then put in place whole: a refused or failed write leaves what was there.
    const packed = join(staging, 'archive.tar.gz');
    await tar.create({ gzip: true, file: packed, cwd: staging, portable: true }, ['manifest.json', 'instincts']);
    writeFileAtomic(file, readFileSync(packed));
    return { file, instincts: rows.length, left_out_wrong: wrong };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const badArchive = (message: string): HomunculusError =>
  new HomunculusError('bad_archive', message, { hint: 'Give a .tar.gz made by `homunculus export`.' });

/** An archive of instincts is a few megabytes at most; these bound what a hostile one costs. */
const ARCHIVE_LIMITS: TarLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntries: 200_000,
};

/** The project names an archive gives that can be names: a bad one costs only itself. */
function validNames(projects: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [fingerprint, name] of Object.entries(projects)) {
    const clean = typeof name === 'string' ? name.replace(/[\p{Cc}\s]+/gu, ' ').trim() : '';
    if (isFingerprint(fingerprint) && clean && clean.length <= 200) out[fingerprint] = clean;
  }
  return out;
}

/** The instinct records of an archive made by `export`, unvalidated (older archives' `score` renamed `confidence`). */
export async function readArchiveRecords(file: string, limits: TarLimits = ARCHIVE_LIMITS): Promise<unknown[]> {
  return (await readArchive(file, limits)).records;
}

/** An archive made by `export`: its records (as readArchiveRecords gives them) and its projects' names. */
export async function readArchive(file: string, limits: TarLimits = ARCHIVE_LIMITS): Promise<ArchiveContents> {
  regularInput(file, 'Give a tarball made by `homunculus export`.');
  let content: Buffer | undefined;
  try {
    content = await readTarEntry(file, 'manifest.json', limits);
  } catch (err) {
    if (err instanceof TarLimitError) throw badArchive(`${file} is refused: ${err.message}; nothing was imported.`);
    // A file that cannot be read (permission) is said as that, with its fix, by the report.
    if (explainSystemError(err)) throw err;
    throw badArchive(`${file} is not a readable tarball: ${(err as Error).message}`);
  }
  if (!content) throw badArchive(`${file} has no manifest.json.`);
  let manifest: z.infer<typeof manifestSchema>;
  try {
    manifest = manifestSchema.parse(JSON.parse(content.toString('utf8')));
  } catch (err) {
    const issue = err instanceof z.ZodError ? err.issues[0] : undefined;
    const detail = err instanceof z.ZodError ? (issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid') : (err as Error).message;
    throw badArchive(`${file} has an invalid manifest (${detail}); nothing was imported.`);
  }
  return { records: manifest.instincts.map(renameScore), projects: validNames(manifest.projects ?? {}) };
}
