/**
 * The hook process: `homunculus hook EVENT [--agent NAME] [--home DIR]`, reached from
 * bin.ts before the command-line framework loads. It always exits 0 with valid output,
 * and answers within HOOK_DEADLINE_MS even when the database is stuck.
 */
import { AGENTS, type Agent, HOOK_USAGE, hookForEvent } from '../capture/agents.js';
import { emptyOutput } from './output.js';
import { runHook } from './run.js';
import { readStdin } from './stdin.js';

export const HOOK_DEADLINE_MS = 15_000;

interface HookArgs {
  event: string;
  agent?: Agent;
  home?: string;
  help: boolean;
}

export function parseHookArgs(args: readonly string[]): HookArgs {
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

export async function main(args: readonly string[]): Promise<number> {
  const parsed = parseHookArgs(args);
  if (parsed.help) {
    process.stdout.write(HOOK_USAGE);
    return 0;
  }
  const hook = hookForEvent(parsed.event);
  let answered = false;
  const answer = (stdout: string): void => {
    if (answered) return;
    answered = true;
    if (stdout) process.stdout.write(`${stdout}\n`);
  };
  const bail = (): void => {
    answer(hook ? emptyOutput(parsed.agent ?? 'claude-code', hook) : '');
    process.exit(0);
  };
  process.on('uncaughtException', bail);
  process.on('unhandledRejection', bail);
  // Whatever is stuck, the agent gets its answer in time.
  const deadline = setTimeout(bail, HOOK_DEADLINE_MS);
  deadline.unref();
  try {
    const raw = await readStdin();
    const outcome = await runHook(parsed.event, raw, {
      ...(parsed.home ? { home: parsed.home } : {}),
      ...(parsed.agent ? { agent: parsed.agent } : {}),
    });
    answer(outcome.stdout);
  } catch {
    answer(hook ? emptyOutput(parsed.agent ?? 'claude-code', hook) : '');
  } finally {
    clearTimeout(deadline);
  }
  return 0;
}
