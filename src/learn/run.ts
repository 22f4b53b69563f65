/**
 * `homunculus learn`: the observer. Takes the lock, processes pending
 * observations session by session (one transaction each, so a crash leaves nothing half
 * applied and the next run resumes), mines candidates (deterministic miners, plus the LLM
 * observer when configured, which falls back on any failure), applies them, decays stale
 * instincts, flags domain clusters, renders the changed files and writes the logs.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic, ensureDir } from '../core/fs.js';
import { acquireLock, processAlive } from '../core/lock.js';
import { detectProject } from '../core/project.js';
import { outsideLearnedBlock } from '../core/rule-markers.js';
import { drainSpool } from '../capture/spool/drain.js';
import { errorMessage } from '../core/errors.js';
import type { Store } from '../store/store.js';
import { applySession } from './apply.js';
import { domainClusters, promotionCandidates } from './clusters.js';
import { applyDecay } from './instincts.js';
import type { SessionObserver } from './llm-observer.js';
import { type Candidate, uniqueByKey } from './mine/candidate.js';
import { mineSession } from './mine/index.js';
import { type Obs, checkObservation } from './observation.js';
import { type LearnReport, addSkipped, emptyReport, mergeChanges, observerLogLine, processingLog } from './report.js';

export const LOCK_STALE_MS = 10 * 60_000;
/** A session with no activity for this long is over, even without a session_end event. */
const SESSION_IDLE_MS = 60 * 60_000;
const MAX_ROUNDS = 5;
/** Instructions files are read this far: a rule buried further is not one the agent keeps in mind. */
const MAX_INSTRUCTIONS_CHARS = 200_000;

export interface LearnOptions {
  observer?: SessionObserver;
  lockStaleMs?: number;
  /** Skip writing markdown files and logs (bench replays render once at the end). */
  quiet?: boolean;
  /**
   * Regenerates the readable view after the run. The surface supplies it, since rendering
   * sits above learning: `all` when every instinct may have changed (decay, a crashed run).
   */
  render?: (store: Store, changes: { all: boolean; keys: string[] }) => void;
  /**
   * Runs in the transaction that marks a session's observations processed, for work that
   * must follow from it (the graph): recorded with the learning, it survives a crash.
   */
  onSessionLearned?: (sessionId: string) => void;
}

export const lockPath = (store: Store): string => join(store.paths.locks, 'observer.lock');

interface PreparedSession {
  sessionId: string;
  source: string;
  project: string;
  valid: Obs[];
  pendingIds: number[];
  ended: boolean;
}

function prepare(store: Store, sessionId: string, report: LearnReport): PreparedSession {
  const now = store.clock.now();
  const rows = store.observations.forSession(sessionId);
  const valid: Obs[] = [];
  const pendingIds: number[] = [];
  for (const row of rows) {
    const checked = checkObservation(row, now);
    if (row.processed_at === null) {
      pendingIds.push(row.id);
      if (!checked.ok) addSkipped(report, checked.reason);
    }
    if (checked.ok) valid.push(checked.obs);
  }
  const pendingValid = valid.filter((o) => !o.processed).length;
  report.observations += pendingValid;
  const last = valid.reduce((m, o) => Math.max(m, o.at), 0);
  const projects = new Map<string, number>();
  for (const o of valid) if (o.project) projects.set(o.project, (projects.get(o.project) ?? 0) + 1);
  const project = [...projects.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  return {
    sessionId,
    source: rows[0]?.source ?? '',
    project,
    valid,
    pendingIds,
    ended: valid.some((o) => o.event === 'session_end') || (last > 0 && now.getTime() - last > SESSION_IDLE_MS),
  };
}

async function llmCandidates(store: Store, observer: SessionObserver, session: PreparedSession, report: LearnReport): Promise<Candidate[]> {
  try {
    const result = await observer.extract({
      sessionId: session.sessionId,
      observations: session.valid,
      instincts: store.instincts.list(),
    });
    report.llm.calls += result.calls;
    report.llm.tokens += result.tokens;
    return result.candidates;
  } catch (err) {
    report.llm.fallbacks.push({ session: session.sessionId, reason: errorMessage(err).slice(0, 300) });
    return [];
  }
}

/** The project's own agent instructions, when its folder is on this machine ('' when it has none). */
function projectInstructions(valid: readonly Obs[]): string | undefined {
  const cwd = valid.find((o) => o.cwd)?.cwd;
  const root = cwd ? detectProject(cwd).root : '';
  if (!root || !existsSync(root)) return undefined;
  return (
    ['CLAUDE.md', 'AGENTS.md']
      .map((name) => join(root, name))
      .filter((path) => existsSync(path))
      // What Homunculus wrote there itself is no instruction of the project's: a rule it exported must not mark itself documented.
      .map((path) => outsideLearnedBlock(readFileSync(path, 'utf8')).slice(0, MAX_INSTRUCTIONS_CHARS))
      .join('\n')
  );
}

function processSession(
  store: Store,
  session: PreparedSession,
  extra: readonly Candidate[],
  report: LearnReport,
  changedKeys: Set<string>,
  onLearned?: (sessionId: string) => void,
): void {
  const mined = mineSession(session.valid);
  const candidates = uniqueByKey([...mined.candidates, ...extra]);
  store.transaction(() => {
    const changes = applySession(store, {
      sessionId: session.sessionId,
      source: session.source,
      project: session.project,
      candidates,
      signals: mined.signals,
      editedFiles: mined.editedFiles,
      ...(mined.commitStyle ? { commitStyle: mined.commitStyle } : {}),
      ended: session.ended,
      instructions: projectInstructions(session.valid),
    });
    store.observations.markProcessed(session.pendingIds, store.clock.now().toISOString());
    onLearned?.(session.sessionId);
    mergeChanges(report, changes);
    for (const c of [...changes.created, ...changes.reinforced, ...changes.contradictions]) changedKeys.add(c.pattern);
  });
}

function writeLogs(store: Store, report: LearnReport): void {
  ensureDir(dirname(store.paths.observerLog));
  appendFileSync(store.paths.observerLog, `${observerLogLine(report)}\n`);
  for (const f of report.llm.fallbacks)
    appendFileSync(store.paths.observerLog, `${report.finished_at}   llm fallback for ${f.session}: ${f.reason}\n`);
  for (const e of report.errors) appendFileSync(store.paths.observerLog, `${report.finished_at}   error in ${e.session}: ${e.message}\n`);
  // A run that found nothing to learn from keeps the account of the last one that did (and why it rejected what it did).
  if (report.status === 'done' && report.sessions > 0) writeFileAtomic(store.paths.lastProcessingLog, processingLog(report));
}

export async function runLearn(store: Store, options: LearnOptions = {}): Promise<LearnReport> {
  const report = emptyReport(store.clock.now().toISOString());
  const release = acquireLock(lockPath(store), { staleMs: options.lockStaleMs ?? LOCK_STALE_MS });
  if (!release) {
    report.status = 'locked';
    if (!options.quiet) writeLogs(store, report);
    return report;
  }
  try {
    if (options.observer) {
      report.llm.mode = 'on';
      report.llm.provider = options.observer.name;
    }
    const runId = store.learning.startRun(report.started_at, process.pid);
    report.run_id = runId;
    const crashed = store.learning.unfinishedRuns(runId).filter((r) => r.pid === null || r.pid === process.pid || !processAlive(r.pid));
    store.learning.markRunsFailed(
      crashed.map((r) => r.id),
      report.started_at,
    );
    const changedKeys = new Set<string>();
    const done = new Set<string>();
    const failed = new Set<string>();
    // New observations can arrive while we work (another stop hook found the lock taken): loop until none are left.
    for (let round = 0; round < MAX_ROUNDS; round++) {
      // Observations the observe hook spooled since the last drain join this round.
      drainSpool(store, store.paths.home);
      const pending = store.observations.pendingSessions().filter((id) => !failed.has(id));
      if (pending.length === 0) break;
      for (const sessionId of pending) {
        const session = prepare(store, sessionId, report);
        try {
          const extra =
            options.observer && session.valid.some((o) => !o.processed)
              ? await llmCandidates(store, options.observer, session, report)
              : [];
          processSession(store, session, extra, report, changedKeys, options.onSessionLearned);
        } catch (err) {
          // The transaction rolled back: the session stays pending for the next run.
          report.errors.push({ session: sessionId, message: errorMessage(err) });
          failed.add(sessionId);
        }
        if (!done.has(sessionId)) {
          report.sessions++;
          report.session_ids.push(sessionId);
        }
        done.add(sessionId);
        release.refresh();
      }
    }
    report.decay = applyDecay(store);
    const now = store.clock.now();
    const rows = store.instincts.list();
    report.clusters = domainClusters(rows, now);
    const unpromoted = rows.filter((r) => r.promoted_at === null).map((r) => r.id);
    report.promotion_candidates = promotionCandidates(rows, store.instincts.provenance(unpromoted), now);
    store.transaction(() => {
      store.identity.set('domain_clusters', JSON.stringify(report.clusters));
      store.identity.set('promotion_candidates', JSON.stringify(report.promotion_candidates));
      store.identity.set('last_learn', now.toISOString());
    });
    report.finished_at = store.clock.now().toISOString();
    store.learning.finishRun(runId, report.finished_at, 'done', {
      ...report,
      rejected: { count: report.rejected.count, by_reason: report.rejected.by_reason },
    });
    if (!options.quiet) {
      options.render?.(store, { all: crashed.length > 0 || report.decay.decayed > 0, keys: [...changedKeys] });
      writeLogs(store, report);
    }
    return report;
  } finally {
    release();
  }
}
