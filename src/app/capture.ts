/** Capture operations: bring what agents already did into the store, and the main job that learns from it. */
import { homedir } from 'node:os';
import { z } from 'zod';
import { capturingAgents } from '../capture/install/plugin-state.js';
import type { Agent } from '../capture/agents.js';
import { archiveSessions } from '../capture/sessions/files.js';
import { defaultTranscriptFiles, transcriptFiles } from '../capture/transcript/files.js';
import { importTranscripts as importFiles } from '../capture/transcript/import.js';
import { UsageError, errorMessage } from '../core/errors.js';
import { consolidate } from '../learn/maintenance.js';
import { TAKEN_BACK } from '../learn/apply.js';
import { type MeaningResult, groupRequestsByMeaning } from '../learn/meaning-apply.js';
import { instinctStatus } from '../learn/stats.js';
import { renderAll, renderIdentity } from '../view/render.js';
import { learnPending } from './learning.js';
import { readStrayFiles, restoreStrayFiles } from './restore.js';
import { embedNew } from './memory.js';
import { embedderFor } from '../search/open.js';
import { type AppContext, defineOperation } from './operation.js';
import { text } from './schemas.js';

const paths = () => z.array(text(4096)).default([]);

/** The transcripts named, or every one under ~/.claude/projects; a path that does not exist is a usage error. */
function transcriptsToImport(ctx: AppContext, given: readonly string[]): string[] {
  if (given.length === 0) return defaultTranscriptFiles(ctx.env.HOME ?? homedir());
  const found = transcriptFiles(given);
  if (found.missing.length) {
    throw new UsageError(
      `No such file or directory: ${found.missing.join(', ')}`,
      'Give transcript files (*.jsonl) or directories that hold them.',
    );
  }
  return found.files;
}

async function importWithProgress(ctx: AppContext, files: readonly string[], force: boolean) {
  const bar = ctx.progress?.('importing transcripts');
  const result = await importFiles(ctx.store, files, { force, onProgress: (p) => bar?.update(p.filesDone, p.filesTotal) });
  bar?.finish();
  return result;
}

export const importTranscripts = defineOperation({
  name: 'capture.import-transcripts',
  summary: 'Replay Claude Code transcripts into observations, prompts and session summaries (idempotent, resumable)',
  input: z.object({ paths: paths(), force: z.boolean().default(false) }),
  async run(ctx, input) {
    const result = await importWithProgress(ctx, transcriptsToImport(ctx, input.paths), input.force);
    renderIdentity(ctx.store);
    return result;
  },
});

/** Requests counted by meaning as well as by words, when an encoder is at hand; without one, by words only. */
async function requestsByMeaning(ctx: AppContext): Promise<MeaningResult | undefined> {
  try {
    const embedder = await embedderFor(ctx.store, ctx.env);
    return embedder ? await groupRequestsByMeaning(ctx.store, (texts) => embedder.provider.embed(texts)) : undefined;
  } catch (err) {
    ctx.warn?.(`Requests were counted by their words only: ${errorMessage(err)}`);
    return undefined;
  }
}

/** The agents that capture here, and (kept for scripts) whether Claude Code is one. */
const capturing = (agents: Agent[]) => ({ capturing: agents, claude_code_hooks: agents.includes('claude-code') });

export const sync = defineOperation({
  name: 'capture.sync',
  summary:
    'The main job: import transcripts, learn from every pending observation, consolidate, render the readable view, embed what is new',
  input: z.object({ paths: paths(), import: z.boolean().default(true), llm: z.boolean().default(true), embed: z.boolean().default(true) }),
  async run(ctx, input) {
    const { store } = ctx;
    // A damaged file is said before the long job writes anything to it.
    store.assertIntact();
    // A deleted database's files, read before learning renders and brought back after it.
    const strays = readStrayFiles(store);
    const files = input.import ? transcriptsToImport(ctx, input.paths) : [];
    const imported = await importWithProgress(ctx, files, false);
    const learned = await learnPending(ctx, { llm: input.llm });
    const meaning = input.embed ? await requestsByMeaning(ctx) : undefined;
    const restored = strays ? restoreStrayFiles(store, strays, ctx.warn) : undefined;
    const consolidation = consolidate(store);
    renderAll(store);
    const sessionsArchived = archiveSessions(store);
    // Search is hybrid from the first query: what was learned gets its vectors now.
    const embedding = input.embed ? await embedNew(ctx) : { embedded: 0 };
    if (embedding.warning) ctx.warn?.(embedding.warning);
    const status = instinctStatus(store);
    return {
      restored: restored
        ? { files: restored.files, instincts: restored.restored, reworded: restored.reworded, marked_wrong: restored.marked_wrong }
        : null,
      imported: {
        files: imported.files,
        imported_files: imported.imported_files,
        unchanged_files: imported.unchanged_files,
        empty_files: imported.empty_files,
        malformed_lines: imported.malformed_lines,
        malformed_at: imported.malformed_at,
        unreadable_files: imported.unreadable_files,
        sessions: imported.new_sessions,
        observations: imported.observations_new,
      },
      learned: {
        status: learned.status,
        sessions: learned.sessions,
        observations: learned.observations,
        created: [...learned.created.map((c) => c.pattern), ...(meaning?.created ?? [])],
        // What was learned in the words the agent will read, for instincts still standing at the end.
        new_rules: [...learned.created.map((c) => c.pattern), ...(meaning?.created ?? [])].flatMap((pattern) => {
          const row = store.instincts.get(pattern);
          return row ? [{ key: row.key, rule: `${row.trigger} → ${row.action}` }] : [];
        }),
        reinforced: learned.reinforced.length,
        // Requests in other words counted as one (sentences compared, keys merged into another).
        by_meaning: meaning ? { compared: meaning.compared, merged: meaning.merged.reduce((n, m) => n + m.keys.length, 0) } : null,
        episodes: learned.episodes.length,
        demoted: learned.held
          .filter((h) => h.reason.startsWith(TAKEN_BACK))
          .map((h) => ({ key: h.pattern, rule: h.trigger ?? h.pattern, reason: h.reason.slice(TAKEN_BACK.length) })),
        faded: { decayed: learned.decay.decayed, deleted: learned.decay.deleted },
      },
      consolidation,
      sessions_archived: sessionsArchived,
      embedded: embedding.embedded,
      instincts: status.total,
      convictions: status.convictions.length,
      pending_observations: status.pending_observations,
      home: store.paths.home,
      // Which agents' sessions from now on arrive by themselves; none: `init` is the next step.
      ...capturing(capturingAgents(ctx.env.HOME ?? homedir(), process.cwd())),
    };
  },
});
