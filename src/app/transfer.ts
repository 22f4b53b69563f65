/** Transfer operations: instincts in from instinct files or an archive, out to an archive. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { exportInstincts, importInstinctArchive } from '../view/archive.js';
import { importInstinctFiles } from '../view/import-files.js';
import { renderAll } from '../view/render.js';
import { defineOperation } from './operation.js';
import { text } from './schemas.js';

const path = () => text(4096).min(1, { error: 'must not be empty' });

export const importFiles = defineOperation({
  name: 'transfer.import-files',
  summary: 'Import instinct markdown files (YAML front matter: trigger, action, confidence, domain ...) from a folder',
  input: z.object({ dir: path() }),
  run({ store, warn }, input) {
    const result = importInstinctFiles(store, resolve(input.dir));
    renderAll(store);
    for (const s of result.skipped) warn?.(`skipped ${s.file}: ${s.reason}`);
    return result;
  },
});

export const exportArchive = defineOperation({
  name: 'transfer.export',
  summary: 'A tarball of instincts only (no observations, no code) for sharing',
  input: z.object({ out: path().optional() }),
  run: ({ store }, input) => exportInstincts(store, input.out ? resolve(input.out) : undefined),
});

export const importArchive = defineOperation({
  name: 'transfer.import',
  summary: 'Merge an instinct tarball made by export: raises what exists, never lowers it',
  input: z.object({ file: path() }),
  async run({ store }, input) {
    const result = await importInstinctArchive(store, resolve(input.file));
    renderAll(store);
    return result;
  },
});
