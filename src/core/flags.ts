/**
 * Flags of the surfaces that run without the command-line framework (`mcp`, `dashboard`):
 * `--name`, `--name value` and `--name=value`, each known in advance; anything else is a
 * usage error that says where the help is. Pure.
 */
import { UsageError } from './errors.js';
import { reportError } from './report.js';

export interface FlagSpec {
  command: string;
  /** Flags that take no value (`-h` is `--help`). */
  booleans: readonly string[];
  /** Flags that take one. */
  values: readonly string[];
}

/**
 * An option's value as given: none, an empty one, or the next option taken for it (`--home
 * --no-open`, which would make a directory named `--no-open`) is a usage error. Pure.
 */
export function optionValue(flag: string, value: string | undefined, hint?: string): string {
  if (value === undefined || value.trim() === '' || value.startsWith('--'))
    throw new UsageError(`${flag} needs a value${value?.startsWith('--') ? `, not the option ${value}` : ''}.`, hint);
  return value;
}

export function readFlags(args: readonly string[], spec: FlagSpec): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  const help = `See \`homunculus ${spec.command} --help\`.`;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = a === '-h' ? '--help' : eq > 0 ? a.slice(0, eq) : a;
    const name = flag.slice(2);
    if (flag.startsWith('--') && spec.booleans.includes(name) && eq < 0) out[name] = true;
    else if (flag.startsWith('--') && spec.values.includes(name)) {
      out[name] = optionValue(flag, eq > 0 ? a.slice(eq + 1) : args[++i], help);
    } else throw new UsageError(`Unknown option ${JSON.stringify(a)} for homunculus ${spec.command}.`, help);
  }
  return out;
}

/** A port flag's value: a whole number from 0 (any free port) to 65535. */
export function portFlag(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65_535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(text)}.`, 'Use 0 for any free port.');
  return n;
}

/**
 * The whole of a long-running surface's entry point (the dashboard, the gateway, the bot):
 * its flags read, `--help` printed, `run` awaited, and any error reported (as JSON with --json).
 */
export async function flagsMain(
  args: readonly string[],
  spec: FlagSpec,
  usage: string,
  run: (flags: Record<string, string | true>) => Promise<number | void>,
): Promise<number> {
  try {
    const f = readFlags(args, spec);
    if (f.help) {
      process.stdout.write(usage);
      return 0;
    }
    return (await run(f)) ?? 0;
  } catch (err) {
    return reportError(err, args.includes('--json'));
  }
}
