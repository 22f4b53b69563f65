/** Writes an instinct archive in `homunculus export`'s format with whatever records a test needs, sound or not. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';

export async function writeInstinctArchive(
  file: string,
  instincts: readonly unknown[],
  exportedAt = '2026-03-01T00:00:00.000Z',
): Promise<string> {
  const staging = mkdtempSync(`${file}.staging-`);
  try {
    mkdirSync(staging, { recursive: true });
    const manifest = { format: 'homunculus-instincts/1', exported_at: exportedAt, instincts };
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest));
    await tar.create({ gzip: true, file, cwd: staging }, ['manifest.json']);
    return file;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
