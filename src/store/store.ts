/**
 * The store: every record Homunculus keeps, behind one repository per aggregate. This
 * folder is the only code that speaks SQL. Repository interfaces use plain records, ISO
 * instants and JSON strings, never SQLite types, so another backend (PostgreSQL for teams)
 * can implement them. Calls are synchronous: SQLite answers in microseconds, and the hooks
 * cannot afford a promise per query.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { HomunculusError } from '../core/errors.js';
import { type Clock, systemClock } from '../core/clock.js';
import { type HomePaths, homeNotDirectory, homePaths, resolveHome } from '../core/paths.js';
import { type Db, type OpenOptions, canWrite, damagedError, openDatabase, writeTx } from './db.js';

export { explainDatabaseError, fts5Problem, integrityProblem, isBusyError, recoverHint } from './db.js';
import { schemaVersion } from './migrations.js';
import { MIGRATIONS } from './schema.js';
import { type ActivityRepository, createActivityRepository } from './activity.js';
import { type AgentCallRepository, createAgentCallRepository } from './agent-calls.js';
import { type AuditRepository, createAuditRepository } from './audit.js';
import { type DocumentRepository, createDocumentRepository } from './documents/index.js';
import { type EpisodeRepository, createEpisodeRepository } from './episodes.js';
import { type GraphRepository, createGraphRepository } from './graph/index.js';
import { type IdentityRepository, createIdentityRepository } from './identity.js';
import { type InstinctRepository, createInstinctRepository } from './instincts.js';
import { type LearningRepository, createLearningRepository } from './learning.js';
import { type MetaRepository, createMetaRepository } from './meta.js';
import { type ObservationRepository, createObservationRepository } from './observations.js';
import { type SessionRepository, createSessionRepository } from './sessions.js';
import { type UsageRepository, createUsageRepository } from './usage.js';
import { type ScheduleRepository, createScheduleRepository } from './schedule.js';
import { type ConversationRepository, createConversationRepository } from './agent-conversations.js';
import { ensureDir, ownerOnly } from '../core/fs.js';

interface Repositories {
  readonly instincts: InstinctRepository;
  readonly observations: ObservationRepository;
  readonly sessions: SessionRepository;
  readonly episodes: EpisodeRepository;
  readonly learning: LearningRepository;
  readonly identity: IdentityRepository;
  readonly meta: MetaRepository;
  readonly usage: UsageRepository;
  readonly documents: DocumentRepository;
  readonly graph: GraphRepository;
  readonly activity: ActivityRepository;
  readonly audit: AuditRepository;
  readonly agentCalls: AgentCallRepository;
  readonly schedule: ScheduleRepository;
  readonly conversations: ConversationRepository;
}

export interface Store extends Repositories {
  readonly paths: HomePaths;
  readonly clock: Clock;
  /**
   * Runs `fn` in one write transaction, taking the write lock up front so concurrent
   * writers queue instead of failing; a nested call joins the outer one.
   */
  transaction<T>(fn: () => T): T;
  /** How long a write waits for another process's transaction (hooks wait less than commands). */
  setBusyTimeout(ms: number): void;
  /** Whether a write could begin now, within the busy timeout: false while another process keeps the database locked. */
  canWrite(): boolean;
  /** What `doctor` reports: the integrity check, the schema version against this build's, the journal mode. */
  health(): StoreHealth;
  /** Throws when the integrity check finds the file damaged: a long write job checks before it writes anything. */
  assertIntact(): void;
  close(): void;
}

interface StoreHealth {
  /** 'ok', or what SQLite's quick check found. */
  integrity: string;
  schemaVersion: number;
  latestSchema: number;
  journalMode: string;
}

interface StoreOptions extends OpenOptions {
  home?: string;
  clock?: Clock;
}

function repositories(db: Db): Repositories {
  return {
    instincts: createInstinctRepository(db),
    observations: createObservationRepository(db),
    sessions: createSessionRepository(db),
    episodes: createEpisodeRepository(db),
    learning: createLearningRepository(db),
    identity: createIdentityRepository(db),
    meta: createMetaRepository(db),
    usage: createUsageRepository(db),
    documents: createDocumentRepository(db),
    graph: createGraphRepository(db),
    activity: createActivityRepository(db),
    audit: createAuditRepository(db),
    agentCalls: createAgentCallRepository(db),
    schedule: createScheduleRepository(db),
    conversations: createConversationRepository(db),
  };
}

/**
 * An empty database file beside learned instincts was truncated (a new store is never empty: it is
 * made whole and linked in): opened, it would pass for a fresh store and the history would look lost.
 */
function refuseTruncated(paths: HomePaths): void {
  if (statSync(paths.db, { throwIfNoEntry: false })?.size !== 0 || !existsSync(paths.instincts)) return;
  const learned = readdirSync(paths.instincts).filter((f) => f.endsWith('.md')).length;
  if (!learned) return;
  throw new HomunculusError(
    'corrupt_db',
    `The database file ${paths.db} is empty, while the home holds ${learned} learned instincts: it was truncated.`,
    {
      hint: `Nothing was changed. Restore a backup of it, or move it aside (mv "${paths.db}" "${paths.db}.empty") and run \`homunculus sync\` to learn again from the transcripts.`,
    },
  );
}

export function openStore(options: StoreOptions = {}): Store {
  const paths = homePaths(resolveHome(options.home));
  const notDirectory = homeNotDirectory(paths.home);
  if (notDirectory) throw notDirectory;
  refuseTruncated(paths);
  if (!options.readonly) ensureDir(paths.home);
  const db = openDatabase(paths.db, options);
  // Every prompt and turn is in here: readable by its owner alone, whatever the umask.
  if (!options.readonly) for (const path of [paths.home, paths.db]) ownerOnly(path, path === paths.home ? 0o700 : 0o600);
  const store: Store = {
    ...repositories(db),
    paths,
    clock: options.clock ?? systemClock(),
    transaction: (fn) => writeTx(db, fn),
    setBusyTimeout: (ms) => void db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`),
    canWrite: () => canWrite(db),
    health: () => ({
      integrity: String(db.pragma('quick_check', { simple: true })),
      schemaVersion: schemaVersion(db),
      latestSchema: MIGRATIONS.length,
      journalMode: String(db.pragma('journal_mode', { simple: true })),
    }),
    assertIntact: () => {
      const integrity = String(db.pragma('quick_check', { simple: true }));
      if (integrity !== 'ok') throw damagedError(paths.db, integrity);
    },
    close: () => {
      if (db.open) db.close();
    },
  };
  handles.set(store.instincts, db);
  return store;
}

/**
 * Each open store's SQLite handle, for store/testing.ts only: nothing else outside the
 * repositories touches it. Keyed by a repository, which copies of the store (withClock) share.
 */
const handles = new WeakMap<object, Db>();

export function databaseOf(store: Store): Db {
  const db = handles.get(store.instincts);
  if (!db) throw new Error('This store was not opened by openStore().');
  return db;
}

/** The same store seen from another clock (replaying history at the time it happened). */
export function withClock(store: Store, clock: Clock): Store {
  return { ...store, clock };
}
