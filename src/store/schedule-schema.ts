/**
 * The agent's scheduler (migration 13): its jobs (cron expression, time zone, what each
 * does, its missed-run policy, last and next run) and its notifications, kept so that one
 * held during quiet hours survives a restart and the hourly rate limit counts across one.
 */
import type { Migration } from './migrations.js';

export const scheduleMigration: Migration = {
  version: 13,
  name: 'agent scheduler: jobs and held or delivered notifications',
  up(db) {
    db.exec(`
      CREATE TABLE agent_jobs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        cron TEXT NOT NULL,
        time_zone TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('message', 'heartbeat')),
        message TEXT NOT NULL DEFAULT '',
        missed TEXT NOT NULL CHECK (missed IN ('run-once', 'skip')),
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        created_at TEXT NOT NULL,
        last_run TEXT,
        next_run TEXT
      );

      CREATE TABLE agent_notifications (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('held', 'sent')),
        sent_at TEXT
      );
      CREATE INDEX agent_notifications_status ON agent_notifications(status, sent_at);
    `);
  },
};
