/**
 * shell_exec: one command, parsed into argv by the rules of command.ts (no shell, no
 * operators), run in the bubblewrap sandbox with the workspace as its only writable place.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { HomunculusError } from '../../core/errors.js';
import { parseCommand } from '../command.js';
import { BWRAP, DEFAULT_LIMITS, INSTALL_FIX, missingKept, runSandboxed, sandboxProblem } from '../sandbox.js';
import { WORKSPACE_CONFIGURATION } from '../workspace.js';
import { defineTool } from './registry.js';

/**
 * Why a command died for want of memory, when its stderr says so: the sandbox caps each
 * process's address space (RLIMIT_AS, the one memory limit prlimit enforces without cgroups),
 * and runtimes that reserve much of it at start (node's V8) die there however little they use. Pure.
 */
export function memoryNote(stderr: string, limitBytes: number): string | undefined {
  if (!/Fatal process OOM|out of memory|Cannot allocate memory|std::bad_alloc/i.test(stderr)) return undefined;
  const mb = Math.round(limitBytes / 1024 / 1024);
  return `The sandbox limits each process to ${mb} MB of address space; this program needs more (node cannot start under it). Run it outside the agent (docs/agent.md, Sandbox).`;
}

export const shellExec = defineTool({
  name: 'shell_exec',
  description:
    'Run ONE command in a sandbox (no network, only the workspace writable, 30 s, 512 MB of address space: too little for node to start). No shell: no pipes, ;, &&, redirections, $VAR, $(...), globs or ~. Quote arguments; paths are relative to the workspace.',
  input: z
    .object({
      command: z.string().min(1).max(10_000),
      timeout_seconds: z
        .number()
        .positive()
        .max(DEFAULT_LIMITS.timeoutMs / 1000)
        .optional(),
    })
    .strict(),
  trust: 'sandboxed',
  confirm: true,
  // Before the y/N: nobody is asked about a command that would be refused anyway.
  check: (ctx, input) => {
    parseCommand(input.command);
    const problem = sandboxProblem(ctx.sandbox?.bwrap ?? BWRAP);
    if (problem) throw new HomunculusError('sandbox', `${problem}.`, { hint: INSTALL_FIX });
    const missing = existsSync(ctx.workspace) ? missingKept(ctx.workspace, WORKSPACE_CONFIGURATION) : undefined;
    if (missing) throw missing;
  },
  run: async (ctx, input) => {
    const argv = parseCommand(input.command);
    const limits = { ...ctx.sandbox?.limits, ...(input.timeout_seconds ? { timeoutMs: input.timeout_seconds * 1000 } : {}) };
    const r = await runSandboxed(argv, {
      workspace: ctx.workspace,
      // One yes to a command must not rewrite who the agents are, their skills or their standing tasks.
      keep: WORKSPACE_CONFIGURATION,
      home: ctx.home,
      limits,
      ...(ctx.sandbox?.bwrap ? { bwrap: ctx.sandbox.bwrap } : {}),
      ...(ctx.sandbox?.userHome ? { userHome: ctx.sandbox.userHome } : {}),
    });
    return {
      argv,
      exit_code: r.exitCode,
      ...(r.signal ? { signal: r.signal } : {}),
      stdout: r.stdout,
      stderr: r.stderr,
      ...withNote(memoryNote(r.stderr, limits.memoryBytes ?? DEFAULT_LIMITS.memoryBytes)),
      timed_out: r.timedOut,
      truncated: r.truncated,
      duration_ms: Math.round(r.durationMs),
    };
  },
});

const withNote = (note: string | undefined) => (note ? { note } : {});
