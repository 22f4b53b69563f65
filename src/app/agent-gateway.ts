/**
 * The gateway's setup operations: making (or rotating) its bearer token, shown once and
 * stored only as a bcrypt hash, and the agent's status (token, running gateway, workspace,
 * sandbox). Like init they run on the data home, not on an open store.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { readGatewayState } from '../agent/gateway-state.js';
import { processAlive } from '../core/lock.js';
import { createToken, readTokenHash } from '../agent/gateway-token.js';
import { sandboxWorks } from '../agent/sandbox.js';
import { readAudit } from '../agent/audit.js';
import { homePaths } from '../core/paths.js';
import { loadConfig } from '../core/config.js';
import { agentConfigVerdict } from '../agent/doctor.js';
import { openStore } from '../store/store.js';
import { defineOperation } from './operation.js';
import type { SetupContext } from './setup.js';

export const agentToken = defineOperation({
  name: 'agent.token',
  summary: "Make the gateway's bearer token, or a new one (the old one stops working at once); shown once, stored only as a bcrypt hash",
  input: z.object({}),
  async run(ctx: SetupContext) {
    const path = homePaths(ctx.home).agentToken;
    const rotated = readTokenHash(path) !== undefined;
    const token = await createToken(path);
    return { token, hash_file: path, rotated };
  },
});

export interface AgentStatus {
  home: string;
  workspace: { path: string; exists: boolean };
  token: { set: boolean; hash_file: string };
  gateway: { running: boolean; url?: string; pid?: number; started?: string };
  sandbox: { ok: boolean; detail: string };
  audit: { log: string; entries: number };
  /** The scheduler's jobs (the next one due first) and the notifications held for quiet hours or the rate limit. */
  schedule: { jobs: number; next: { name: string; at: string } | null; held: number };
  /** config.json's agent section as `agent chat` and `agent serve` would read it. */
  config: { status: 'ok' | 'warn' | 'fail'; detail: string; fix?: string };
}

/** The agent's part of config.json, checked as doctor checks it: a file that does not parse fails here too. */
function configState(file: string, env: NodeJS.ProcessEnv): AgentStatus['config'] {
  try {
    const { status, detail, fix } = agentConfigVerdict(loadConfig(file), env, true);
    return { status, detail, ...(fix ? { fix } : {}) };
  } catch (err) {
    const fix = (err as { hint?: string }).hint;
    return { status: 'fail', detail: (err as Error).message, ...(fix ? { fix } : {}) };
  }
}

/** What the scheduler holds, read without creating a database that does not exist yet. */
function scheduleState(db: string, home: string): AgentStatus['schedule'] {
  if (!existsSync(db)) return { jobs: 0, next: null, held: 0 };
  const store = openStore({ home, readonly: true });
  try {
    const jobs = store.schedule.jobs();
    const due = jobs.filter((j) => j.enabled && j.next_run).sort((a, b) => String(a.next_run).localeCompare(String(b.next_run)))[0];
    return { jobs: jobs.length, next: due ? { name: due.name, at: String(due.next_run) } : null, held: store.schedule.held().length };
  } finally {
    store.close();
  }
}

export const agentStatus = defineOperation({
  name: 'agent.status',
  summary:
    "The personal agent's state: its token, whether the gateway runs (and where), the workspace, the sandbox, the audit log, the scheduler",
  input: z.object({}),
  run(ctx: SetupContext): AgentStatus {
    const paths = homePaths(ctx.home);
    const state = readGatewayState(paths.gatewayState);
    const running = state !== undefined && processAlive(state.pid);
    const probe = sandboxWorks();
    return {
      home: ctx.home,
      workspace: { path: paths.workspace, exists: existsSync(paths.workspace) },
      token: { set: readTokenHash(paths.agentToken) !== undefined, hash_file: paths.agentToken },
      gateway: running && state ? { running, url: state.url, pid: state.pid, started: state.started } : { running: false },
      sandbox: { ok: probe.ok, detail: probe.detail },
      audit: { log: paths.audit, entries: readAudit(paths.audit).lines.length },
      schedule: scheduleState(paths.db, ctx.home),
      config: configState(paths.config, ctx.env),
    };
  },
});
