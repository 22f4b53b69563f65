/** import-files, export, import: moving instincts in and out. Implementations load lazily (tar, zod, yaml). */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { withCommandStore } from '../context.js';
import { emit } from '../output.js';

export function registerTransferCommands(program: Command): void {
  program
    .command('import-files')
    .description("Import instinct .md files in seed 000's format (e.g. ~/.claude/homunculus/instincts/personal)")
    .argument('<dir>', 'folder of instinct markdown files')
    .action(async (dir: string, _o: unknown, cmd: Command) => {
      const { importInstinctFiles } = await import('../../view/import-files.js');
      const { renderAll } = await import('../../view/render.js');
      await withCommandStore(cmd, (store, g) => {
        const result = importInstinctFiles(store, resolve(dir));
        renderAll(store);
        for (const s of result.skipped) process.stderr.write(`skipped ${s.file}: ${s.reason}\n`);
        emit(g, result, (r) => `Imported ${r.imported} new, raised ${r.raised}, ${r.unchanged} unchanged, ${r.skipped.length} skipped.`);
      });
    });

  program
    .command('export')
    .description('Write a tarball of instincts only (no observations, no code) for sharing')
    .option('--out <file>', 'tarball path (default: exports/instincts-<time>.tar.gz under the home)')
    .action(async (o: { out?: string }, cmd: Command) => {
      const { exportInstincts } = await import('../../view/archive.js');
      await withCommandStore(cmd, async (store, g) => {
        const result = await exportInstincts(store, o.out ? resolve(o.out) : undefined);
        emit(g, result, (r) => `Exported ${r.instincts} instincts to ${r.file}`);
      });
    });

  program
    .command('import')
    .description('Merge an instinct tarball made by `export`: raises what exists, never lowers it')
    .argument('<file>', 'tarball path')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const { importInstinctArchive } = await import('../../view/archive.js');
      const { renderAll } = await import('../../view/render.js');
      await withCommandStore(cmd, async (store, g) => {
        const result = await importInstinctArchive(store, resolve(file));
        renderAll(store);
        emit(g, result, (r) => `Imported ${r.imported} new, raised ${r.raised}, ${r.unchanged} unchanged.`);
      });
    });
}
