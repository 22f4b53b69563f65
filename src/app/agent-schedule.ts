/**
 * The scheduler's operations: adding, listing, removing and running the agent's scheduled
 * jobs, and opening the scheduler `agent serve` runs (its notifications through the notifier
 * given, or the audit log and stdout).
 */
import { z } from 'zod';
import { type AgentConfig, loadAgentConfig } from '../agent/config.js';
import type { Notification, Notifier } from '../agent/notifier.js';
import type { AgentRunner } from '../agent/runner.js';
import { CRON_EXAMPLE, nextRunAfter, scheduleProblem } from '../agent/scheduler/cron.js';
import { LogNotifier, NotificationQueue } from '../agent/scheduler/notifications.js';
import { Scheduler } from '../agent/scheduler/scheduler.js';
import { loadConfig } from '../core/config.js';
import { NotFoundError, UsageError } from '../core/errors.js';
import type { AgentJob } from '../store/schedule.js';
import type { Store } from '../store/store.js';
import { openAgent } from './agent-brain.js';
import { type AppContext, defineOperation } from './operation.js';
import { oneOf } from './schemas.js';

const HEARTBEAT_EMPTY =
  'workspace/HEARTBEAT.md has no tasks (list items outside HTML comments). Add one, e.g. "- Check the calendar for today", and run it again.';

const jobName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/i, 'must be 1-64 letters, digits, dashes or underscores, e.g. "morning-news"');

/** The zone jobs are read in when none is given: the quiet hours' zone, else this machine's. */
function defaultZone(config: AgentConfig): string {
  return config.quietHours?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export const scheduleAdd = defineOperation({
  name: 'agent.schedule.add',
  summary: 'Schedule a message to the agent, or the heartbeat, on a cron expression in a time zone',
  input: z
    .object({
      name: jobName,
      cron: z.string().trim().min(1, `is empty: give a cron expression such as ${CRON_EXAMPLE}`),
      timeZone: z.string().trim().min(1).optional(),
      message: z.string().trim().min(1).max(10_000).optional(),
      heartbeat: z.boolean().default(false),
      missed: oneOf(['run-once', 'skip']).default('run-once'),
    })
    .superRefine((i, ctx) => {
      if (i.message === undefined && !i.heartbeat)
        ctx.addIssue({
          code: 'custom',
          path: ['message'],
          message:
            'is missing: give the message the agent is asked each run (--message "Summarise the news"), or --heartbeat to run the tasks of HEARTBEAT.md',
        });
      if (i.message !== undefined && i.heartbeat)
        ctx.addIssue({
          code: 'custom',
          path: ['heartbeat'],
          message: 'cannot go with --message: a job either sends its message or runs the tasks of HEARTBEAT.md; drop one of the two',
        });
    }),
  run(ctx: AppContext, i): AgentJob {
    const zone = i.timeZone ?? defaultZone(loadAgentConfig(loadConfig(ctx.store.paths.config)));
    const problem = scheduleProblem(i.cron, zone);
    if (problem)
      throw new UsageError(
        problem,
        `Example: homunculus agent schedule add news --cron "0 8 * * *" --time-zone Europe/Paris --message "Summarise the news"`,
      );
    if (ctx.store.schedule.job(i.name))
      throw new UsageError(
        `A job named ${JSON.stringify(i.name)} exists already.`,
        'Pick another name, or remove it first (agent schedule remove).',
      );
    const now = ctx.store.clock.now();
    return ctx.store.schedule.addJob({
      name: i.name,
      cron: i.cron,
      time_zone: zone,
      action: i.heartbeat ? 'heartbeat' : 'message',
      message: i.message ?? '',
      missed: i.missed,
      enabled: true,
      created_at: now.toISOString(),
      next_run: nextRunAfter(i.cron, zone, now)?.toISOString() ?? null,
    });
  },
});

export const scheduleList = defineOperation({
  name: 'agent.schedule.list',
  summary: "The agent's scheduled jobs with their last and next run",
  input: z.object({}),
  // A job turned off has no next run, whatever was stored before it was.
  run: (ctx: AppContext): AgentJob[] => ctx.store.schedule.jobs().map((j) => (j.enabled ? j : { ...j, next_run: null })),
});

function jobOf(store: Store, name: string): AgentJob {
  const job = store.schedule.job(name);
  if (!job)
    throw new NotFoundError(`no scheduled job is named ${JSON.stringify(name)}`, 'See the names with `homunculus agent schedule list`.');
  return job;
}

export const scheduleRemove = defineOperation({
  name: 'agent.schedule.remove',
  summary: 'Remove a scheduled job',
  input: z.object({ name: jobName }),
  run(ctx: AppContext, i): { removed: string } {
    jobOf(ctx.store, i.name);
    ctx.store.schedule.removeJob(i.name);
    return { removed: i.name };
  },
});

export const scheduleEnable = defineOperation({
  name: 'agent.schedule.enable',
  summary: 'Turn a scheduled job on or off (a job turned off is kept, and neither runs nor counts as missed)',
  input: z.object({ name: jobName, enabled: z.boolean() }),
  run(ctx: AppContext, i): { name: string; enabled: boolean; next_run: string | null } {
    const job = jobOf(ctx.store, i.name);
    // Off: no next run. On again: the next run from now, so the time it was off is not a missed run.
    const next = i.enabled ? (nextRunAfter(job.cron, job.time_zone, ctx.store.clock.now())?.toISOString() ?? null) : null;
    ctx.store.transaction(() => {
      ctx.store.schedule.setEnabled(i.name, i.enabled);
      ctx.store.schedule.setRun(job.id, null, next);
    });
    return { name: i.name, enabled: i.enabled, next_run: next };
  },
});

export interface SchedulerHandle {
  scheduler: Scheduler;
  queue: NotificationQueue;
}

/** The scheduler over this store and runner; notifications through `notifier`, else the audit log and stdout. */
/** Where notifications go (Telegram; else the audit log and stdout), and who hears of failures at once. */
interface SchedulerWiring {
  notifier?: Notifier | undefined;
  onFailure?: (failure: Notification) => void;
}

export function openScheduler(ctx: AppContext, runner: AgentRunner, wiring: SchedulerWiring = {}): SchedulerHandle {
  const config = loadAgentConfig(loadConfig(ctx.store.paths.config));
  const { paths, clock, schedule } = ctx.store;
  const queue = new NotificationQueue({
    repo: schedule,
    notifier: wiring.notifier ?? new LogNotifier(paths.audit),
    clock,
    quietHours: config.quietHours,
    limits: config.notifications,
  });
  const scheduler = new Scheduler({
    repo: schedule,
    runner,
    queue,
    clock,
    heartbeat: config.heartbeat,
    workspace: paths.workspace,
    auditLog: paths.audit,
    ...(wiring.onFailure ? { onFailure: wiring.onFailure } : {}),
  });
  return { scheduler, queue };
}

export const scheduleRun = defineOperation({
  name: 'agent.schedule.run',
  summary: 'Run a scheduled job now (its result is shown, not held as a notification)',
  input: z.object({ name: jobName }),
  async run(ctx: AppContext, i): Promise<{ job: string; results: Notification[]; note?: string }> {
    const job = jobOf(ctx.store, i.name);
    const { scheduler } = openScheduler(ctx, openAgent(ctx).loop);
    const results = await scheduler.run(job, 'manual', false);
    // Only the heartbeat can have nothing to do: a message job always answers.
    if (!results.length && job.action === 'heartbeat') return { job: job.name, results, note: `Nothing to do: ${HEARTBEAT_EMPTY}` };
    return { job: job.name, results };
  },
});
