#!/usr/bin/env node
/**
 * Entry point and composition root: the only place that chooses a surface. Kept tiny: each
 * surface is loaded only when its command runs. Hooks run after every tool call, so `hook`
 * (after any global options) goes to hooks/ before the command-line framework loads.
 */
import { commandIndex } from './argv.js';

const at = commandIndex(process.argv);
if (process.argv[at] === 'hook') {
  const { main } = await import('../hooks/main.js');
  // Global options before `hook` (--home DIR) are the hook's own options too.
  process.exitCode = await main([...process.argv.slice(2, at), ...process.argv.slice(at + 1)]);
} else {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
}
