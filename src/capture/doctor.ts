/**
 * Doctor checks for capture: hooks installed, pointing at a binary that exists and active in
 * their client (trusted, not turned off), and observations actually arriving (plus the hook
 * calls that failed lately, counted as `homunculus telemetry` counts them, from logs/hook-calls.jsonl,
 * with the last failure logs/hooks.log holds).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock } from '../core/clock.js';
import { readRotated } from '../core/fs.js';
import { isHookFailure, parseHookCalls, parseHookLog } from '../core/hook-calls.js';
import type { HomePaths } from '../core/paths.js';
import { openStore } from '../store/store.js';
import { AGENTS, type Agent } from './agents.js';
import { inactiveHooks } from './install/active.js';
import { claudePlugin } from './install/plugin-state.js';
import { commandWords } from './install/command.js';
import { commandPrefix, commandProblem, settingsHooks } from './install/installed.js';
import { projectIsHome, runsEveryScope, type Scope, targetFor, twiceAtBothScopes } from './install/targets.js';
import { spooledCount } from './spool/write.js';
import { counted } from '../core/text.js';

/** The shape cli/doctor.ts expects, kept structural: the domain does not import a surface. */
interface Result {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** The store a hook command names with `--home`, when it names one. */
function fedStore(command: string): string | undefined {
  const words = commandWords(command);
  const at = words.indexOf('--home');
  return at >= 0 && words[at + 1] ? resolve(words[at + 1] as string) : undefined;
}

/** `store`: the Homunculus home being checked; hooks that name another with `--home` feed that one instead. */
export async function hooksCheck(home: string, cwd: string, env: NodeJS.ProcessEnv, store?: string): Promise<Result> {
  const found: string[] = [];
  const problems: string[] = [];
  const fixes = new Set<string>();
  const tried = new Map<string, string | undefined>();
  const scopes = new Map<Agent, Scope[]>();
  const problemOf = (command: string): string | undefined => {
    const prefix = commandPrefix(command).join(' ');
    if (!tried.has(prefix)) tried.set(prefix, commandProblem(command, env));
    return tried.get(prefix);
  };
  // From the home folder there is no project scope apart from the user's: its files would count twice.
  for (const scope of (projectIsHome(home, cwd) ? ['user'] : ['user', 'project']) as Scope[]) {
    for (const agent of AGENTS as readonly Agent[]) {
      const target = targetFor(agent, scope, home, cwd);
      const { commands, unreadable } = settingsHooks(target);
      if (unreadable) {
        // A syntax error: the client may read it its own way, but these hooks are out of our sight.
        problems.push(`${unreadable}: homunculus cannot see or update its hooks there`);
        fixes.add(`Fix the syntax of ${target.hooksFile} where the error says, then run \`homunculus doctor\` again.`);
        continue;
      }
      if (commands.length === 0) continue;
      const events = new Set(commands.map((c) => c.event));
      const missingEvents = [...new Set(target.specs.map((s) => s.event))].filter((e) => !events.has(e));
      const broken = [...new Set(commands.map((c) => problemOf(c.command)).filter((p) => p !== undefined))];
      const flag =
        agent === 'claude-code' ? (scope === 'project' ? '--project' : '--claude') : `--${agent}${scope === 'project' ? ' --project' : ''}`;
      found.push(`${agent} (${scope}) ${commands.length} hooks`);
      if (broken.length) problems.push(`${target.hooksFile}: ${broken.join('; ')}`);
      if (missingEvents.length) problems.push(`${target.hooksFile} lacks ${missingEvents.join(', ')}`);
      if (broken.length || missingEvents.length) fixes.add(`Run \`homunculus init ${flag}\` again to rewrite the hooks.`);
      const elsewhere = store ? [...new Set(commands.map((c) => fedStore(c.command)))].filter((f) => f && f !== resolve(store)) : [];
      if (elsewhere.length) {
        problems.push(`${agent} (${scope}) hooks feed ${elsewhere.join(', ')}, not ${store}`);
        fixes.add(`Run \`homunculus --home ${store} init ${flag}\` to point them here, or check that store.`);
      }
      const idle = await inactiveHooks(target, cwd, env);
      for (const i of idle) {
        problems.push(`${agent} (${scope}): ${i.problem}`);
        fixes.add(i.fix);
      }
      // Hooks the client does not load run nowhere: they cannot run twice.
      if (!idle.some((i) => i.unloaded)) scopes.set(agent, [...(scopes.get(agent) ?? []), scope]);
    }
  }
  for (const [agent, at] of scopes) {
    if (!runsEveryScope(agent) || at.length < 2) continue;
    const twice = twiceAtBothScopes();
    problems.push(twice.problem);
    fixes.add(twice.fix);
  }
  const plugin = claudePlugin(home, cwd);
  if (plugin?.enabled) {
    // Both run on every event: each call recorded twice, each memory block given twice.
    if (found.some((f) => f.startsWith('claude-code '))) {
      problems.push(`Claude Code runs both the plugin ${plugin.id} and the hooks in its settings, so every call is recorded twice`);
      fixes.add(
        `Run \`homunculus uninstall --claude\` (and --project where installed) to keep the plugin alone, or \`claude plugin disable ${plugin.id}\`.`,
      );
    }
    found.unshift(`claude-code plugin ${plugin.id}`);
  } else if (plugin && !found.some((f) => f.startsWith('claude-code '))) {
    problems.push(`the Claude Code plugin ${plugin.id} is installed but not enabled here`);
    fixes.add(`Run \`claude plugin enable ${plugin.id}\`.`);
  }
  if (problems.length) return { name: 'hooks', status: 'fail', detail: problems.join('; '), fix: [...fixes].join(' ') };
  if (found.length === 0) {
    return {
      name: 'hooks',
      status: 'warn',
      detail: 'no agent hooks installed in settings files (the Claude Code plugin, if installed, carries its own)',
      fix: 'Run `homunculus init --claude` (or --project, --codex, --gemini, --cursor), or install the Claude Code plugin.',
    };
  }
  return { name: 'hooks', status: 'ok', detail: `${found.join(', ')}, active` };
}

const DAY = 86_400_000;

interface RecentFailures {
  /** Hook calls that failed or timed out: one call may log several lines in hooks.log, so calls are what is counted. */
  failed: number;
  timedOut: number;
  /** Every failure hooks.log holds for the period names a locked database. */
  locked: boolean;
  last?: string;
}

function recentFailures(paths: HomePaths, now: number): RecentFailures {
  const recent = (ts: string) => now - Date.parse(ts) < DAY;
  const calls = parseHookCalls(readRotated(paths.hookCalls)).calls.filter((c) => recent(c.ts));
  const logged = parseHookLog(readRotated(paths.hookLog))
    .filter((e) => isHookFailure(e) && recent(e.ts))
    .map((e) => `${e.ts} ${e.message}`);
  return {
    failed: calls.filter((c) => c.outcome === 'failed').length,
    timedOut: calls.filter((c) => c.outcome === 'timeout').length,
    locked: logged.length > 0 && logged.every((l) => /database is locked|stayed locked/.test(l)),
    ...(logged.length ? { last: logged[logged.length - 1] } : {}),
  };
}

/** The failures as `homunculus telemetry` counts them, by call: "; 1 hook call failed in the last 24 h (last logged: ...)". */
function failureNote(f: RecentFailures): string {
  const said = [f.failed && `${counted(f.failed, 'hook call')} failed`, f.timedOut && `${counted(f.timedOut, 'hook call')} timed out`];
  const how = said.filter(Boolean).join(', ');
  return how ? `; ${how} in the last 24 h${f.last ? ` (last logged: ${f.last})` : ''}` : '';
}

/** What to do about recent hook failures, or observations that stopped coming. */
function observationsFix(failures: RecentFailures, ageDays: number, hookLog: string): string {
  if (ageDays > 7 || failures.failed + failures.timedOut === 0) return `Hooks may not be firing: see ${hookLog} and the hooks check above.`;
  if (failures.locked)
    return 'The hooks fire, but another process kept the database locked (a learning run, an import, a program holding it open): what they observed waited in the spool for the next hook. If it goes on, find the holder with `fuser` on the database file.';
  return `The hooks fire but fail: the errors are in ${hookLog}.`;
}

export function observationsCheck(paths: HomePaths): Result {
  const now = systemClock().now().getTime();
  const spooled = spooledCount(paths.home);
  const failures = recentFailures(paths, now);
  let last: string | undefined;
  let lastDay = 0;
  let archived = { count: 0, last: undefined as string | undefined };
  if (existsSync(paths.db) && statSync(paths.db).size > 0) {
    const store = openStore({ home: paths.home, readonly: true });
    try {
      last = store.observations.lastActivity();
      if (last) lastDay = store.observations.count({ since: new Date(now - DAY).toISOString() });
      else archived = store.observations.archived();
    } finally {
      store.close();
    }
  }
  const failed = failureNote(failures);
  const spoolNote = spooled ? `, ${spooled} waiting in the spool` : '';
  if (!last && !spooled && archived.count) {
    // gc moved every observation to the archive: they were recorded, none arrived since.
    return {
      name: 'observations',
      status: 'warn',
      detail: `none since the ${archived.count} that gc archived (the newest from ${archived.last})${failed}`,
      fix: 'Start a session of an agent whose hooks are installed (see the hooks check); the archive keeps their ids, so re-importing adds nothing.',
    };
  }
  if (!last && !spooled) {
    return {
      name: 'observations',
      status: 'warn',
      detail: `none recorded yet${failed}`,
      fix: 'Start a session of an agent whose hooks are installed (see the hooks check), or bring in past Claude Code sessions with `homunculus import-transcripts`.',
    };
  }
  const ageDays = last ? (now - Date.parse(last)) / DAY : 0;
  const detail = last ? `last ${last} (${lastDay} in the last 24 h)${spoolNote}${failed}` : `${spooled} waiting in the spool${failed}`;
  if (failures.failed + failures.timedOut || ageDays > 7) {
    return {
      name: 'observations',
      status: 'warn',
      detail,
      fix: observationsFix(failures, ageDays, paths.hookLog),
    };
  }
  return { name: 'observations', status: 'ok', detail };
}
