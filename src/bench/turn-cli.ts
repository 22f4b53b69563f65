/** The command line of the turn-level retrieval benches (LoCoMo, REALTALK): one set of flags, one report. */
import { parseArgs } from 'node:util';
import type { Tuning } from '../search/tuning.js';
import { type LocomoOptions, runLocomoBench } from './locomo.js';
import { machine } from './measure.js';

/** Parses the flags, runs the bench with what `dataset` adds for its data, prints the report; a bad call exits 2, a failure 1. */
export async function turnBenchCli(name: string, dataset: (data: string) => Partial<LocomoOptions> = () => ({})): Promise<void> {
  const usage = `usage: npm run bench:${name} -- --data PATH [--dump OUT.jsonl] [--embed-cache FILE] [--tuning JSON] [--replace-names | --first-person] [--only bm25,vector,rrf,full]\n`;
  try {
    const { values } = parseArgs({
      options: {
        data: { type: 'string' },
        dump: { type: 'string' },
        'embed-cache': { type: 'string' },
        tuning: { type: 'string' },
        only: { type: 'string' },
        'replace-names': { type: 'boolean' },
        'first-person': { type: 'boolean' },
      },
    });
    if (!values.data) {
      process.stderr.write(usage);
      process.exit(2);
    }
    const report = await runLocomoBench({
      data: values.data,
      dump: values.dump,
      embedCache: values['embed-cache'],
      tuning: values.tuning ? (JSON.parse(values.tuning) as Partial<Tuning>) : undefined,
      only: values.only?.split(','),
      replaceNames: values['replace-names'],
      firstPerson: values['first-person'],
      ...dataset(values.data),
    });
    process.stdout.write(`Machine: ${machine()}\n\n${report}\n`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
    process.exit(1);
  }
}
