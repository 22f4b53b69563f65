/**
 * The personal agent's setup operations: scaffolding its workspace and reading (and
 * verifying) its audit log. Like init and doctor they run on the data home, not on an open
 * store, so they work before a database exists.
 */
import { z } from 'zod';
import { type AuditEntry, type AuditProblem, type AuditVerdict, parseEntry, readAudit, verifyLines } from '../agent/audit.js';
import { INSTALL_FIX, rootNote, sandboxWorks } from '../agent/sandbox.js';
import { type ScaffoldResult, scaffoldWorkspace } from '../agent/workspace.js';
import { homePaths } from '../core/paths.js';
import { defineOperation } from './operation.js';
import { wholeNumber } from './schemas.js';
import type { SetupContext } from './setup.js';

export const agentInit = defineOperation({
  name: 'agent.init',
  summary:
    "Create the personal agent's workspace (AGENTS.md, agents/{default,coder,home,researcher,planner}/SOUL.md, skills/, HEARTBEAT.md); existing files are kept",
  input: z.object({}),
  run(ctx: SetupContext): ScaffoldResult & { sandbox: { ok: boolean; detail: string; fix?: string; note?: string } } {
    const scaffold = scaffoldWorkspace(homePaths(ctx.home).workspace);
    const probe = sandboxWorks();
    const note = rootNote(scaffold.workspace);
    return { ...scaffold, sandbox: { ...probe, ...(probe.ok ? {} : { fix: INSTALL_FIX }), ...(note ? { note } : {}) } };
  },
});

export interface AuditReport {
  log: string;
  total: number;
  /** The newest entries, oldest first. */
  entries: AuditEntry[];
  /** Lines among the newest that are not entries (not JSON, or not an entry's shape): left out of `entries`. */
  skipped: AuditProblem[];
  verify?: AuditVerdict;
}

/** The last `limit` lines as entries, and the ones that are not entries, by their line number. Pure. */
function newestEntries(lines: readonly string[], limit: number): { entries: AuditEntry[]; skipped: AuditProblem[] } {
  const first = Math.max(0, lines.length - limit);
  const entries: AuditEntry[] = [];
  const skipped: AuditProblem[] = [];
  for (const [i, text] of lines.slice(first).entries()) {
    const parsed = parseEntry(text);
    const line = first + i + 1;
    if (typeof parsed === 'string') skipped.push({ line, problem: `line ${line} ${parsed}` });
    else entries.push(parsed);
  }
  return { entries, skipped };
}

export const agentAudit = defineOperation({
  name: 'agent.audit',
  summary: "Show the personal agent's audit log; with verify, check its hash chain and name the first line changed, inserted or removed",
  input: z.object({ verify: z.boolean().default(false), limit: wholeNumber(1, 10_000).default(20) }),
  run(ctx: SetupContext, i): AuditReport {
    const log = homePaths(ctx.home).audit;
    const { lines, head } = readAudit(log);
    return { log, total: lines.length, ...newestEntries(lines, i.limit), ...(i.verify ? { verify: verifyLines(lines, head) } : {}) };
  },
});
