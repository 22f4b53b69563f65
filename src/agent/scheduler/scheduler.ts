/**
 * The scheduler `agent serve` runs beside the gateway: on start it settles the runs missed
 * while the process was down (each job's policy: run once now, or skip; both logged in the
 * audit log), then one timer ticks: due jobs run, the heartbeat runs on its interval, and
 * held notifications are flushed once the quiet hours and the rate limit allow. stop()
 * clears the timer, cancels the run in progress and waits for it: nothing is left running.
 */
import type { Clock } from '../../core/clock.js';
import type { AgentJob, ScheduleRepository } from '../../store/schedule.js';
import { appendAudit } from '../audit.js';
import type { Notification } from '../notifier.js';
import type { AgentRunner } from '../runner.js';
import { type HeartbeatConfig, durationMs } from './config.js';
import { nextRunAfter } from './cron.js';
import { executeJob, readHeartbeat, runHeartbeat } from './jobs.js';
import type { NotificationQueue } from './notifications.js';

export interface SchedulerOptions {
  repo: ScheduleRepository;
  runner: AgentRunner;
  queue: NotificationQueue;
  clock: Clock;
  heartbeat: HeartbeatConfig;
  workspace: string;
  auditLog: string;
  /** How often due work is looked for (default 15 s). */
  tickMs?: number;
  /** Told of each failed job or task as it fails (serve prints them; a notification may be held). */
  onFailure?: (failure: Notification) => void;
}

const anyFailed = (results: readonly Notification[]): boolean => results.some((r) => r.failed);

const nextOf = (job: Pick<AgentJob, 'cron' | 'time_zone'>, after: Date): string | null =>
  nextRunAfter(job.cron, job.time_zone, after)?.toISOString() ?? null;

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private nextHeartbeat: number | undefined;

  constructor(private readonly o: SchedulerOptions) {}

  /**
   * Arms the timer and settles the missed runs; resolves once they are settled. Callers
   * need not wait: a stop() meanwhile cancels them (ticks wait while they run).
   */
  start(): Promise<void> {
    if (this.timer || this.abort.signal.aborted) return Promise.resolve();
    const every = this.o.heartbeat.enabled ? durationMs(this.o.heartbeat.every) : undefined;
    if (every) this.nextHeartbeat = this.o.clock.now().getTime() + every;
    this.timer = setInterval(() => void this.tick(), this.o.tickMs ?? 15_000);
    return this.guard(() => this.settleMissed());
  }

  /** Clears the timer, cancels the model call in progress and waits until it has returned. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.abort.abort();
    await this.busy;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** One pass: due jobs, the heartbeat when due, then held notifications. Skipped while the last pass runs. */
  async tick(): Promise<void> {
    if (this.busy || this.abort.signal.aborted) return;
    await this.guard(async () => {
      const now = this.o.clock.now();
      for (const job of this.o.repo.jobs()) {
        if (this.abort.signal.aborted) return;
        if (job.enabled && job.next_run !== null && job.next_run <= now.toISOString()) await this.run(job, 'due');
      }
      if (this.nextHeartbeat !== undefined && now.getTime() >= this.nextHeartbeat) await this.heartbeat(now);
      await this.o.queue.flush();
    });
  }

  /** Runs a job now (due, missed, or asked for) and records its last and next run; its results are notified unless `notify` is false. */
  async run(job: AgentJob, why: 'due' | 'missed' | 'manual', notify = true): Promise<Notification[]> {
    const started = performance.now();
    let results: Notification[];
    try {
      results = await executeJob(job, { runner: this.o.runner, workspace: this.o.workspace, signal: this.abort.signal });
    } catch (err) {
      results = [{ source: job.name, text: `The job failed: ${(err as Error).message}`, failed: true }];
    }
    // Cut short by stop(): not recorded, so the next start finds it missed and applies its policy.
    if (this.abort.signal.aborted) return [];
    const now = this.o.clock.now();
    this.o.repo.setRun(job.id, now.toISOString(), nextOf(job, now));
    this.audit('schedule_run', job.name, !anyFailed(results), { why, action: job.action }, results, performance.now() - started);
    await this.deliver(results, notify);
    return results;
  }

  private async heartbeat(now: Date): Promise<void> {
    const every = durationMs(this.o.heartbeat.every) ?? 0;
    this.nextHeartbeat = now.getTime() + every;
    const started = performance.now();
    const results = await runHeartbeat(readHeartbeat(this.o.workspace), this.o.runner, this.abort.signal);
    this.audit('heartbeat', 'heartbeat', !anyFailed(results), { tasks: results.length }, results, performance.now() - started);
    await this.deliver(results, true);
  }

  private async deliver(results: readonly Notification[], notify: boolean): Promise<void> {
    for (const r of results) if (r.failed) this.o.onFailure?.(r);
    if (notify) for (const r of results) await this.o.queue.send(r);
  }

  /** Each enabled job whose next run passed while the process was down: run once now, or skip to the next. */
  private async settleMissed(): Promise<void> {
    const now = this.o.clock.now();
    for (const job of this.o.repo.jobs()) {
      if (!job.enabled) continue;
      if (job.next_run === null || job.next_run > now.toISOString()) {
        if (job.next_run === null) this.o.repo.setRun(job.id, null, nextOf(job, now));
        continue;
      }
      this.audit('schedule_missed', `${job.name}: ${job.missed}`, true, { missed: job.next_run, policy: job.missed }, job.missed, 0);
      if (job.missed === 'run-once') await this.run(job, 'missed');
      else this.o.repo.setRun(job.id, null, nextOf(job, now));
    }
  }

  private async guard(work: () => Promise<void>): Promise<void> {
    this.busy = work().catch((err: unknown) => {
      this.audit('scheduler_error', 'scheduler', false, null, String((err as Error)?.message ?? err), 0);
    });
    try {
      await this.busy;
    } finally {
      this.busy = undefined;
    }
  }

  private audit(action: string, subject: string, ok: boolean, input: unknown, output: unknown, durationMs: number): void {
    appendAudit(this.o.auditLog, { action, session: 'scheduler', subject, ok, input, output, durationMs });
  }
}
