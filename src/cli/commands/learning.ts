/** learn, episodes, chains, duplicates, gc/housekeep, trending, history, effectiveness, tool-usage. */
import type { Command } from 'commander';
import { chains, duplicates, effectiveness, episodes, gc, history, learn, toolUsage, trending } from '../../app/learning.js';
import { ARCHIVED_DIR, SESSION_ARCHIVE_DAYS } from '../../capture/sessions/files.js';
import { counted } from '../../core/text.js';
import { table } from '../output.js';
import { num, runOperation } from '../run.js';

const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? String(n) : '');

function learnCommand(program: Command): void {
  program
    .command('learn')
    .description('Process pending observations: mine patterns, create or reinforce instincts, record episodes, decay, write the logs')
    .option('--no-llm', 'use only the deterministic miners, even when an LLM is configured')
    .action(async (o: { llm?: boolean }, cmd: Command) => {
      await runOperation(cmd, learn, { llm: o.llm !== false }, (r, store) => {
        if (r.status === 'locked') return 'Another learning run holds the lock; it will process these observations too.';
        const lines = [
          `Processed ${r.observations} observation(s) from ${r.sessions} session(s): ${r.created.length} instinct(s) created, ${r.reinforced.length} reinforced, ${r.episodes.length} episode(s), ${r.rejected.count} candidate(s) rejected, ${r.skipped.count} observation(s) skipped.`,
        ];
        for (const c of r.created) lines.push(`  + ${c.pattern} (${c.confidence.toFixed(2)}): ${c.title}`);
        for (const c of r.contradictions) lines.push(`  - ${c.pattern}: contradicted, ${c.before.toFixed(2)} -> ${c.after.toFixed(2)}`);
        if (r.llm.fallbacks.length)
          lines.push(`  LLM fell back to the deterministic miners ${r.llm.fallbacks.length} time(s); see ${store.paths.observerLog}`);
        lines.push(`Details: ${store.paths.lastProcessingLog}`);
        return lines;
      });
    });
}

function episodesCommand(program: Command): void {
  program
    .command('episodes')
    .description('Notable one-off events below the 3-session instinct threshold')
    .option('--limit <n>', 'maximum rows', '50')
    .action(async (o: { limit?: string }, cmd: Command) => {
      await runOperation(cmd, episodes, { limit: num(o.limit) }, (r) =>
        r.count
          ? table([['DATE', 'SEEN', 'TITLE'], ...r.episodes.map((e) => [e.date.slice(0, 10), `${e.occurrences}x`, e.title])])
          : 'No episodes yet.',
      );
    });
}

function chainsCommand(program: Command): void {
  program
    .command('chains')
    .description('Mine the observation log for instincts observed one after the other (creates seq:A->B patterns)')
    .option('--window <minutes>', 'maximum gap between the two observations', '5')
    .option('--min <n>', 'occurrences needed to record a chain', '3')
    .action(async (o: { window?: string; min?: string }, cmd: Command) => {
      await runOperation(
        cmd,
        chains,
        { windowMinutes: num(o.window), minOccurrences: num(o.min) },
        (r) => `${r.chains_created} chain(s) created, ${r.chains_reinforced} reinforced, ${r.candidates_seen} candidate pair(s) seen.`,
        { names: { windowMinutes: '--window', minOccurrences: '--min' } },
      );
    });
}

function duplicatesCommand(program: Command): void {
  program
    .command('duplicates')
    .description('Near-identical pattern keys that should probably be merged (token overlap and prefix matching)')
    .option('--threshold <x>', 'similarity cutoff between 0 and 1', '0.75')
    .action(async (o: { threshold?: string }, cmd: Command) => {
      await runOperation(cmd, duplicates, { threshold: num(o.threshold) }, (r) =>
        r.count
          ? [
              ...table([
                ['SIMILARITY', 'PATTERN A', 'PATTERN B'],
                ...r.duplicates.map((d) => [d.similarity.toFixed(3), d.pattern_a, d.pattern_b]),
              ]),
              r.hint,
            ]
          : r.hint,
      );
    });
}

function gcCommand(program: Command): void {
  program
    .command('gc')
    .alias('housekeep')
    .description(
      'Maintenance: decay, merge near-duplicates, remove orphan aliases, rebuild search, archive observations older than 30 days and session files older than 30 days (sessions/_archived/)',
    )
    .option('--threshold <x>', 'similarity cutoff for merging duplicates', '0.75')
    .option('--archive-after <days>', 'archive processed observations older than this', '30')
    .action(async (o: { threshold?: string; archiveAfter?: string }, cmd: Command) => {
      await runOperation(
        cmd,
        gc,
        { threshold: num(o.threshold), archiveAfterDays: num(o.archiveAfter) },
        (r) => [
          `decay: ${r.decay.decayed} instinct(s) decayed; dedup: ${r.dedup.found} pair(s) found, ${r.dedup.applied} merged; ${r.orphans_cleaned} orphan alias(es) removed; search index rebuilt.`,
          `observations: ${r.observations.archived} archived, ${r.observations.signals_trimmed} old preference signal(s) trimmed, ${r.observations.tallies_forgotten} stale tally row(s) forgotten.`,
          `sessions: ${r.sessions_archived} file(s) of sessions older than ${SESSION_ARCHIVE_DAYS} days moved to sessions/${ARCHIVED_DIR}/.`,
          `agent: ${r.conversations_forgotten} conversation(s) nobody went on with in ${o.archiveAfter ?? 30} days forgotten.`,
        ],
        { names: { archiveAfterDays: '--archive-after' } },
      );
    });
}

function trendingCommand(program: Command): void {
  program
    .command('trending')
    .description('Instincts ranked by how often they were observed in the last days')
    .option('--days <n>', 'window in days', '7')
    .option('--limit <n>', 'maximum rows', '10')
    .action(async (o: { days?: string; limit?: string }, cmd: Command) => {
      await runOperation(cmd, trending, { days: num(o.days), limit: num(o.limit) }, (r) =>
        r.trending.length
          ? table([
              ['IN WINDOW', 'EVIDENCE', 'CONFIDENCE', 'PATTERN'],
              ...r.trending.map((t) => [
                t.observations_in_period === undefined ? '-' : String(t.observations_in_period),
                String(t.evidence),
                t.confidence.toFixed(2),
                t.pattern,
              ]),
            ])
          : 'No instincts yet.',
      );
    });
}

function historyCommand(program: Command): void {
  program
    .command('history')
    .description("One pattern's timeline: observations (evidence) and confidence changes (decay, feedback, contradictions)")
    .argument('<pattern>', 'exact key')
    .option('--days <n>', 'look-back window in days', '30')
    .action(async (pattern: string, o: { days?: string }, cmd: Command) => {
      const days = num(o.days);
      await runOperation(
        cmd,
        history,
        { pattern, days },
        (r) =>
          r.timeline.length
            ? [
                // Sightings, not observations: one can add several (a session's worth, an import).
                `${r.pattern}: evidence +${r.timeline.reduce((n, t) => n + Math.max(0, t.delta_evidence), 0)} in the last ${days ?? 30} days (${counted(r.data_points, 'sighting')}${r.projects.length ? `, across ${counted(r.projects.length, 'project')}` : ''})`,
                ...table([
                  ['WHEN', 'EVENT', 'EVIDENCE', 'CONFIDENCE', 'SOURCE'],
                  ...r.timeline.map((t) => [
                    t.timestamp.slice(0, 19),
                    // Which feedback it was says more than its delta ("feedback wrong").
                    t.kind === 'feedback' && t.detail ? `${t.kind} ${t.detail}` : t.kind,
                    signed(t.delta_evidence),
                    signed(t.delta_confidence),
                    t.from ? `${t.source} (recorded as ${t.from})` : t.source,
                  ]),
                ]),
              ]
            : `${r.pattern}: nothing recorded in the last ${days ?? 30} days.`,
        { names: { pattern: '<pattern>' } },
      );
    });
}

function effectivenessCommand(program: Command): void {
  program
    .command('effectiveness')
    .description('How often suggested patterns were confirmed by a later observation')
    .option('--days <n>', 'look-back window in days', '30')
    .action(async (o: { days?: string }, cmd: Command) => {
      await runOperation(cmd, effectiveness, { days: num(o.days) }, (r) =>
        r.patterns.length
          ? [
              ...table([
                ['SUGGESTED', 'CONFIRMED', 'RATE', 'PATTERN'],
                ...r.patterns.map((p) => [String(p.suggested), String(p.confirmed), p.rate.toFixed(3), p.pattern]),
              ]),
              `overall: ${r.summary.total_confirmed}/${r.summary.total_suggested} (${r.summary.overall_rate.toFixed(3)}) over ${r.summary.period_days} days`,
            ]
          : `No suggestions recorded in the last ${r.summary.period_days} days.`,
      );
    });
}

function toolUsageCommand(program: Command): void {
  program
    .command('tool-usage')
    .description('Tool calls per month (archived aggregates plus live observations)')
    .option('--project <fingerprint>', 'only this project')
    .action(async (o: { project?: string }, cmd: Command) => {
      await runOperation(cmd, toolUsage, { project: o.project?.trim() === '' ? '' : o.project }, (r) =>
        r.months.length
          ? r.months.map(
              (m) =>
                `${m.month}: ${m.total} calls, top ${m.topTool} (${Object.entries(m.tools)
                  .slice(0, 5)
                  .map(([t, n]) => `${t} ${n}`)
                  .join(', ')})`,
            )
          : 'No tool usage recorded.',
      );
    });
}

export function registerLearningCommands(program: Command): void {
  for (const register of [
    learnCommand,
    episodesCommand,
    chainsCommand,
    duplicatesCommand,
    gcCommand,
    trendingCommand,
    historyCommand,
    effectivenessCommand,
    toolUsageCommand,
  ])
    register(program);
}
