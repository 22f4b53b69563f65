/**
 * What a job does when it runs: a message sent to the agent, or the heartbeat (each task of
 * workspace/HEARTBEAT.md sent in turn, marked so the router keeps it on the local model).
 * Nobody is there to confirm a dangerous tool, so a held call is answered no (fail closed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentJob } from '../../store/schedule.js';
import type { Notification } from '../notifier.js';
import type { AgentRunner } from '../runner.js';
import { SCHEDULED_PREFIX } from '../scheduled.js';

/** The tasks of a HEARTBEAT.md: one per list item (`-`, `*` or `1.`); headings, prose and HTML comments ignored. Pure. */
export function heartbeatTasks(markdown: string): string[] {
  return markdown
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .split('\n')
    .map((line) => /^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$/.exec(line)?.[1])
    .filter((task): task is string => task !== undefined);
}

/** The heartbeat's tasks from the workspace; none when the file is missing. */
export function readHeartbeat(workspace: string): string[] {
  const path = join(workspace, 'HEARTBEAT.md');
  return existsSync(path) ? heartbeatTasks(readFileSync(path, 'utf8')) : [];
}

/**
 * One message to the agent, as the text to notify; a tool call waiting for a yes is answered no,
 * and the run failed: what it was asked to do was not done.
 */
export async function askAgent(
  runner: AgentRunner,
  session: string,
  message: string,
  signal?: AbortSignal,
): Promise<Pick<Notification, 'text' | 'failed'>> {
  const result = await runner.turn({ session, message, ...(signal ? { signal } : {}) });
  if (!result.pending) return { text: result.text };
  const after = await runner.confirm(result.pending.id, 'no', signal ? { signal } : {});
  // A second call it asks a yes for is declined unasked: the session must not stay held for nobody.
  if (after.pending) await runner.confirm(after.pending.id, 'expired');
  const text = `${result.text}\n[${result.pending.tool} needs a yes and nobody was there to give it: not run]\n${after.text}`.trim();
  return { text, failed: true };
}

/** No person can send `/escalate` into the heartbeat's session (its id holds a `/`) and move it off the local model. */
export const HEARTBEAT_SESSION = `${SCHEDULED_PREFIX}heartbeat`;

/** The heartbeat's message for a task: the router's `heartbeat` row keeps it local. Pure. */
export const heartbeatMessage = (task: string): string => `[heartbeat] ${task}`;

/** Runs a job once; its results as notifications (one per heartbeat task). */
export async function executeJob(
  job: Pick<AgentJob, 'name' | 'action' | 'message'>,
  deps: { runner: AgentRunner; workspace: string; signal?: AbortSignal },
): Promise<Notification[]> {
  if (job.action === 'message')
    return [{ source: job.name, ...(await askAgent(deps.runner, `${SCHEDULED_PREFIX}${job.name}`, job.message, deps.signal)) }];
  return runHeartbeat(readHeartbeat(deps.workspace), deps.runner, deps.signal, job.name);
}

/** Each task through the agent, in order; a task that fails becomes a notification saying so. */
export async function runHeartbeat(tasks: readonly string[], runner: AgentRunner, signal?: AbortSignal, source = 'heartbeat') {
  const out: Notification[] = [];
  for (const task of tasks) {
    if (signal?.aborted) break;
    try {
      out.push({ source: `${source}: ${task}`, ...(await askAgent(runner, HEARTBEAT_SESSION, heartbeatMessage(task), signal)) });
    } catch (err) {
      if (signal?.aborted) break;
      out.push({ source: `${source}: ${task}`, text: `The task failed: ${(err as Error).message}`, failed: true });
    }
  }
  return out;
}
