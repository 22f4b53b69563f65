#!/usr/bin/env node
/**
 * Entry point. Kept tiny: each surface is loaded only when its command runs. Hooks run
 * after every tool call, so `hook` branches off before the command-line framework loads.
 */
if (process.argv[2] === 'hook') {
  const { main } = await import('../hooks/main.js');
  process.exitCode = await main(process.argv.slice(3));
} else {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
}
