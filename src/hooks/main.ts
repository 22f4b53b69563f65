/**
 * The hook process: `homunculus hook EVENT [--agent NAME] [--home DIR]`, reached from
 * bin.ts before the command-line framework loads. It reads its payload from stdin (bounded
 * in size, never blocking on a terminal), always exits 0 with valid output, and answers
 * within HOOK_DEADLINE_MS even when the database is stuck.
 */
import { fstatSync, readSync } from 'node:fs';
import { AGENTS, type Agent, HOOK_USAGE, hookForEvent } from '../capture/agents.js';
import { MAX_PAYLOAD_BYTES, type RawPayload } from '../capture/payload.js';
import { type CallOutcome, HOOK_BUDGET_MS, hookCallLine, recordHookCall } from '../core/hook-calls.js';
import { homePaths, resolveHome } from '../core/paths.js';
import { emptyOutput } from './output.js';
import { runHook } from './run.js';
import { type WatchdogRecord, startWatchdog } from './watchdog.js';

/** Both answer before the agent's own timeout (the budget) ends the hook without an answer. */
const HOOK_DEADLINE_MS = HOOK_BUDGET_MS - 2_000;
/** When the watchdog answers for a main thread that never came back (blocked on a stdin that never closes, a stuck call). */
const WATCHDOG_MS = HOOK_BUDGET_MS - 1_000;

/** Reads a stream to its end, keeping at most `cap` bytes (the rest is drained so the writer never blocks). */
async function readStream(stream: NodeJS.ReadableStream, cap = MAX_PAYLOAD_BYTES): Promise<RawPayload> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buf.length;
    if (kept < cap) {
      const part = buf.length > cap - kept ? buf.subarray(0, cap - kept) : buf;
      chunks.push(part);
      kept += part.length;
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > kept };
}

/**
 * Reads stdin with plain blocking reads (cheaper to start than process.stdin), falling back
 * to the stream when the descriptor is non-blocking. A terminal is not read at all.
 */
async function readStdin(cap = MAX_PAYLOAD_BYTES): Promise<RawPayload> {
  try {
    if (fstatSync(0).isCharacterDevice()) return { text: '', bytes: 0, truncated: false };
  } catch {
    return { text: '', bytes: 0, truncated: false };
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  const buf = Buffer.allocUnsafe(256 * 1024);
  try {
    for (;;) {
      const n = readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      bytes += n;
      if (kept < cap) {
        const take = Math.min(n, cap - kept);
        chunks.push(Buffer.from(buf.subarray(0, take)));
        kept += take;
      }
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EOF') return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > kept };
    if (code !== 'EAGAIN' || bytes > 0) throw err;
    return readStream(process.stdin, cap);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > kept };
}

interface HookArgs {
  event: string;
  agent?: Agent;
  home?: string;
  help: boolean;
}

function parseHookArgs(args: readonly string[]): HookArgs {
  const out: HookArgs = { event: '', help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const [flag, inline] =
      a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag === '--agent' || flag === '--home') {
      const value = inline ?? args[++i];
      if (flag === '--home' && value) out.home = value;
      if (flag === '--agent' && value && (AGENTS as readonly string[]).includes(value)) out.agent = value as Agent;
    } else if (!a.startsWith('-') && !out.event) out.event = a;
  }
  return out;
}

/** The telemetry line of a call the watchdog had to answer: the main thread never writes its own. */
function timeoutRecord(parsed: HookArgs, event: string): WatchdogRecord | undefined {
  try {
    const path = homePaths(resolveHome(parsed.home)).hookCalls;
    return {
      path,
      line: hookCallLine({ event: event || 'none', agent: parsed.agent ?? 'claude-code', ms: WATCHDOG_MS, outcome: 'timeout' }),
    };
  } catch {
    return undefined;
  }
}

export async function main(args: readonly string[]): Promise<number> {
  const parsed = parseHookArgs(args);
  if (parsed.help) {
    process.stdout.write(HOOK_USAGE);
    return 0;
  }
  const hook = hookForEvent(parsed.event);
  const empty = hook ? emptyOutput(parsed.agent ?? 'claude-code', hook) : '';
  // The observe hook runs after every tool call and never opens the store: a thread would
  // add a third to its cost, so it relies on the agent's own timeout (init installs one).
  const watchdog =
    hook === 'observe'
      ? { claim: () => true }
      : startWatchdog(WATCHDOG_MS, empty ? `${empty}\n` : '', timeoutRecord(parsed, hook ?? parsed.event));
  let answered = false;
  const answer = (stdout: string): void => {
    if (answered) return;
    answered = true;
    if (watchdog.claim() && stdout) process.stdout.write(`${stdout}\n`);
  };
  const bail = (outcome: CallOutcome): void => {
    answer(empty);
    try {
      // runHook never got to its own line: this call is logged here (0 = the process's start).
      recordHookCall(homePaths(resolveHome(parsed.home)).hookCalls, {
        event: hook ?? (parsed.event || 'none'),
        agent: parsed.agent ?? 'claude-code',
        ms: performance.now(),
        outcome,
      });
    } finally {
      process.exit(0);
    }
  };
  process.on('uncaughtException', () => bail('failed'));
  process.on('unhandledRejection', () => bail('failed'));
  // Whatever is stuck, the agent gets its answer in time.
  const deadline = setTimeout(() => bail('timeout'), HOOK_DEADLINE_MS);
  deadline.unref();
  try {
    const raw = await readStdin();
    const outcome = await runHook(parsed.event, raw, {
      ...(parsed.home ? { home: parsed.home } : {}),
      ...(parsed.agent ? { agent: parsed.agent } : {}),
      startedAt: 0,
    });
    answer(outcome.stdout);
  } catch {
    answer(empty);
  } finally {
    clearTimeout(deadline);
  }
  return 0;
}
