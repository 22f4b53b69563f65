#!/usr/bin/env node
/**
 * Entry point and composition root: the only module that knows every surface. Each surface
 * loads only when its command runs. Hooks run after every tool call, so `hook` branches off
 * before the command-line framework loads; `mcp` is its own server process.
 */
import { surfaceCommand } from './route.js';

// Output into a closed pipe (`homunculus --help | head -3`) ends the process quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw err;
  });
}

const route = surfaceCommand(process.argv.slice(2));
if (route?.command === 'hook') {
  const { main } = await import('../hooks/main.js');
  process.exitCode = await main(route.args);
} else if (route?.command === 'mcp') {
  const { main } = await import('../mcp/main.js');
  process.exitCode = await main(route.args);
} else {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
}
