/** `npm run bench:realtalk -- --data DIR [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--replace-names] [--only bm25,full]` */
import { loadRealtalk } from './realtalk-data.js';
import { turnBenchCli } from './turn-cli.js';

await turnBenchCli('realtalk', (data) => ({
  samples: loadRealtalk(data),
  title: 'REALTALK turn-level retrieval',
  groups: [
    ['categories 1-3', () => true],
    ['1 multi-hop', (r) => r.category === 1],
    ['2 temporal', (r) => r.category === 2],
    ['3 commonsense', (r) => r.category === 3],
  ],
}));
