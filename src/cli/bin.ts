#!/usr/bin/env node
/**
 * Entry point and composition root: the only place that chooses a surface. Kept tiny: each
 * surface is loaded only when its command runs. Hooks run after every tool call, so `hook`
 * goes to hooks/ before the command-line framework (or anything else) loads.
 */

/** `hook` as the command: first (what installed hooks run), or after global options such as --home DIR. */
async function hookArgs(argv: readonly string[]): Promise<string[] | undefined> {
  if (argv[2] === 'hook') return argv.slice(3);
  const { commandIndex } = await import('./argv.js');
  const at = commandIndex(argv);
  // Global options before `hook` are the hook's own options too.
  return argv[at] === 'hook' ? [...argv.slice(2, at), ...argv.slice(at + 1)] : undefined;
}

const hook = await hookArgs(process.argv);
if (hook) {
  const { main } = await import('../hooks/main.js');
  process.exitCode = await main(hook);
} else {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
}
