/**
 * Which surface a command line names: `hook`, `mcp`, `dashboard`, `agent serve` (the
 * gateway) and `agent telegram` run their own processes; everything else is the command line.
 */
import { commandIndex } from './argv.js';

interface SurfaceRoute {
  command: 'hook' | 'mcp' | 'dashboard' | 'gateway' | 'telegram';
  /** The surface's own arguments, with the global options given before its name moved after it. */
  args: string[];
}

export function surfaceCommand(args: readonly string[]): SurfaceRoute | undefined {
  const argv = ['node', 'homunculus', ...args];
  const at = commandIndex(argv);
  const command = argv[at];
  if (command === 'agent' && argv[at + 1] === 'serve') return { command: 'gateway', args: [...argv.slice(at + 2), ...argv.slice(2, at)] };
  if (command === 'agent' && argv[at + 1] === 'telegram')
    return { command: 'telegram', args: [...argv.slice(at + 2), ...argv.slice(2, at)] };
  if (command !== 'hook' && command !== 'mcp' && command !== 'dashboard') return undefined;
  return { command, args: [...argv.slice(at + 1), ...argv.slice(2, at)] };
}
