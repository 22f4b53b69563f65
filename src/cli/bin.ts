#!/usr/bin/env node
/** Entry point. Kept tiny: each surface is loaded only when its command runs. */
const { run } = await import('./program.js');
process.exitCode = await run(process.argv);
