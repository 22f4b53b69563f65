/**
 * The gateway's setup operations: making (or rotating) its bearer token, shown once and
 * stored only as a bcrypt hash, and the agent's status (token, running gateway, workspace,
 * sandbox). Like init they run on the data home, not on an open store.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { processAlive, readGatewayState } from '../agent/gateway-state.js';
import { createToken, readTokenHash } from '../agent/gateway-token.js';
import { sandboxWorks } from '../agent/sandbox.js';
import { readAudit } from '../agent/audit.js';
import { homePaths } from '../core/paths.js';
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
}

export const agentStatus = defineOperation({
  name: 'agent.status',
  summary: "The personal agent's state: its token, whether the gateway runs (and where), the workspace, the sandbox, the audit log",
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
    };
  },
});
