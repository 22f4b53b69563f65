/** What an agent's settings file holds of ours now: the hook commands, and whether they still run. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { commandWords, findOnPath, isHomunculusHookCommand } from './command.js';
import { parseJsonc } from './jsonc.js';
import type { Agent } from '../agents.js';
import { projectIsHome, runsEveryScope, type Scope, secondScopeRefused, type Target, targetFor } from './targets.js';

type Command = { event: string; command: string };

/**
 * Our hook commands in a client's settings file, with the hook events they sit under; and why
 * the file cannot be read as JSON (comments and trailing commas are fine) when it is there and
 * cannot: its hooks are then neither seen nor updated, whatever the client makes of it.
 */
export function settingsHooks(target: Target): { commands: Command[]; unreadable?: string } {
  let text: string;
  try {
    text = readFileSync(target.hooksFile, 'utf8');
  } catch {
    return { commands: [] };
  }
  try {
    return { commands: commandsIn(parseJsonc(text), target.shape) };
  } catch (err) {
    return { commands: [], unreadable: `${target.hooksFile} is not valid JSON (${(err as Error).message})` };
  }
}

/** Every hook command of ours in a settings file (none when it is missing or unreadable). */
export const installedCommands = (target: Target): Command[] => settingsHooks(target).commands;

/**
 * An agent that runs the hooks of both scopes (Codex) gets ours at one only: installing at
 * `scope` while the other holds them is refused. In the home folder both are the same file.
 */
export function refuseSecondScope(agent: Agent, scope: Scope, home: string, cwd: string): void {
  if (!runsEveryScope(agent) || projectIsHome(home, cwd)) return;
  const other = targetFor(agent, scope === 'user' ? 'project' : 'user', home, cwd);
  if (installedCommands(other).length) throw secondScopeRefused(scope, other.hooksFile);
}

function commandsIn(value: unknown, shape: Target['shape']): Command[] {
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  if (!hooks || typeof hooks !== 'object') return [];
  const out: Command[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const entries =
        shape === 'flat' ? [group] : Array.isArray((group as { hooks?: unknown })?.hooks) ? (group as { hooks: unknown[] }).hooks : [];
      for (const e of entries) {
        const command = (e as { command?: unknown } | null)?.command;
        if (isHomunculusHookCommand(command)) out.push({ event, command: command as string });
      }
    }
  }
  return out;
}

/** Paths a hook command runs (its interpreter and script) that do not exist. */
export function missingPaths(command: string): string[] {
  return commandWords(command)
    .filter((w) => w.startsWith('/') && (w.endsWith('.js') || /\/node[^/]*$/.test(w)))
    .filter((w) => !existsSync(w));
}

/** The words before `hook <name>`: how the command starts Homunculus. */
export function commandPrefix(command: string): string[] {
  const words = commandWords(command);
  const at = words.indexOf('hook');
  return at < 0 ? words : words.slice(0, at);
}

/**
 * Why a hook command would not run, or undefined when it does: a program missing from PATH,
 * a path that is gone, or `<prefix> --version` failing (a Node too old, a broken build).
 */
export function commandProblem(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const [program, ...args] = commandPrefix(command);
  if (!program) return `"${command}" has no program to run`;
  if (!program.includes('/') && !findOnPath(program, env.PATH)) return `${program} is not on PATH`;
  const missing = missingPaths(command);
  if (missing.length) return `${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist`;
  const run = spawnSync(program, [...args, '--version'], { env, encoding: 'utf8', timeout: 15_000 });
  if (run.status === 0) return undefined;
  const why = run.error?.message ?? (run.stderr.trim().split('\n')[0] || `exit ${run.status ?? run.signal}`);
  return `\`${[program, ...args].join(' ')} --version\` fails: ${why}`;
}
