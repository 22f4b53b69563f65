/**
 * `homunculus hook EVENT`: one handler for every hook of every agent. It never throws:
 * whatever happens (bad payload, locked or corrupt database, unwritable home) it returns
 * valid output for the agent, and failures go to $HOMUNCULUS_HOME/logs/hooks.log.
 *
 * The observe hook, which runs after every tool call, never loads SQLite: it spools the
 * observation (spool.ts). The other hooks open the store, drain the spool first, and import
 * what only they need when they run.
 */
import { truncate } from '../core/text.js';
import { type Clock, systemClock } from '../core/clock.js';
import { homePaths, resolveHome } from '../core/paths.js';
import { detectProject } from '../core/project.js';
import type { Store } from '../store/store.js';
import { type Agent, ENDING_EVENTS, type HookInput, type HookName, hookForEvent, normalise } from './agents.js';
import { logHook } from './log.js';
import { emptyOutput, formatOutput } from './output.js';
import { type RawPayload, parsePayload } from './payload.js';
import { toolObservation } from './record.js';
import { spoolObservation } from '../capture/spool/write.js';

/** How long a hook waits on a database another process is writing. */
export const HOOK_BUSY_TIMEOUT_MS = 3_000;

export interface HookOptions {
  home?: string;
  /** The agent, when the command line names it (`--agent gemini`); otherwise guessed from the payload. */
  agent?: Agent;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** An already open store (in-process replays); otherwise one is opened and closed here. */
  store?: Store;
}

export type HookStatus = 'recorded' | 'spooled' | 'duplicate' | 'noise' | 'ignored' | 'skipped' | 'failed' | 'done';

export interface HookOutcome {
  hook: HookName | undefined;
  stdout: string;
  status: HookStatus;
  detail?: string;
}

const text = (raw: string | RawPayload): RawPayload =>
  typeof raw === 'string' ? { text: raw, bytes: Buffer.byteLength(raw), truncated: false } : raw;

export async function runHook(hookArg: string, raw: string | RawPayload, options: HookOptions = {}): Promise<HookOutcome> {
  const env = options.env ?? process.env;
  let logs: string | undefined;
  let hook: HookName | undefined;
  let agent: Agent = options.agent ?? 'claude-code';
  try {
    logs = homePaths(resolveHome(options.home, env)).hookLog;
    const payload = parsePayload(text(raw));
    hook = hookForEvent(hookArg) ?? hookForEvent(String(payload.value.hook_event_name ?? ''));
    const clock = options.clock ?? systemClock(env);
    const input = normalise(payload.value, options.agent, clock.now().toISOString());
    agent = input.agent;
    if (!hook) {
      logHook(
        logs,
        `hook ${JSON.stringify(hookArg)}: ignored, not a hook name (use observe, start, prompt, recall, stop or an agent event name)`,
      );
      return { hook, stdout: '', status: 'ignored', detail: 'unknown hook' };
    }
    if (env.HOMUNCULUS_OBSERVER) return { hook, stdout: emptyOutput(agent, hook), status: 'skipped', detail: 'HOMUNCULUS_OBSERVER is set' };
    if (payload.mode !== 'json')
      logHook(logs, `${hook} (${agent}): payload of ${text(raw).bytes} bytes is not complete JSON; ${payload.mode}`);
    const home = resolveHome(options.home, env);
    if (hook === 'observe') return observe(input, home);
    const { openStore } = await import('../store/store.js');
    const store = options.store ?? openStore({ home, clock });
    try {
      if (!options.store) store.setBusyTimeout(HOOK_BUSY_TIMEOUT_MS);
      const { drainSpool } = await import('../capture/spool/drain.js');
      tryRecord(logs, `${hook}: draining the spool`, () => (drainSpool(store, store.paths.home), { status: 'done' }));
      return await dispatch(hook, input, store, env, logs);
    } finally {
      if (!options.store) store.close();
    }
  } catch (err) {
    if (logs) logHook(logs, `${hookArg} (${agent}) failed`, err);
    return {
      hook,
      stdout: hook ? emptyOutput(agent, hook) : '',
      status: 'failed',
      detail: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Records what the hook observed; for context hooks a failed write must not cost the context. */
function tryRecord(
  logs: string,
  label: string,
  fn: () => { status: HookStatus; detail?: string },
): { status: HookStatus; detail?: string } {
  try {
    return fn();
  } catch (err) {
    logHook(logs, `${label}: not recorded`, err);
    return { status: 'failed', detail: err instanceof Error ? err.message : String(err) };
  }
}

/** The observe hook: map, drop noise, spool. No database. */
function observe(input: HookInput, home: string): HookOutcome {
  const r = toolObservation(input);
  const stdout = formatOutput(input.agent, 'observe', input.event, '');
  if (!('observation' in r)) return { hook: 'observe', stdout, status: r.status, detail: r.detail };
  spoolObservation(home, r.observation);
  return { hook: 'observe', stdout, status: 'spooled' };
}

/** How much of a prompt the context retrieval reads (the stored prompt is cut to the same length). */
const PROMPT_QUERY_CHARS = 4_000;

async function dispatch(hook: HookName, input: HookInput, store: Store, env: NodeJS.ProcessEnv, logs: string): Promise<HookOutcome> {
  const { recordLifecycle, recordPrompt, recordToolCall } = await import('./record.js');
  const answer = (context: string, status: HookStatus, detail?: string): HookOutcome => ({
    hook,
    stdout: formatOutput(input.agent, hook, input.event, context),
    status,
    ...(detail ? { detail } : {}),
  });
  switch (hook) {
    case 'observe':
      return answer('', 'ignored', 'observe never opens the store');
    case 'recall': {
      const r = recordToolCall(store, input);
      const files = r.observation?.files ?? [];
      if (!input.tool || files.length === 0) return answer('', r.status, r.detail);
      const { recallContext } = await import('../context/recall.js');
      const context = recallContext(store, {
        sessionId: input.sessionId,
        toolUseId: input.tool.toolUseId,
        files,
        project: detectProject(input.cwd),
      });
      return answer(context, r.status, r.detail);
    }
    case 'start': {
      const r = tryRecord(logs, 'start', () => recordLifecycle(store, input, 'start'));
      const [{ sessionStartContext }, { detectStack }] = await Promise.all([
        import('../context/session-start.js'),
        import('../core/stack.js'),
      ]);
      const project = detectProject(input.cwd || process.cwd());
      return answer(sessionStartContext(store, { project, stack: detectStack(project.root) }), r.status, r.detail);
    }
    case 'prompt': {
      const r = tryRecord(logs, 'prompt', () => recordPrompt(store, input));
      if (!input.prompt) return answer('', r.status, r.detail);
      const [{ promptContext }, { buildPromptContext }, { MAX_INJECTION_CHARS }] = await Promise.all([
        import('../context/prompt.js'),
        import('../context/build.js'),
        import('../context/budget.js'),
      ]);
      const project = detectProject(input.cwd || process.cwd());
      // Retrieval reads the prompt's opening only: a pasted 20 MB log must not stall the agent.
      const query = input.prompt.slice(0, PROMPT_QUERY_CHARS);
      const instincts = promptContext(store, project, query);
      const graph = await buildPromptContext(store, { prompt: query, project: project.fingerprint, sessionId: input.sessionId });
      // Instincts first; the graph section gets whatever room the 10,000-character cap leaves.
      const room = MAX_INJECTION_CHARS - instincts.length - 2;
      const graphText = room > 200 ? truncate(graph.text, room) : '';
      return answer([instincts, graphText].filter(Boolean).join('\n\n'), r.status, r.detail);
    }
    case 'stop':
      return answer('', ...(await stop(input, store, env)));
  }
}

async function stop(input: HookInput, store: Store, env: NodeJS.ProcessEnv): Promise<[HookStatus, string?]> {
  if (!input.sessionId) return ['ignored', 'no session id in the payload'];
  const ending = ENDING_EVENTS.has(input.event);
  const [{ upsertSession, renderSessionFile, archiveSessions }, { renderIdentity }, { startLearning }, { recordLifecycle }] =
    await Promise.all([import('./sessions.js'), import('../view/render.js'), import('./learn.js'), import('./record.js')]);
  if (ending) recordLifecycle(store, input, 'end');
  const session = upsertSession(store, {
    source: input.agent,
    sessionId: input.sessionId,
    cwd: input.cwd,
    project: detectProject(input.cwd),
    endedAt: input.ts,
    ...(input.transcriptPath ? { transcriptPath: input.transcriptPath } : {}),
  });
  if (session) {
    renderSessionFile(store, session.row);
    renderIdentity(store);
  }
  if (ending) archiveSessions(store);
  const learn = await startLearning(store, {
    env,
    pending: store.observations.count({ pendingOnly: true }),
    ending,
    now: store.clock.now(),
  });
  return ['done', session ? `session ${session.created ? 'created' : 'updated'}; learn ${learn}` : `no observations; learn ${learn}`];
}
