/** learn, episodes, chains, duplicates, gc/housekeep, trending, history, effectiveness, tool-usage. */
import type { Command } from 'commander';
import { appendFileSync } from 'node:fs';
import { UsageError, errorMessage } from '../../core/errors.js';
import { effectiveness, history, timeline, trending } from '../../learn/insight.js';
import { loadConfig } from '../../core/config.js';
import { detectChains, findDuplicates, housekeep } from '../../learn/maintenance.js';
import { runLearn } from '../../learn/run.js';
import type { LearnReport } from '../../learn/report.js';
import type { Store } from '../../store/store.js';
import type { CompleteFn } from '../../graph/extract/llm.js';
import { maintainObservations, toolUsageMonthly } from '../../learn/tiers.js';
import { ARCHIVED_DIR, SESSION_ARCHIVE_DAYS, archiveSessions } from '../../capture/sessions/files.js';
import { parseStringArray } from '../../store/json.js';
import { renderAll } from '../../view/render.js';
import { renderAfterLearn, renderEpisodes } from '../../view/episodes.js';
import { withCommandStore } from '../context.js';
import { emit, parsePositiveInt, parseUnitInterval, table } from '../output.js';

function parseDays(value: string | undefined, fallback: number): number {
  return parsePositiveInt('days', value) ?? fallback;
}

/** One learning run as the CLI does it: the configured model when allowed, then the readable view. */
export async function learnPending(store: Store, options: { llm: boolean }): Promise<LearnReport> {
  // The model layer (AI SDK, zod schemas) loads only when a model is configured.
  const wantsLlm = options.llm && loadConfig(store.paths.config).llm !== undefined;
  const { observer, warning, complete } = wantsLlm ? await (await import('../../learn/llm-observer.js')).observerFromConfig(store) : {};
  if (warning) process.stderr.write(`homunculus: ${warning}\n`);
  const report = await runLearn(store, { observer, render: renderAfterLearn });
  if (report.status === 'done' && report.session_ids.length > 0) await buildGraph(store, report.session_ids, complete);
  return report;
}

/** Session-end knowledge extraction for the sessions a run processed; a failure costs only that session's facts. */
async function buildGraph(store: Store, sessionIds: readonly string[], complete?: CompleteFn): Promise<void> {
  const { graphSessionEnd } = await import('../../graph/session-end.js');
  for (const [i, sessionId] of sessionIds.entries()) {
    try {
      await graphSessionEnd(store, { sessionId, gc: i === sessionIds.length - 1, ...(complete ? { complete } : {}) });
    } catch (err) {
      appendFileSync(
        store.paths.observerLog,
        `${store.clock.now().toISOString()} graph extraction for ${sessionId} failed: ${errorMessage(err)}\n`,
      );
    }
  }
}

export function registerLearningCommands(program: Command): void {
  program
    .command('learn')
    .description('Process pending observations: mine patterns, create or reinforce instincts, record episodes, decay, write the logs')
    .option('--no-llm', 'use only the deterministic miners, even when an LLM is configured')
    .action(async (o: { llm?: boolean }, cmd: Command) => {
      await withCommandStore(cmd, async (store, g) => {
        const report = await learnPending(store, { llm: o.llm !== false });
        emit(g, report, (r) => {
          if (r.status === 'locked') return 'Another learning run holds the lock; it will process these observations too.';
          const lines = [
            `Processed ${r.observations} observation(s) from ${r.sessions} session(s): ${r.created.length} instinct(s) created, ${r.reinforced.length} reinforced, ${r.episodes.length} episode(s), ${r.rejected.count} candidate(s) rejected, ${r.skipped.count} observation(s) skipped.`,
          ];
          for (const c of r.created) lines.push(`  + ${c.pattern} (${c.score.toFixed(2)}): ${c.title}`);
          for (const c of r.contradictions) lines.push(`  - ${c.pattern}: contradicted, ${c.before.toFixed(2)} -> ${c.after.toFixed(2)}`);
          if (r.llm.fallbacks.length)
            lines.push(`  LLM fell back to the deterministic miners ${r.llm.fallbacks.length} time(s); see ${store.paths.observerLog}`);
          lines.push(`Details: ${store.paths.lastProcessingLog}`);
          return lines;
        });
      });
    });

  program
    .command('episodes')
    .description('Notable one-off events below the 3-session instinct threshold')
    .option('--limit <n>', 'maximum rows', '50')
    .action(async (o: { limit?: string }, cmd: Command) => {
      const limit = parsePositiveInt('limit', o.limit, { allowZero: true }) ?? 50;
      await withCommandStore(cmd, (store, g) => {
        const episodes = store.episodes
          .list()
          .reverse()
          .slice(0, limit)
          .map((e) => ({
            pattern: e.pattern,
            title: e.title,
            date: e.date,
            occurrences: e.occurrences,
            tags: parseStringArray(e.tags),
            file: e.file_name,
          }));
        emit(g, { episodes, count: episodes.length }, (r) =>
          r.count
            ? table([['DATE', 'SEEN', 'TITLE'], ...r.episodes.map((e) => [e.date.slice(0, 10), `${e.occurrences}x`, e.title])])
            : 'No episodes yet.',
        );
      });
    });

  program
    .command('chains')
    .description('Mine the observation log for instincts observed one after the other (creates seq:A->B patterns)')
    .option('--window <minutes>', 'maximum gap between the two observations', '5')
    .option('--min <n>', 'occurrences needed to record a chain', '3')
    .action(async (o: { window?: string; min?: string }, cmd: Command) => {
      const windowMinutes = parsePositiveInt('window', o.window) ?? 5;
      const minOccurrences = parsePositiveInt('min', o.min) ?? 3;
      await withCommandStore(cmd, (store, g) => {
        const { chains_created, chains_reinforced, candidates_seen } = detectChains(store, { windowMinutes, minOccurrences });
        renderAll(store);
        emit(
          g,
          { chains_created, chains_reinforced, candidates_seen },
          (r) => `${r.chains_created} chain(s) created, ${r.chains_reinforced} reinforced, ${r.candidates_seen} candidate pair(s) seen.`,
        );
      });
    });

  program
    .command('duplicates')
    .description('Near-identical pattern keys that should probably be merged (token overlap and prefix matching)')
    .option('--threshold <x>', 'similarity cutoff between 0 and 1', '0.75')
    .action(async (o: { threshold?: string }, cmd: Command) => {
      const threshold = parseUnitInterval('threshold', o.threshold) ?? 0.75;
      await withCommandStore(cmd, (store, g) => {
        emit(g, findDuplicates(store, threshold), (r) =>
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
    });

  program
    .command('gc')
    .alias('housekeep')
    .description(
      'Maintenance: decay, merge near-duplicates, remove orphan aliases, rebuild search, archive observations older than 30 days and session files older than 30 days (sessions/_archived/)',
    )
    .option('--threshold <x>', 'similarity cutoff for merging duplicates', '0.75')
    .option('--archive-after <days>', 'archive processed observations older than this', '30')
    .action(async (o: { threshold?: string; archiveAfter?: string }, cmd: Command) => {
      const threshold = parseUnitInterval('threshold', o.threshold) ?? 0.75;
      const archiveAfterDays = parsePositiveInt('archive-after', o.archiveAfter) ?? 30;
      await withCommandStore(cmd, (store, g) => {
        const result = {
          ...housekeep(store, { dedupThreshold: threshold }),
          observations: maintainObservations(store, { archiveAfterDays }),
          sessions_archived: archiveSessions(store),
        };
        renderAll(store);
        renderEpisodes(store);
        emit(g, result, (r) => [
          `decay: ${r.decay.decayed} instinct(s) decayed; dedup: ${r.dedup.found} pair(s) found, ${r.dedup.applied} merged; ${r.orphans_cleaned} orphan alias(es) removed; search index rebuilt.`,
          `observations: ${r.observations.archived} archived, ${r.observations.signals_trimmed} old preference signal(s) trimmed, ${r.observations.tallies_forgotten} stale tally row(s) forgotten.`,
          `sessions: ${r.sessions_archived} file(s) of sessions older than ${SESSION_ARCHIVE_DAYS} days moved to sessions/${ARCHIVED_DIR}/.`,
        ]);
      });
    });

  program
    .command('trending')
    .description('Patterns ranked by how often they were observed in the last days')
    .option('--days <n>', 'window in days', '7')
    .option('--limit <n>', 'maximum rows', '10')
    .action(async (o: { days?: string; limit?: string }, cmd: Command) => {
      const days = parseDays(o.days, 7);
      const limit = parsePositiveInt('limit', o.limit, { allowZero: true }) ?? 10;
      await withCommandStore(cmd, (store, g) => {
        emit(g, trending(store, { days, limit }), (r) =>
          r.trending.length
            ? table([
                ['IN WINDOW', 'COUNT', 'PATTERN'],
                ...r.trending.map((t) => [
                  t.observations_in_period === undefined ? '-' : String(t.observations_in_period),
                  String(t.confidence),
                  t.pattern,
                ]),
              ])
            : 'No instincts yet.',
        );
      });
    });

  program
    .command('history')
    .description("One pattern's timeline: observations (count) and score changes (decay, feedback, contradictions)")
    .argument('<pattern>', 'exact key')
    .option('--days <n>', 'look-back window in days', '30')
    .action(async (pattern: string, o: { days?: string }, cmd: Command) => {
      const days = parseDays(o.days, 30);
      await withCommandStore(cmd, (store, g) => {
        const result = { ...history(store, pattern, { days }), timeline: timeline(store, pattern, { days }) };
        emit(g, result, (r) =>
          r.timeline.length
            ? [
                `${r.pattern}: ${r.data_points} observation(s) in ${days} days${r.projects.length ? ` across ${r.projects.length} project(s)` : ''}`,
                ...table([
                  ['WHEN', 'EVENT', 'COUNT', 'SCORE', 'SOURCE'],
                  ...r.timeline.map((t) => [
                    t.timestamp.slice(0, 19),
                    t.kind,
                    t.delta_evidence ? `+${t.delta_evidence}` : '',
                    t.delta_confidence ? (t.delta_confidence > 0 ? `+${t.delta_confidence}` : String(t.delta_confidence)) : '',
                    t.source,
                  ]),
                ]),
              ]
            : `${r.pattern}: nothing recorded in the last ${days} days.`,
        );
      });
    });

  program
    .command('effectiveness')
    .description('How often suggested patterns were confirmed by a later observation')
    .option('--days <n>', 'look-back window in days', '30')
    .action(async (o: { days?: string }, cmd: Command) => {
      const days = parseDays(o.days, 30);
      await withCommandStore(cmd, (store, g) => {
        emit(g, effectiveness(store, { days }), (r) =>
          r.patterns.length
            ? [
                ...table([
                  ['SUGGESTED', 'CONFIRMED', 'RATE', 'PATTERN'],
                  ...r.patterns.map((p) => [String(p.suggested), String(p.confirmed), p.rate.toFixed(3), p.pattern]),
                ]),
                `overall: ${r.summary.total_confirmed}/${r.summary.total_suggested} (${r.summary.overall_rate.toFixed(3)}) over ${days} days`,
              ]
            : `No suggestions recorded in the last ${days} days.`,
        );
      });
    });

  program
    .command('tool-usage')
    .description('Tool calls per month (archived aggregates plus live observations)')
    .option('--project <fingerprint>', 'only this project')
    .action(async (o: { project?: string }, cmd: Command) => {
      if (o.project !== undefined && !o.project.trim())
        throw new UsageError('--project is empty.', 'Give a project fingerprint, or leave the option out.');
      await withCommandStore(cmd, (store, g) => {
        const months = toolUsageMonthly(store, { project: o.project });
        emit(g, { months }, (r) =>
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
    });
}
