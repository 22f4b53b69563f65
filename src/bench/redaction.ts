/**
 * `node dist/bench/redaction.js [DIR] [--samples N] [--rule NAME]`: runs the redactor over
 * every string real transcripts would send through the hooks (prompts, tool inputs, tool
 * responses, errors), and prints how many strings each rule changed, with samples of what
 * it changed to check by eye for false positives.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TranscriptReplay } from '../capture/transcript/replay.js';
import { RULE_NAMES, explainRedaction } from '../core/redact.js';
import { TRANSCRIPTS } from '../test-support/shared.js';

/** The capture cuts every text to this before redaction. */
const PRE_CUT = 16 * 1024;

function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value.trim()) out.push(value.slice(0, PRE_CUT));
  } else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
}

/** Every string a transcript's hook payloads carry beyond ids, paths of the session and times. */
function transcriptStrings(file: string): string[] {
  const replay = new TranscriptReplay(file);
  const out: string[] = [];
  const take = (events: Iterable<{ payload: Record<string, unknown> }>) => {
    for (const { payload: p } of events) stringsOf([p.prompt, p.tool_name, p.tool_input, p.tool_response, p.error, p.reason], out);
  };
  for (const line of readFileSync(file, 'utf8').split('\n')) take(replay.feed(line));
  take(replay.finish());
  if (replay.stats.title) out.push(replay.stats.title);
  return out;
}

/** The first change in a string with some context, on one line. */
function excerpt(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  const from = Math.max(0, i - 60);
  return `${flat(before.slice(from, i + 60))}  =>  ${flat(after.slice(from, i + 40))}`;
}

interface Options {
  dir: string;
  samples: number;
  rule?: string;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { dir: TRANSCRIPTS, samples: 3 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--samples') options.samples = Number(argv[++i]);
    else if (a === '--rule') options.rule = argv[++i];
    else options.dir = a;
  }
  return options;
}

function main(options: Options): void {
  const files = readdirSync(options.dir).filter((f) => f.endsWith('.jsonl'));
  const counts = new Map<string, number>(RULE_NAMES.map((n) => [n, 0]));
  const samples = new Map<string, string[]>();
  let strings = 0;
  let changed = 0;
  const started = process.hrtime.bigint();
  for (const file of files) {
    for (const text of transcriptStrings(join(options.dir, file))) {
      strings++;
      const r = explainRedaction(text);
      if (r.rules.length) changed++;
      for (const rule of r.rules) {
        counts.set(rule, (counts.get(rule) ?? 0) + 1);
        const list = samples.get(rule) ?? [];
        if (list.length < options.samples && (!options.rule || options.rule === rule)) list.push(excerpt(text, r.text));
        samples.set(rule, list);
      }
    }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(
    `${files.length} transcripts, ${strings} strings, ${changed} changed (${((100 * changed) / strings).toFixed(2)}%), ${ms.toFixed(0)} ms\n`,
  );
  console.log('| rule | strings changed |\n|---|---:|');
  for (const [rule, n] of counts) console.log(`| ${rule} | ${n} |`);
  for (const [rule, list] of samples) {
    if (!list.length || (options.rule && options.rule !== rule)) continue;
    console.log(`\n${rule}:`);
    for (const s of list) console.log(`  ${s}`);
  }
}

main(parseArgs(process.argv.slice(2)));
