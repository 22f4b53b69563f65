/** `npm run bench:locomo -- --data FILE [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--replace-names] [--only bm25,full]` */
import { turnBenchCli } from './turn-cli.js';

await turnBenchCli('locomo');
