/**
 * `homunculus hook EVENT`: one entry for every hook of every agent. It never throws:
 * whatever happens (bad payload, locked or corrupt database, unwritable home) it returns
 * valid output for the agent, and failures go to $HOMUNCULUS_HOME/logs/hooks.log.
 *
 * The payload goes through capture/ once: parsed, normalised, its project resolved. The
 * observe hook, which runs after every tool call, never loads SQLite: capture spools its
 * observation. The other hooks open the store and load what only they need (dispatch.ts).
 */
import { type Agent, type HookName, hookForEvent } from '../capture/agents.js';
import { normalise } from '../capture/normalise.js';
import { observeToolCall } from '../capture/observe.js';
import { MAX_PAYLOAD_BYTES, type RawPayload, parsePayload, rawPayload } from '../capture/payload.js';
import { type Clock, systemClock } from '../core/clock.js';
import { type HomePaths, homePaths, resolveHome } from '../core/paths.js';
import { aliasedProject } from '../core/project-alias.js';
import { detectProject } from '../core/project.js';
import { recordHookCall } from '../core/hook-calls.js';
import type { Store } from '../store/store.js';
import { logHook } from './log.js';
import { emptyOutput, formatOutput } from './output.js';

/** How long a hook waits on a database another process is writing. */
const HOOK_BUSY_TIMEOUT_MS = 3_000;

interface HookOptions {
  home?: string;
  /** The agent, when the command line names it (`--agent gemini`); otherwise guessed from the payload. */
  agent?: Agent;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** An already open store (in-process replays); otherwise one is opened and closed here. */
  store?: Store;
  /** When the call began, on performance.now()'s scale (the hook process passes 0: its own start); default: now. */
  startedAt?: number;
}

/** What was wrong with a payload, for the hook log. */
function payloadProblem(mode: string, truncated: boolean): string {
  if (mode === 'not-object') return 'is JSON but not an object: ignored';
  if (truncated) return `is over the ${MAX_PAYLOAD_BYTES}-byte cap: read as cut, ${mode}`;
  // 'empty': nothing usable came out of it (the payload itself may hold bytes).
  return `is not complete JSON: ${mode === 'empty' ? 'nothing in it could be read, ignored' : `${mode} (the fields that could be read were used)`}`;
}

export type HookStatus = 'recorded' | 'spooled' | 'duplicate' | 'noise' | 'ignored' | 'skipped' | 'failed' | 'done';

export interface HookOutcome {
  hook: HookName | undefined;
  stdout: string;
  status: HookStatus;
  detail?: string;
}

/** Runs the hook, then adds its line to the hook-call log (telemetry): which hook, how long, how it ended. */
export async function runHook(hookArg: string, raw: string | RawPayload, options: HookOptions = {}): Promise<HookOutcome> {
  const startedAt = options.startedAt ?? performance.now();
  const call: Call = { hook: undefined, agent: options.agent ?? 'claude-code' };
  const outcome = await handleHook(hookArg, raw, options, call);
  // The learner's own agent (HOMUNCULUS_OBSERVER) leaves no trace at all, not even a home.
  if (call.paths && outcome.status !== 'skipped')
    recordHookCall(call.paths.hookCalls, {
      // A name that is no hook is counted as 'unknown' (hooks.log names it): telemetry lists hooks, not typos.
      event: call.hook ?? (hookArg ? 'unknown' : 'none'),
      agent: call.agent,
      ms: performance.now() - startedAt,
      outcome: outcome.status === 'failed' ? 'failed' : 'ok',
    });
  return outcome;
}

/** What the call learned about itself on the way, for its telemetry line. */
interface Call {
  hook: HookName | undefined;
  agent: Agent;
  paths?: HomePaths;
}

async function handleHook(hookArg: string, raw: string | RawPayload, options: HookOptions, call: Call): Promise<HookOutcome> {
  const env = options.env ?? process.env;
  let log: string | undefined;
  let hook: HookName | undefined;
  let agent: Agent = call.agent;
  try {
    const home = resolveHome(options.home, env);
    call.paths = homePaths(home);
    log = call.paths.hookLog;
    const payload = typeof raw === 'string' ? rawPayload(raw) : raw;
    const parsed = parsePayload(payload);
    hook = hookForEvent(hookArg) ?? hookForEvent(String(parsed.value.hook_event_name ?? ''));
    call.hook = hook;
    const clock = options.clock ?? systemClock(env);
    const now = clock.now().toISOString();
    const normalised = normalise(parsed.value, options.agent, now);
    // A clock set on purpose (HOMUNCULUS_NOW) outranks a later time an agent stamps on its payload (Gemini CLI's
    // real time), which learning would take for a day still to come and skip.
    const input = env.HOMUNCULUS_NOW && normalised.ts > now ? { ...normalised, ts: now } : normalised;
    agent = input.agent;
    call.agent = agent;
    if (!hook) {
      logHook(
        log,
        `hook ${JSON.stringify(hookArg)}: ignored, not a hook name (use observe, start, prompt, recall, stop or an agent event name)`,
      );
      return { hook, stdout: '', status: 'ignored', detail: 'unknown hook' };
    }
    if (env.HOMUNCULUS_OBSERVER) return { hook, stdout: emptyOutput(agent, hook), status: 'skipped', detail: 'HOMUNCULUS_OBSERVER is set' };
    if (parsed.mode !== 'json')
      logHook(log, `${hook} (${agent}): payload of ${payload.bytes} bytes ${payloadProblem(parsed.mode, payload.truncated)}`);
    const project = detectProject(input.cwd);
    if (hook === 'observe') {
      const filed = aliasedProject(project, call.paths.projectAliases);
      return { hook, stdout: formatOutput(agent, hook, input.event, ''), ...observeToolCall(home, input, filed) };
    }
    const { openStore } = await import('../store/store.js');
    const store = options.store ?? openStore({ home, clock });
    try {
      // Locked by another process: waited for once, then nothing waits again; what the call observed goes to the spool.
      if (!options.store) {
        store.setBusyTimeout(HOOK_BUSY_TIMEOUT_MS);
        if (!store.canWrite()) {
          logHook(
            log,
            `${hook} (${agent}): the database stayed locked by another process for ${HOOK_BUSY_TIMEOUT_MS / 1000} s; what this call observed is spooled`,
          );
          store.setBusyTimeout(0);
        }
      }
      const [{ dispatch }, { joinedProject }] = await Promise.all([import('./dispatch.js'), import('../app/project-ref.js')]);
      return await dispatch({ hook, input, project: joinedProject(store, project), store, env, log });
    } finally {
      if (!options.store) store.close();
    }
  } catch (err) {
    if (log) logHook(log, `${hookArg} (${agent}) failed`, err);
    return {
      hook,
      stdout: hook ? emptyOutput(agent, hook) : '',
      status: 'failed',
      detail: err instanceof Error ? err.message : String(err),
    };
  }
}
