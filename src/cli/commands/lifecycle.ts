/** status and evolve (the slash commands /homunculus-instinct-status and /homunculus-evolve), promote and unpromote. */
import type { Command } from 'commander';
import { evolve, promote, status, unpromote } from '../../app/lifecycle.js';
import { convictionText } from '../../learn/evolve.js';
import { runOperation } from '../run.js';
import { counted } from '../../core/text.js';

const BAND_TITLES = {
  strong: 'Strong (0.70+): apply consistently',
  moderate: 'Moderate (0.50-0.70): apply unless there is a reason not to',
  tentative: 'Tentative (0.30-0.50): apply if it feels right',
  faded: 'Faded (below 0.30): not seen for weeks; still given when a prompt clearly matches, below fresher ones',
} as const;

/** The user's verdict, said on the line: a score at the floor looks faded, and one marked wrong is not given at all. */
const VERDICT_MARKS = {
  none: '',
  strong: '  [marked strong]',
  weak: '  [marked weak]',
  wrong: '  [marked wrong: not given to agents]',
} as const;

export function registerLifecycleCommands(program: Command): void {
  program
    .command('status')
    .description('Instincts grouped by confidence band and domain (decay applied), convictions, pending observations')
    .action(async (_o: unknown, cmd: Command) => {
      await runOperation(cmd, status, {}, (s) => {
        const lines = [
          `${s.total} instincts, ${s.convictions.length} convictions, ${s.pending_observations} pending observations (${s.observations} in all${s.archived_observations ? `, ${s.archived_observations} more archived by gc` : ''})`,
        ];
        if (s.convictions.length) {
          lines.push('', 'Convictions');
          for (const c of s.convictions)
            lines.push(
              `  - ${convictionText(c)}${c.wrong ? VERDICT_MARKS.wrong : c.stale ? `  [possibly stale: ${c.confidence.toFixed(2)}]` : ''}`,
            );
        }
        type Item = (typeof s.bands.strong)[string][number];
        const line = (v: Item) =>
          `    ${v.confidence.toFixed(2)}  ${v.trigger} -> ${v.action}  (${v.pattern}, seen ${v.evidence}x)${VERDICT_MARKS[v.verdict ?? 'none']}`;
        const wrong = new Map<string, Item[]>();
        for (const band of ['strong', 'moderate', 'tentative', 'faded'] as const) {
          // What the user marked wrong is not faded: it is never given, and is listed apart.
          const domains = Object.entries(s.bands[band])
            .map(([domain, items]) => {
              for (const v of items) if (v.verdict === 'wrong') wrong.set(domain, [...(wrong.get(domain) ?? []), v]);
              return [domain, items.filter((v) => v.verdict !== 'wrong')] as const;
            })
            .filter(([, items]) => items.length > 0);
          if (domains.length === 0) continue;
          lines.push('', BAND_TITLES[band]);
          for (const [domain, items] of domains) lines.push(`  ${domain}`, ...items.map(line));
        }
        if (wrong.size) {
          lines.push('', 'Marked wrong: never given to an agent (`homunculus feedback KEY strong` gives one back)');
          for (const [domain, items] of wrong) lines.push(`  ${domain}`, ...items.map(line));
        }
        if (s.total === 0)
          lines.push('', 'Nothing learned yet. Work with your agent for a few sessions, or record a pattern with `homunculus observe`.');
        return lines;
      });
    });

  program
    .command('evolve')
    .description('Preview instincts ready to become permanent convictions (confidence >= 0.75, 14+ days old, seen within 7 days)')
    .option('--promote', 'promote every eligible instinct to convictions.md')
    .option('--all', 'also list instincts that do not qualify yet, with what blocks them')
    .action(async (o: { promote?: boolean; all?: boolean }, cmd: Command) => {
      await runOperation(cmd, evolve, { promote: !!o.promote, all: !!o.all }, (r, store) => {
        const lines: string[] = [];
        const eligible = r.candidates.filter((c) => c.eligible);
        if (o.promote) lines.push(`Promoted ${counted(r.promoted.length, 'instinct')} to ${store.paths.convictions}.`);
        else
          lines.push(
            eligible.length ? `${eligible.length} ready for promotion (run with --promote):` : 'No instinct qualifies for promotion yet.',
          );
        for (const c of r.candidates) {
          lines.push(
            `  ${c.eligible ? '✓' : '·'} ${c.pattern} (${c.confidence.toFixed(2)}): ${(c.eligible ? c.reasons : c.blockers).join('; ')}`,
          );
        }
        for (const s of r.stale) lines.push(`  ! conviction may be stale: ${s.pattern} fell to ${s.confidence.toFixed(2)} (below 0.40)`);
        return lines;
      });
    });

  program
    .command('promote')
    .description('Promote one instinct to a permanent conviction now, because you say so (evolve --promote follows the rule)')
    .argument('<pattern>', 'exact key')
    .action(async (pattern: string, _o: unknown, cmd: Command) => {
      await runOperation(
        cmd,
        promote,
        { pattern, source: 'cli' },
        (r, store) => [
          `Promoted ${r.pattern} to a conviction in ${store.paths.convictions}: ${convictionText(r)}`,
          ...(r.eligible ? [] : [`  (before the rule would have: ${r.blockers.join('; ')})`]),
        ],
        { names: { pattern: '<pattern>' } },
      );
    });

  program
    .command('unpromote')
    .description('Withdraw a conviction: the instinct stays, and evolve will not promote it again on its own')
    .argument('<pattern>', 'exact key')
    .action(async (pattern: string, _o: unknown, cmd: Command) => {
      await runOperation(
        cmd,
        unpromote,
        { pattern, source: 'cli' },
        (r) => `Un-promoted ${r.pattern}: "${r.title}" is no longer a conviction.`,
        { names: { pattern: '<pattern>' } },
      );
    });
}
