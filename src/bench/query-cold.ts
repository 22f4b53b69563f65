/**
 * `npm run bench:query`: `homunculus query` as a user runs it, a new process per question, on a
 * store of 100,000 documents, beside grep over the same texts as files. Four ways side by side,
 * question by question so machine noise hits them alike:
 * - grep: `grep -rliF` every question word over 5,000 files of 20 documents;
 * - query --mode bm25: no model at all;
 * - query (hybrid), warm: the first hybrid query started `serve-query`, which keeps the
 *   sentence encoder loaded and answers later query processes over its socket;
 * - query (hybrid), cold: HOMUNCULUS_NO_WARM=1, so each process loads the encoder itself.
 * Vectors are synthetic (embedding 100k texts takes half an hour here) but stored under the
 * bundled encoder's fingerprint, so the query path is the real one. `--docs N` and `--runs N`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../core/clock.js';
import { useLiteProvider } from '../embed/use-lite.js';
import { Embedder } from '../search/embeddings.js';
import { openStore } from '../store/store.js';
import type { DocumentInput } from '../store/documents/index.js';
import { formatTable, machine, median, percentile } from './measure.js';
import { ingest, syntheticDocuments, syntheticQueries, syntheticVectors, writeSyntheticVectors } from './synthetic.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const TARGET_MS = 300;
const DOCS_PER_FILE = 20;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a positive whole number.`);
  return value;
}

/** A store of `docs` with synthetic vectors under the bundled encoder's fingerprint. */
function seed(home: string, docs: readonly DocumentInput[]): void {
  const store = openStore({ home, clock: fixedClock(new Date('2026-03-01T00:00:00Z')) });
  try {
    ingest(store, docs, new Date('2026-03-01T00:00:00Z'));
    const provider = useLiteProvider();
    writeSyntheticVectors(store, new Embedder(store, provider), syntheticVectors(docs.length, provider.dims));
  } finally {
    store.close();
  }
}

/** The same texts as files, the way transcripts sit on disk for grep. */
function writeCorpus(dir: string, docs: readonly DocumentInput[]): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < docs.length; i += DOCS_PER_FILE) {
    const text = docs
      .slice(i, i + DOCS_PER_FILE)
      .map((d) => d.text)
      .join('\n');
    writeFileSync(join(dir, `thread-${i / DOCS_PER_FILE}.txt`), `${text}\n`);
  }
}

interface Way {
  label: string;
  command: string;
  args: (question: string) => string[];
  env: NodeJS.ProcessEnv;
  /** grep exits 1 when nothing matches. */
  ok: readonly number[];
}

function timeOnce(way: Way, question: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(way.command, way.args(question), { env: way.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!way.ok.includes(result.status ?? -1))
    throw new Error(`${way.label} exited ${result.status}: ${result.stderr.toString().slice(0, 400)}`);
  return ms;
}

async function main(): Promise<void> {
  const count = flag('--docs', 100_000);
  const runs = flag('--runs', 20);
  const dir = mkdtempSync(join(tmpdir(), 'homunculus-bench-query-'));
  const home = join(dir, 'home');
  try {
    const docs = syntheticDocuments(count);
    seed(home, docs);
    writeCorpus(join(dir, 'corpus'), docs);
    const env: NodeJS.ProcessEnv = { ...process.env, HOMUNCULUS_HOME: home };
    delete env.HOMUNCULUS_NO_WARM;
    const cli = (extra: string[]) => (q: string) => [BIN, 'query', q, '--limit', '10', ...extra];
    const ways: Way[] = [
      { label: 'node -e 0', command: process.execPath, args: () => ['-e', '0'], env, ok: [0] },
      {
        label: 'grep -rliF (every word)',
        command: 'grep',
        args: (q) => ['-rliF', ...q.split(' ').flatMap((w) => ['-e', w]), join(dir, 'corpus')],
        env,
        ok: [0, 1],
      },
      { label: 'query --mode bm25', command: process.execPath, args: cli(['--mode', 'bm25']), env, ok: [0] },
      { label: 'query (hybrid, warm server)', command: process.execPath, args: cli([]), env, ok: [0] },
      {
        label: 'query (hybrid, no warm server)',
        command: process.execPath,
        args: cli([]),
        env: { ...env, HOMUNCULUS_NO_WARM: '1' },
        ok: [0],
      },
    ];
    const questions = syntheticQueries(docs, runs + 2, 17);
    const samples = ways.map(() => [] as number[]);
    // Two warm-up rounds: the first hybrid query starts the server, which then loads the encoder.
    for (const [round, question] of questions.entries()) {
      ways.forEach((way, i) => {
        const ms = timeOnce(way, question);
        if (round >= 2) samples[i]?.push(ms);
      });
      if (round === 0) await new Promise((r) => setTimeout(r, 3_000));
    }
    const grep = median(samples[1] as number[]);
    const rows = ways.map((way, i) => {
      const s = samples[i] as number[];
      const m = median(s);
      return [
        way.label,
        m,
        percentile(s, 90),
        `${(m / grep).toFixed(2)}x`,
        way.label.startsWith('query (hybrid, warm') ? `<= ${TARGET_MS} ms` : '',
      ];
    });
    console.log(
      [
        `## Cold query processes (${count.toLocaleString('en-US')} documents)`,
        '',
        `${runs} questions of 2-4 words, each asked of every way in turn, after 2 warm-up questions. ${machine()}.`,
        '',
        formatTable(['command', 'median ms', 'p90 ms', 'vs grep', 'target'], rows),
      ].join('\n'),
    );
  } finally {
    // The warm server stops by itself once its database is gone.
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
