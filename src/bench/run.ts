/** `npm run bench`: every benchmark, one after another, printed as Markdown tables. */
import { machine } from './measure.js';
import { runCoreBench } from './core.js';
import { runGraphBench } from './graph.js';
import { runMcpBench } from './mcp.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLocomoBench } from './locomo.js';
import { runSearchBench } from './search.js';

const LOCOMO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'bench', 'locomo-dev.json');

interface Bench {
  name: string;
  run: () => Promise<string>;
}

const BENCHES: Bench[] = [
  { name: 'core', run: () => runCoreBench() },
  { name: 'mcp', run: () => runMcpBench() },
  { name: 'graph', run: () => runGraphBench() },
  { name: 'search', run: () => runSearchBench() },
  {
    name: 'locomo',
    run: async () => (existsSync(LOCOMO) ? runLocomoBench({ data: LOCOMO }) : `## LoCoMo\n\nskipped: ${LOCOMO} not found`),
  },
];

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
console.log(`# Homunculus benchmarks\n\nMachine: ${machine()}\nDate: ${new Date().toISOString()}\n`);
for (const bench of BENCHES) {
  if (only.length && !only.includes(bench.name)) continue;
  const started = Date.now();
  console.log(await bench.run());
  console.error(`(${bench.name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
