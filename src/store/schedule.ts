/** The agent scheduler's jobs and notifications (migration 13). */
import { type Db, cachedStatement } from './db.js';

export type JobAction = 'message' | 'heartbeat';
export type MissedPolicy = 'run-once' | 'skip';

export interface AgentJob {
  id: number;
  name: string;
  cron: string;
  time_zone: string;
  action: JobAction;
  /** The message sent to the agent (empty for the heartbeat). */
  message: string;
  missed: MissedPolicy;
  enabled: boolean;
  created_at: string;
  last_run: string | null;
  next_run: string | null;
}

export type NewJob = Omit<AgentJob, 'id' | 'last_run'>;

export interface HeldNotification {
  id: number;
  source: string;
  text: string;
  created_at: string;
}

export interface ScheduleRepository {
  /** Inserts a job; throws on a name that exists (UNIQUE). */
  addJob(job: NewJob): AgentJob;
  jobs(): AgentJob[];
  job(name: string): AgentJob | undefined;
  removeJob(name: string): boolean;
  /** Turns a job on or off; false when no job has this name. */
  setEnabled(name: string, enabled: boolean): boolean;
  /** Records a run (or a skipped one: lastRun unchanged) and the next time it is due. */
  setRun(id: number, lastRun: string | null, nextRun: string | null): void;
  hold(n: { source: string; text: string; created_at: string }): number;
  held(): HeldNotification[];
  /** Marks a notification delivered (inserting it when it was never held). */
  markSent(n: { id?: number; source: string; text: string; created_at: string }, sentAt: string): void;
  sentSince(since: string): number;
  /** Forgets delivered notifications sent before `before` (only the last hour's count matters). */
  pruneSent(before: string): void;
}

type JobRow = Omit<AgentJob, 'enabled'> & { enabled: number };
const toJob = (r: JobRow): AgentJob => ({ ...r, enabled: r.enabled === 1 });

export function createScheduleRepository(db: Db): ScheduleRepository {
  const repo: ScheduleRepository = {
    addJob(j) {
      const info = cachedStatement(
        db,
        `INSERT INTO agent_jobs (name, cron, time_zone, action, message, missed, enabled, created_at, next_run)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(j.name, j.cron, j.time_zone, j.action, j.message, j.missed, j.enabled ? 1 : 0, j.created_at, j.next_run);
      return { ...j, id: Number(info.lastInsertRowid), last_run: null };
    },
    jobs: () => (cachedStatement(db, 'SELECT * FROM agent_jobs ORDER BY name').all() as JobRow[]).map(toJob),
    job(name) {
      const row = cachedStatement(db, 'SELECT * FROM agent_jobs WHERE name = ?').get(name) as JobRow | undefined;
      return row ? toJob(row) : undefined;
    },
    removeJob: (name) => cachedStatement(db, 'DELETE FROM agent_jobs WHERE name = ?').run(name).changes > 0,
    setEnabled: (name, enabled) =>
      cachedStatement(db, 'UPDATE agent_jobs SET enabled = ? WHERE name = ?').run(enabled ? 1 : 0, name).changes > 0,
    setRun(id, lastRun, nextRun) {
      cachedStatement(db, 'UPDATE agent_jobs SET last_run = COALESCE(?, last_run), next_run = ? WHERE id = ?').run(lastRun, nextRun, id);
    },
    hold: (n) =>
      Number(
        cachedStatement(db, "INSERT INTO agent_notifications (source, text, created_at, status) VALUES (?, ?, ?, 'held')").run(
          n.source,
          n.text,
          n.created_at,
        ).lastInsertRowid,
      ),
    held: () =>
      cachedStatement(
        db,
        "SELECT id, source, text, created_at FROM agent_notifications WHERE status = 'held' ORDER BY id",
      ).all() as HeldNotification[],
    markSent(n, sentAt) {
      if (n.id !== undefined)
        cachedStatement(db, "UPDATE agent_notifications SET status = 'sent', sent_at = ? WHERE id = ?").run(sentAt, n.id);
      else
        cachedStatement(db, "INSERT INTO agent_notifications (source, text, created_at, status, sent_at) VALUES (?, ?, ?, 'sent', ?)").run(
          n.source,
          n.text,
          n.created_at,
          sentAt,
        );
    },
    sentSince: (since) =>
      (
        cachedStatement(db, "SELECT COUNT(*) AS c FROM agent_notifications WHERE status = 'sent' AND sent_at >= ?").get(since) as {
          c: number;
        }
      ).c,
    pruneSent(before) {
      cachedStatement(db, "DELETE FROM agent_notifications WHERE status = 'sent' AND sent_at < ?").run(before);
    },
  };
  return repo;
}
