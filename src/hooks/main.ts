/**
 * The hook process: `homunculus hook EVENT [--agent NAME] [--home DIR]`, reached from
 * bin.ts before the command-line framework loads. It reads its payload from stdin (bounded
 * in size, never blocking on a terminal), always exits 0 with valid output, and answers
 * within HOOK_DEADLINE_MS even when the database is stuck.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { AGENTS, type Agent, HOOK_USAGE, hookForEvent } from '../capture/agents.js';
import { MAX_PAYLOAD_BYTES, type RawPayload } from '../capture/payload.js';
import { type CallOutcome, HOOK_BUDGET_MS, hookCallLine, recordHookCall } from '../core/hook-calls.js';
import { logHook } from './log.js';
import { homePaths, resolveHome } from '../core/paths.js';
import { emptyOutput } from './output.js';
import { runHook } from './run.js';
import { type WatchdogRecord, startWatchdog } from './watchdog.js';

/** Both answer before the agent's own timeout (the budget) ends the hook without an answer. */
const HOOK_DEADLINE_MS = HOOK_BUDGET_MS - 2_000;
/** When the watchdog answers for a main thread that never came back (blocked on a stdin that never closes, a stuck call). */
const WATCHDOG_MS = HOOK_BUDGET_MS - 1_000;

/** The time left until `ms` after the process started: the agent's clock runs from the spawn, not from our modules being loaded (seconds on a busy machine). */
const fromStart = (ms: number): number => Math.max(0, Math.round(ms - performance.now()));

/** What a hook read of its payload: at most `cap` bytes kept, every byte counted (the rest is drained so the writer never blocks). */
class Payload {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private bytes = 0;
  constructor(private readonly cap: number) {}

  add(buf: Buffer): void {
    this.bytes += buf.length;
    if (this.kept >= this.cap) return;
    const part = buf.length > this.cap - this.kept ? buf.subarray(0, this.cap - this.kept) : buf;
    this.chunks.push(Buffer.from(part));
    this.kept += part.length;
  }

  /**
   * Whether what arrived is a whole JSON object already: an agent that keeps stdin open after
   * writing its payload is answered then, not at the deadline.
   */
  complete(): boolean {
    const last = this.chunks.at(-1);
    if (!last || this.bytes > this.kept || last[last.length - 1] !== 0x7d) return false;
    try {
      JSON.parse(Buffer.concat(this.chunks).toString('utf8'));
      return true;
    } catch {
      return false;
    }
  }

  result(): RawPayload {
    return { text: Buffer.concat(this.chunks).toString('utf8'), bytes: this.bytes, truncated: this.bytes > this.kept };
  }
}

async function readStream(stream: NodeJS.ReadableStream, into: Payload): Promise<RawPayload> {
  for await (const chunk of stream) {
    into.add(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    if (into.complete()) break;
  }
  return into.result();
}

/**
 * Stdin opened anew without blocking (Linux: a pipe's own description, so the agent's end is
 * untouched): a read that would wait says so at once, and the rest is read on the event loop,
 * where the deadline can still answer and exit 0. Undefined where it cannot be opened so.
 */
function nonBlockingStdin(): number | undefined {
  try {
    return openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
}

/**
 * Reads stdin with plain reads (cheaper to start than process.stdin) while data is there,
 * then on the stream when the writer is slow to close it; a socket on the stream from the
 * start. A terminal is not read at all.
 */
async function readStdin(cap = MAX_PAYLOAD_BYTES): Promise<RawPayload> {
  const payload = new Payload(cap);
  let pipe: boolean;
  try {
    const stdin = fstatSync(0);
    if (stdin.isCharacterDevice()) return payload.result();
    // A socket (what Node-based agents hand a hook) cannot be reopened without blocking: a
    // blocking read of one held open would outlast the deadline, so it is read on the stream.
    if (stdin.isSocket()) return await readStream(process.stdin, payload);
    pipe = stdin.isFIFO();
  } catch {
    return payload.result();
  }
  // A file ends; a pipe may be held open, so it is read without blocking.
  const fd = (pipe && nonBlockingStdin()) || 0;
  const buf = Buffer.allocUnsafe(256 * 1024);
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return payload.result();
      payload.add(buf.subarray(0, n));
      if (fd !== 0 && payload.complete()) return payload.result();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EOF') return payload.result();
    if (code !== 'EAGAIN') throw err;
    return readStream(process.stdin, payload);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

interface HookArgs {
  event: string;
  agent?: Agent;
  /** An --agent value that names no agent: the payload decides, and the log says so. */
  unknownAgent?: string;
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
      else if (flag === '--agent' && value) out.unknownAgent = value;
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
      : startWatchdog(fromStart(WATCHDOG_MS), empty ? `${empty}\n` : '', timeoutRecord(parsed, hook ?? (parsed.event ? 'unknown' : '')));
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
        event: hook ?? (parsed.event ? 'unknown' : 'none'),
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
  const deadline = setTimeout(() => bail('timeout'), fromStart(HOOK_DEADLINE_MS));
  deadline.unref();
  try {
    const raw = await readStdin();
    const outcome = await runHook(parsed.event, raw, {
      ...(parsed.home ? { home: parsed.home } : {}),
      ...(parsed.agent ? { agent: parsed.agent } : {}),
      startedAt: 0,
    });
    answer(outcome.stdout);
    if (parsed.unknownAgent)
      logHook(
        homePaths(resolveHome(parsed.home)).hookLog,
        `--agent ${JSON.stringify(parsed.unknownAgent)} names no agent (${AGENTS.join(', ')}): the agent was taken from the payload`,
      );
  } catch {
    answer(empty);
  } finally {
    clearTimeout(deadline);
  }
  return 0;
}
