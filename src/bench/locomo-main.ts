/** `npm run bench:locomo -- --data FILE [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--replace-names] [--only bm25,full]` */
import { parseArgs } from 'node:util';
import type { Tuning } from '../search/tuning.js';
import { runLocomoBench } from './locomo.js';
import { machine } from './measure.js';

const USAGE =
  'usage: npm run bench:locomo -- --data FILE [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--replace-names] [--only bm25,vector,rrf,full]\n';

try {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      dump: { type: 'string' },
      'embed-cache': { type: 'string' },
      tuning: { type: 'string' },
      only: { type: 'string' },
      'replace-names': { type: 'boolean' },
    },
  });
  if (!values.data) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const report = await runLocomoBench({
    data: values.data,
    dump: values.dump,
    embedCache: values['embed-cache'],
    tuning: values.tuning ? (JSON.parse(values.tuning) as Partial<Tuning>) : undefined,
    only: values.only?.split(','),
    replaceNames: values['replace-names'],
  });
  process.stdout.write(`Machine: ${machine()}\n\n${report}\n`);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(1);
}
