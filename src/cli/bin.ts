#!/usr/bin/env node
/**
 * Entry point and composition root: the only module that knows every surface. Each surface
 * loads only when its command runs. Hooks run after every tool call, so `hook` goes to hooks/
 * before anything else loads; `mcp`, `dashboard` and
 * `agent serve` (the gateway) are their own server processes.
 */

import type { main as hookMain } from '../hooks/main.js';

// Output into a closed pipe (`homunculus --help | head -3`) ends the process quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw err;
  });
}

// What installed hooks run (`homunculus hook observe`) takes the shortest path.
const route =
  process.argv[2] === 'hook'
    ? { command: 'hook', args: process.argv.slice(3) }
    : (await import('./route.js')).surfaceCommand(process.argv.slice(2));
if (route?.command === 'hook') {
  // The build bundles the hook entry (one module graph of a few files instead of ~140);
  // a build without esbuild has only the plain modules.
  const bundled = new URL('../hooks/bundle/main.js', import.meta.url).href;
  const { main } = (await import(bundled).catch(() => import('../hooks/main.js'))) as { main: typeof hookMain };
  process.exitCode = await main(route.args);
} else if (route?.command === 'mcp') {
  const { main } = await import('../mcp/main.js');
  process.exitCode = await main(route.args);
} else if (route?.command === 'gateway') {
  const { main } = await import('../gateway/main.js');
  process.exitCode = await main(route.args);
} else if (route?.command === 'telegram') {
  const { main } = await import('../telegram/main.js');
  process.exitCode = await main(route.args);
} else if (route?.command === 'dashboard') {
  const { main } = await import('../dashboard/main.js');
  process.exitCode = await main(route.args);
} else {
  const { run } = await import('./program.js');
  process.exitCode = await run(process.argv);
}
