/** export-rules: learned rules for every agent's rule file, printed or injected in place. */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { parseChoice } from '../../core/domain.js';
import { UsageError } from '../../core/errors.js';
import { toRecord } from '../../learn/records.js';
import { RULE_FORMATS, type RuleFormat, injectBlock, renderPlatform, renderSkill, sortRules } from '../../view/rules.js';
import { withCommandStore } from '../context.js';
import { emit } from '../output.js';

const PLATFORM_OF: Record<Exclude<RuleFormat, 'skill'>, 'claude-md' | 'codex' | 'cursorrules' | 'windsurfrules'> = {
  'claude-md': 'claude-md',
  'agents-md': 'codex',
  cursorrules: 'cursorrules',
  windsurfrules: 'windsurfrules',
};

export function registerRuleCommands(program: Command): void {
  program
    .command('export-rules')
    .description('Render rule-level instincts for CLAUDE.md, AGENTS.md, .cursorrules, .windsurfrules or SKILL.md')
    .option('--format <format>', RULE_FORMATS.join(' | '), 'claude-md')
    .option('--inject <file>', 'update only the <!-- instinct:start/end --> block of FILE (created if missing)')
    .option('--name <name>', 'skill name for --format skill', 'instinct-rules')
    .action(async (o: { format: string; inject?: string; name?: string }, cmd: Command) => {
      const format = parseChoice('format', o.format, RULE_FORMATS);
      if (o.inject && format === 'skill')
        throw new UsageError(
          '--inject writes a marked block; a SKILL.md is a whole file.',
          'Redirect the output instead: homunculus export-rules --format skill > SKILL.md',
        );
      await withCommandStore(cmd, (store, g) => {
        const rules = sortRules(store.instincts.list({ minLevel: 2 }).map(toRecord));
        const content = format === 'skill' ? renderSkill(rules, { name: o.name }) : renderPlatform(rules, PLATFORM_OF[format]);
        if (o.inject) {
          emit(
            g,
            injectBlock(resolve(o.inject), content, rules.length),
            (r) => `${r.changed ? 'Updated' : 'Unchanged:'} ${r.target} (${r.rule_count} rule${r.rule_count === 1 ? '' : 's'})`,
          );
          return;
        }
        if (g.json) emit(g, { format, content, rule_count: rules.length }, () => '');
        else if (content) process.stdout.write(content);
        else process.stderr.write('No rule-level instinct yet (10+ observations, then `homunculus consolidate`).\n');
      });
    });
}
