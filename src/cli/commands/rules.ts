/** export-rules: learned rules for every agent's rule file, printed or injected in place. */
import type { Command } from 'commander';
import { dirname, resolve } from 'node:path';
import { injectRules, renderRules } from '../../app/rules.js';
import { UsageError } from '../../core/errors.js';
import { RULE_FORMATS } from '../../view/rules.js';
import { globals } from '../context.js';
import { runOperation } from '../run.js';
import { counted } from '../../core/text.js';

/** What an export with no rule to write did to the file's learned block. */
function noRules(r: { target: string; removed?: boolean; kept?: 'edited' | 'unknown' }): string {
  if (r.removed)
    return `Took the learned block out of ${r.target}: no rule-level instinct for this project now (the rules it held were taken back).`;
  if (r.kept === 'edited')
    return `Left the learned block of ${r.target} as it is: no rule-level instinct for this project now, and the block was edited by hand (\`--force\` takes it out).`;
  if (r.kept === 'unknown')
    return `Left the learned block of ${r.target} as it is: no rule-level instinct for this project now, and the block holds rules this store never learned (\`--force\` takes it out).`;
  return `Nothing written to ${r.target}: no rule-level instinct for this project yet; \`--project\` names another.`;
}

export function registerRuleCommands(program: Command): void {
  program
    .command('export-rules')
    .description('Render rule-level instincts for CLAUDE.md, AGENTS.md, .cursorrules, .windsurfrules or SKILL.md')
    .option(
      '--format <format>',
      `${RULE_FORMATS.join(' | ')} (default: claude-md; with --inject, the one the file's name takes: agents-md for AGENTS.md)`,
    )
    .option('--inject <file>', 'update only the <!-- instinct:start/end --> block of FILE (created if missing)')
    .option('--force', 'with --inject: replace the block even where it was edited by hand')
    .option('--name <name>', 'skill name for --format skill', 'instinct-rules')
    .option(
      '--project <project>',
      "whose rules: a fingerprint or a name (default: the repository of the current directory, or of the --inject file); '' for every project's",
    )
    .action(async (o: { format?: string; inject?: string; force?: boolean; name?: string; project?: string }, cmd: Command) => {
      const scope = { project: o.project, cwd: o.inject !== undefined ? dirname(resolve(o.inject)) : process.cwd() };
      if (o.inject !== undefined) {
        if (o.format === 'skill')
          throw new UsageError(
            '--inject writes a marked block; a SKILL.md is a whole file.',
            'Redirect the output instead: homunculus export-rules --format skill > SKILL.md',
          );
        await runOperation(
          cmd,
          injectRules,
          { target: resolve(o.inject), ...(o.format ? { format: o.format } : {}), force: o.force === true, ...scope },
          (r) =>
            r.rule_count === 0
              ? noRules(r)
              : `${r.changed ? 'Updated' : 'Unchanged:'} ${r.target} (${counted(r.lines, 'line')}, ${counted(r.rule_count, 'rule')})`,
          { names: { target: '--inject' } },
        );
        return;
      }
      const json = globals(cmd).json;
      await runOperation(cmd, renderRules, { format: o.format ?? 'claude-md', name: o.name, ...scope }, (r) => {
        if (json) return '';
        if (r.content) process.stdout.write(r.content);
        else
          process.stderr.write(
            `${'note' in r && r.note ? r.note : 'No rule-level instinct for this project yet (10+ observations, then `homunculus consolidate`); `--project` names another.'}\n`,
          );
        return '';
      });
    });
}
