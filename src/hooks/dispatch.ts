/**
 * Every hook but observe, given an open store: the spool drained, what the hook saw
 * recorded (capture/), and the answer built from what context/ injects. A failed write is
 * logged and never costs the context.
 */
import type { HookInput, HookName } from '../capture/agents.js';
import { recordLifecycle, recordPrompt, recordToolCall, recordTrailingPatches } from '../capture/record.js';
import { drainSpool } from '../capture/spool/drain.js';
import type { ProjectInfo } from '../core/project.js';
import { projectIn } from '../core/project-alias.js';
import type { InContext } from '../context/in-context.js';
import type { Store } from '../store/store.js';
import { logHook } from './log.js';
import { formatOutput, startRidesFirstPrompt, withinOutput } from './output.js';
import type { HookOutcome, HookStatus } from './run.js';

interface HookCall {
  hook: HookName;
  input: HookInput;
  /** Resolved once per call, from the payload's cwd. */
  project: ProjectInfo;
  store: Store;
  env: NodeJS.ProcessEnv;
  log: string;
}

type Recorded = { status: HookStatus; detail?: string };

/** Records what the hook observed; for context hooks a failed write must not cost the context. */
function tryRecord(log: string, label: string, fn: () => Recorded): Recorded {
  try {
    return fn();
  } catch (err) {
    logHook(log, `${label}: not recorded`, err);
    return { status: 'failed', detail: err instanceof Error ? err.message : String(err) };
  }
}

const answer = (call: HookCall, context: string, r: Recorded): HookOutcome => ({
  hook: call.hook,
  stdout: formatOutput(call.input.agent, call.hook, call.input.event, context),
  status: r.status,
  ...(r.detail ? { detail: r.detail } : {}),
});

/** Context for a payload without a cwd comes from the directory the agent ran the hook in. */
const contextProject = (call: HookCall): ProjectInfo =>
  call.input.cwd ? call.project : projectIn(process.cwd(), call.store.paths.projectAliases);

export async function dispatch(call: HookCall): Promise<HookOutcome> {
  const { hook, input, project, store, log } = call;
  tryRecord(log, `${hook}: draining the spool`, () => (drainSpool(store, store.paths.home), { status: 'done' }));
  switch (hook) {
    case 'observe':
      return answer(call, '', { status: 'ignored', detail: 'observe never opens the store' });
    case 'recall':
      return recall(call);
    case 'start': {
      const r = tryRecord(log, 'start', () => recordLifecycle(store, input, project, 'start'));
      // A resumed conversation still holds the block its start was given: a second one would repeat it.
      if (input.reason === 'resume') return answer(call, '', r);
      return start(call, r);
    }
    case 'prompt':
      return prompt(call);
    case 'stop':
      return stop(call);
  }
}

/** The start block, remembered for the session's prompts; held for the first of them where the client would lose it. */
async function start(call: HookCall, r: Recorded): Promise<HookOutcome> {
  const { input, store, log } = call;
  const [{ startInjection }, { rememberStart }] = await Promise.all([import('../context/inject.js'), import('../context/in-context.js')]);
  const given = await startInjection(store, contextProject(call), input.sessionId, input.agent);
  const hold = startRidesFirstPrompt(input.agent) && Boolean(input.sessionId);
  const kept = tryRecord(
    log,
    'start: what it gave',
    () => (rememberStart(store, input.agent, input.sessionId, given, hold), { status: 'done' }),
  );
  // Not remembered, not held: given now rather than lost.
  return answer(call, hold && kept.status === 'done' ? '' : given.text, r);
}

/**
 * What the session holds from us, read once (`take`: a start block held for this prompt is taken
 * out with it), and how a hook adds what it gave; a record that cannot be read or written costs
 * only the repetition it prevents.
 */
async function sessionHolding(call: HookCall, label: string, take: boolean) {
  const { input, store, log } = call;
  const { inContext, takeInContext, rememberGiven } = await import('../context/in-context.js');
  let held: InContext = { keys: new Set(), start: '' };
  const read = take ? takeInContext : inContext;
  tryRecord(log, `${label}: what the session holds`, () => ((held = read(store, input.agent, input.sessionId)), { status: 'done' }));
  const onGiven = (keys: string[]): void =>
    void tryRecord(
      log,
      `${label}: what it gave`,
      () => (rememberGiven(store, input.agent, input.sessionId, held, keys), { status: 'done' }),
    );
  return { held, onGiven };
}

/** A prompt: what it asks about that the session does not hold yet, after the start block when it was held for it. */
async function prompt(call: HookCall): Promise<HookOutcome> {
  const { input, project, store, log } = call;
  const r = tryRecord(log, 'prompt', () => recordPrompt(store, input, project));
  if (!input.prompt) return answer(call, '', r);
  const [{ promptInjection }, { held, onGiven }] = await Promise.all([
    import('../context/inject.js'),
    sessionHolding(call, 'prompt', true),
  ]);
  const context = await promptInjection(store, {
    project: contextProject(call),
    prompt: input.prompt,
    sessionId: input.sessionId,
    skip: held.keys,
    agent: input.agent,
    onGiven,
  });
  return answer(call, withinOutput([held.start, context]), r);
}

/** After an edit: recorded at once (not spooled), then earlier sessions that touched the file, less what the session holds. */
async function recall(call: HookCall): Promise<HookOutcome> {
  const { input, project, store } = call;
  const r = recordToolCall(store, input, project);
  const files = r.observation?.files ?? [];
  if (!input.tool || files.length === 0) return answer(call, '', r);
  const [{ recallContext }, { exportedKeys }, { held, onGiven }] = await Promise.all([
    import('../context/recall.js'),
    import('../context/exported.js'),
    sessionHolding(call, 'recall', false),
  ]);
  const context = recallContext(store, {
    sessionId: input.sessionId,
    toolUseId: input.tool.toolUseId,
    files,
    project,
    skip: new Set([...held.keys, ...exportedKeys(project.root, input.agent)]),
    onGiven,
  });
  return answer(call, context, r);
}

/** The session's summary and files brought up to date, identity re-rendered, and learning started in the background. */
async function stop(call: HookCall): Promise<HookOutcome> {
  const { input, project, store, env, log } = call;
  // Before the turn closes, so its summary counts them.
  tryRecord(log, 'stop: patches after the last call', () => ({
    status: 'done',
    detail: String(recordTrailingPatches(store, input, project)),
  }));
  const [{ closeTurn }, { renderIdentity }, { startLearning }] = await Promise.all([
    import('../capture/sessions/close.js'),
    import('../view/render.js'),
    import('../learn/start.js'),
  ]);
  const closed = closeTurn(store, input, project);
  if (!closed) return answer(call, '', { status: 'ignored', detail: 'no session id in the payload' });
  if (closed.session) renderIdentity(store);
  const learn = await startLearning(store, { env, ending: closed.ending, now: store.clock.now() });
  const session = closed.session;
  const detail = session ? `session ${session.created ? 'created' : 'updated'}; learn ${learn}` : `no observations; learn ${learn}`;
  return answer(call, '', { status: 'done', detail });
}
