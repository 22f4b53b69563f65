/** `npm run bench:realtalk -- --data DIR [--dump OUT.jsonl] [--embed-cache FILE] [--replace-names] [--only bm25,full]` */
import { parseArgs } from 'node:util';
import { runLocomoBench } from './locomo.js';
import { machine } from './measure.js';
import { loadRealtalk } from './realtalk-data.js';

const USAGE =
  'usage: npm run bench:realtalk -- --data DIR [--dump OUT.jsonl] [--embed-cache FILE] [--replace-names] [--only bm25,vector,rrf,full]\n';

try {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      dump: { type: 'string' },
      'embed-cache': { type: 'string' },
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
    samples: loadRealtalk(values.data),
    title: 'REALTALK turn-level retrieval',
    groups: [
      ['categories 1-3', () => true],
      ['1 multi-hop', (r) => r.category === 1],
      ['2 temporal', (r) => r.category === 2],
      ['3 commonsense', (r) => r.category === 3],
    ],
    dump: values.dump,
    embedCache: values['embed-cache'],
    only: values.only?.split(','),
    replaceNames: values['replace-names'],
  });
  process.stdout.write(`Machine: ${machine()}\n\n${report}\n`);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(1);
}
