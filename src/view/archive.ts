/**
 * `export` / `import`: a tarball of instincts only (privacy: no observations, no
 * code, no sessions). manifest.json carries the records; the .md files are for people.
 * Neither carries the examples (excerpts of observations) an instinct keeps at home.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { z } from 'zod';
import { CATEGORIES } from '../core/domain.js';
import { HomunculusError, UsageError } from '../core/errors.js';
import { redact, redactDeep } from '../core/redact.js';
import { parseJsonObject } from '../store/json.js';
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { mergeInstinct } from '../learn/merge.js';
import { currentConfidence } from '../learn/records.js';
import { renderInstinctMarkdown } from './render.js';
import { ensureDir } from '../core/fs.js';

const ARCHIVE_FORMAT = 'homunculus-instincts/1';

/** Archives written before the confidence score was named `confidence` call it `score`. */
const renameScore = (raw: unknown): unknown =>
  raw && typeof raw === 'object' && 'score' in raw && !('confidence' in raw)
    ? { ...raw, confidence: (raw as { score: unknown }).score }
    : raw;

const archivedInstinct = z.preprocess(
  renameScore,
  z.object({
    key: z.string().min(1),
    category: z.enum(CATEGORIES),
    trigger: z.string(),
    action: z.string(),
    title: z.string(),
    domain: z.string(),
    project: z.string(),
    source: z.string(),
    explain: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    evidence: z.number().int().min(1),
    confidence: z.number().min(0).max(1),
    first_seen: z.string(),
    last_seen: z.string(),
  }),
);

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  exported_at: z.string(),
  instincts: z.array(archivedInstinct),
});

interface ExportResult {
  file: string;
  instincts: number;
}

/**
 * What of an instinct may leave the machine: trigger, action and explanation, redacted
 * again; its metadata without the examples, which are excerpts of observations.
 */
function shareable(row: InstinctRow): InstinctRow {
  const { examples: _examples, ...metadata } = parseJsonObject(row.metadata);
  return {
    ...row,
    trigger: redact(row.trigger),
    action: redact(row.action),
    title: redact(row.title),
    explain: redact(row.explain),
    metadata: JSON.stringify(redactDeep(metadata)),
  };
}

export async function exportInstincts(store: Store, out?: string): Promise<ExportResult> {
  const now = store.clock.now();
  const file = out ?? join(store.paths.exports, `instincts-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  const rows = store.instincts.list().map(shareable);
  const staging = mkdtempSync(join(tmpdir(), 'homunculus-export-'));
  try {
    const manifest = {
      format: ARCHIVE_FORMAT,
      exported_at: now.toISOString(),
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
    ensureDir(dirname(file));
    await tar.create({ gzip: true, file, cwd: staging, portable: true }, ['manifest.json', 'instincts']);
    return { file, instincts: rows.length };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

interface ImportArchiveResult {
  imported: number;
  raised: number;
  unchanged: number;
}

export async function importInstinctArchive(store: Store, file: string): Promise<ImportArchiveResult> {
  if (!existsSync(file)) throw new UsageError(`No such file: ${file}`, 'Give a tarball made by `homunculus export`.');
  const staging = mkdtempSync(join(tmpdir(), 'homunculus-import-'));
  try {
    try {
      await tar.extract({ file, cwd: staging, strict: true, filter: (path) => path === 'manifest.json' });
    } catch (err) {
      throw new HomunculusError('bad_archive', `${file} is not a readable tarball: ${(err as Error).message}`, {
        hint: 'Give a .tar.gz made by `homunculus export`.',
      });
    }
    const manifestPath = join(staging, 'manifest.json');
    if (!existsSync(manifestPath)) {
      throw new HomunculusError('bad_archive', `${file} has no manifest.json.`, { hint: 'Give a tarball made by `homunculus export`.' });
    }
    let manifest: z.infer<typeof manifestSchema>;
    try {
      manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    } catch (err) {
      const detail =
        err instanceof z.ZodError
          ? err.issues[0]
            ? `${err.issues[0].path.join('.')}: ${err.issues[0].message}`
            : 'invalid'
          : (err as Error).message;
      throw new HomunculusError('bad_archive', `${file} has an invalid manifest (${detail}); nothing was imported.`);
    }
    const result: ImportArchiveResult = { imported: 0, raised: 0, unchanged: 0 };
    store.transaction(() => {
      for (const item of manifest.instincts) {
        const outcome = mergeInstinct(store, item, 'import');
        if (outcome === 'created') result.imported++;
        else if (outcome === 'raised') result.raised++;
        else result.unchanged++;
      }
    });
    return result;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
