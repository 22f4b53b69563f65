/** Learning operations: the learning run, and the maintenance and insight views over what it learned. */
import { DAY_MS } from '../core/clock.js';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../core/lock.js';
import { z } from 'zod';
import { archiveSessions } from '../capture/sessions/files.js';
import { summariseLeftOpen } from '../capture/sessions/left-open.js';
import { loadConfig } from '../core/config.js';
import { errorMessage } from '../core/errors.js';
import type { CompleteFn } from '../graph/extract/llm.js';
import { effectiveness as effectivenessOf, history as historyOf, timeline, trending as trendingOf } from '../learn/insight.js';
import { detectChains, findDuplicates, housekeep } from '../learn/maintenance.js';
import { DUPLICATE_THRESHOLD } from '../learn/similarity.js';
import type { LearnReport } from '../learn/report.js';
import { LOCK_STALE_MS, runLearn } from '../learn/run.js';
import { maintainObservations, toolUsageMonthly } from '../learn/tiers.js';
import { parseStringArray } from '../store/json.js';
import type { Store } from '../store/store.js';
import { renderAfterLearn, renderEpisodes } from '../view/episodes.js';
import { renderAll } from '../view/render.js';
import { graphSessionDone, pendingGraphSessions, queueGraphSession } from './graph-queue.js';
import { type AppContext, defineOperation } from './operation.js';
import { days, patternKey, text, unitInterval, wholeNumber } from './schemas.js';

/**
 * Session-end knowledge extraction for every session learned and not yet in the graph (this
 * run's, and any a crash left behind). A failure costs only that session's facts.
 */
async function buildGraph(store: Store, complete?: CompleteFn): Promise<void> {
  if (pendingGraphSessions(store).length === 0) return;
  // One builder at a time: another run holding the lock builds what is listed.
  const release = acquireLock(join(store.paths.locks, 'graph.lock'), { staleMs: LOCK_STALE_MS });
  if (!release) return;
  try {
    const sessionIds = pendingGraphSessions(store);
    const { graphSessionEnd } = await import('../graph/session-end.js');
    for (const [i, sessionId] of sessionIds.entries()) {
      const onApplied = () => graphSessionDone(store, sessionId);
      try {
        await graphSessionEnd(store, { sessionId, gc: i === sessionIds.length - 1, onApplied, ...(complete ? { complete } : {}) });
      } catch (err) {
        appendFileSync(
          store.paths.observerLog,
          `${store.clock.now().toISOString()} graph extraction for ${sessionId} failed: ${errorMessage(err)}\n`,
        );
        store.transaction(onApplied);
      }
      release.refresh();
    }
  } finally {
    release();
  }
}

/** One learning run: the configured model when allowed, the readable view, then the graph of the sessions it learned. */
export async function learnPending(ctx: AppContext, options: { llm: boolean }): Promise<LearnReport> {
  const { store } = ctx;
  // The model layer (AI SDK, zod schemas) loads only when a model is configured.
  const wantsLlm = options.llm && loadConfig(store.paths.config).llm !== undefined;
  const { observer, warning, complete } = wantsLlm ? await (await import('../learn/llm-observer.js')).observerFromConfig(store) : {};
  if (warning) ctx.warn?.(warning);
  // A session whose stop hook found the database locked has its tool calls, not its summary.
  summariseLeftOpen(store);
  const report = await runLearn(store, {
    observer,
    render: renderAfterLearn,
    onSessionLearned: (sessionId) => queueGraphSession(store, sessionId),
  });
  if (report.status === 'done') await buildGraph(store, complete);
  return report;
}

export const learn = defineOperation({
  name: 'learning.learn',
  summary: 'Process pending observations: mine patterns, create or reinforce instincts, record episodes, decay, write the logs',
  input: z.object({ llm: z.boolean().default(true) }),
  run: (ctx, input) => {
    ctx.store.assertIntact();
    return learnPending(ctx, input);
  },
});

export const episodes = defineOperation({
  name: 'learning.episodes',
  summary: 'Notable one-off events below the 3-session instinct threshold, newest first',
  input: z.object({ limit: wholeNumber(1, 100_000).default(50) }),
  run({ store }, input) {
    const list = store.episodes
      .list()
      .reverse()
      .slice(0, input.limit)
      .map((e) => ({
        pattern: e.pattern,
        title: e.title,
        date: e.date,
        occurrences: e.occurrences,
        tags: parseStringArray(e.tags),
        file: e.file_name,
      }));
    return { episodes: list, count: list.length };
  },
});

export const chains = defineOperation({
  name: 'learning.chains',
  summary: 'Mine the observation log for instincts observed one after the other (creates seq:A->B patterns)',
  input: z.object({ windowMinutes: wholeNumber(1, 10_080).default(5), minOccurrences: wholeNumber(1, 1_000_000).default(3) }),
  run({ store }, input) {
    const result = detectChains(store, input);
    renderAll(store);
    return { chains_created: result.chains_created, chains_reinforced: result.chains_reinforced, candidates_seen: result.candidates_seen };
  },
});

export const duplicates = defineOperation({
  name: 'learning.duplicates',
  summary: 'Near-identical pattern keys that should probably be merged',
  input: z.object({ threshold: unitInterval().default(DUPLICATE_THRESHOLD) }),
  run: ({ store }, input) => findDuplicates(store, input.threshold),
});

/** Merging is for near-duplicates: below this, rules that only share words merge ("don't run tests unasked" into "don't commit unasked"). */
const MIN_MERGE_THRESHOLD = 0.5;
const mergeThreshold = () => {
  const message = `must be a number from ${MIN_MERGE_THRESHOLD} to 1: lower merges rules that only share words (see what a lower one would find with \`homunculus duplicates --threshold X\`)`;
  return z.number({ error: message }).min(MIN_MERGE_THRESHOLD, { error: message }).max(1, { error: message });
};

export const gc = defineOperation({
  name: 'learning.gc',
  summary: 'Decay, merge near-duplicates, drop orphan aliases, rebuild search, archive old observations and session files',
  input: z.object({ threshold: mergeThreshold().default(DUPLICATE_THRESHOLD), archiveAfterDays: wholeNumber(1, 36_500).default(30) }),
  run({ store }, input) {
    const result = {
      ...housekeep(store, { dedupThreshold: input.threshold }),
      observations: maintainObservations(store, { archiveAfterDays: input.archiveAfterDays }),
      sessions_archived: archiveSessions(store),
      // The agent's conversations nobody went on with in as long (a restart resumes the rest).
      conversations_forgotten: store.conversations.prune(
        new Date(store.clock.now().getTime() - input.archiveAfterDays * DAY_MS).toISOString(),
      ),
    };
    renderAll(store);
    renderEpisodes(store);
    return result;
  },
});

export const trending = defineOperation({
  name: 'learning.trending',
  summary: 'Instincts ranked by how often they were observed in the last days',
  input: z.object({ days: days().default(7), limit: wholeNumber(1, 10_000).default(10) }),
  run: ({ store }, input) => trendingOf(store, input),
});

export const history = defineOperation({
  name: 'learning.history',
  summary: "One pattern's observations over the last days, with its score changes",
  input: z.object({ pattern: patternKey(), days: days().default(30) }),
  run: ({ store }, input) => ({ ...historyOf(store, input.pattern, input), timeline: timeline(store, input.pattern, input) }),
});

export const effectiveness = defineOperation({
  name: 'learning.effectiveness',
  summary: 'How often suggested patterns were confirmed by a later observation',
  input: z.object({ days: days().default(30) }),
  run: ({ store }, input) => effectivenessOf(store, input),
});

export const toolUsage = defineOperation({
  name: 'learning.tool-usage',
  summary: 'Tool calls per month (archived aggregates plus live observations)',
  input: z.object({ project: text(200).min(1, { error: 'must not be empty (leave the option out for every project)' }).optional() }),
  run: ({ store }, input) => ({ months: toolUsageMonthly(store, input) }),
});
