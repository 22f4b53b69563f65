/** Which surface a command line names: `hook` and `mcp` run their own processes; everything else is the command line. */

export interface SurfaceRoute {
  command: 'hook' | 'mcp';
  /** The surface's own arguments, with the global --home and --json moved after its name. */
  args: string[];
}

const GLOBAL_WITH_VALUE = new Set(['--home']);
const GLOBAL_FLAGS = new Set(['--json']);

export function surfaceCommand(args: readonly string[]): SurfaceRoute | undefined {
  const globals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const flag = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (GLOBAL_WITH_VALUE.has(flag)) {
      globals.push(a);
      if (!a.includes('=') && args[i + 1] !== undefined) globals.push(args[++i] as string);
    } else if (GLOBAL_FLAGS.has(a)) globals.push(a);
    else if (a === 'hook' || a === 'mcp') return { command: a, args: [...args.slice(i + 1), ...globals] };
    else return undefined;
  }
  return undefined;
}
