/** import-files, export, import: moving instincts in and out. Implementations load lazily (tar, zod, yaml). */
import type { Command } from 'commander';
import { runOperation } from '../run.js';

const transfer = () => import('../../app/transfer.js');

/** 1 when a record or a file was skipped (the rest were still imported), as `memory import` does for a bad line. */
const someSkipped = (r: { skipped: readonly unknown[] }): number => (r.skipped.length ? 1 : 0);

export function registerTransferCommands(program: Command): void {
  program
    .command('import-files')
    .description(
      'Import instinct markdown files (YAML front matter with trigger, action, confidence, domain) from a folder, e.g. ~/.claude/homunculus/instincts/personal',
    )
    .argument('<dir>', 'folder of instinct markdown files')
    .action(async (dir: string, _o: unknown, cmd: Command) => {
      const { importFiles } = await transfer();
      await runOperation(
        cmd,
        importFiles,
        { dir },
        (r) => [
          `Imported ${r.imported} new, raised ${r.raised}, ${r.unchanged} unchanged, ${r.skipped.length} skipped.`,
          ...(r.marked_wrong ? [`Marked ${r.marked_wrong} wrong again, as their files say.`] : []),
        ],
        { names: { dir: '<dir>' }, exitCode: someSkipped },
      );
    });

  program
    .command('export')
    .description('Write a tarball of instincts only (no observations, no code) for sharing')
    .option('--out <file>', 'tarball path, or a folder to put it in (default: exports/instincts-<time>.tar.gz under the home)')
    .option('--force', 'replace the --out file if it exists')
    .action(async (o: { out?: string; force?: boolean }, cmd: Command) => {
      const { exportArchive } = await transfer();
      await runOperation(
        cmd,
        exportArchive,
        { out: o.out, force: o.force === true },
        (r) =>
          `Exported ${r.instincts} instincts to ${r.file}${r.left_out_wrong ? ` (left out ${r.left_out_wrong} you marked wrong)` : ''}`,
      );
    });

  program
    .command('import')
    .description('Merge an instinct tarball made by `export`: raises what exists, never lowers it; a bad record is skipped with its reason')
    .argument('<file>', 'tarball path')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const { importArchive } = await transfer();
      await runOperation(
        cmd,
        importArchive,
        { file },
        (r) => `Imported ${r.imported} new, raised ${r.raised}, ${r.unchanged} unchanged, ${r.skipped.length} skipped.`,
        { names: { file: '<file>' }, exitCode: someSkipped },
      );
    });
}
