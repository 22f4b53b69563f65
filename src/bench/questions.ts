/**
 * npm run bench:questions — questions a developer asks their memory about past sessions
 * (../shared/bench/coding-questions-dev.json: 40 about what came late in a session, 20 about
 * its main topic), asked of `query` after a real `sync` of the 116 dev transcripts, beside a
 * grep over the raw transcripts. A question is answered at rank k when the first result that
 * belongs to one of its sessions (the session, or one of its turns) comes k-th. Questions at
 * even and odd positions are reported apart too. `--bm25` skips the embedding model.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sync } from '../app/capture.js';
import { ask } from '../app/chat.js';
import { query } from '../app/memory.js';
import { invoke } from '../app/operation.js';
import { fixedClock } from '../core/clock.js';
import { ensureDir } from '../core/fs.js';
import { round } from '../core/text.js';
import { openStore } from '../store/store.js';
import { transcriptDir } from '../test-support/transcripts.js';
import { repoRoot, transcripts } from './dev-transcripts.js';
import { type HitRates, type Question, firstHit, grepRank, hitRates, questionsFile, sessionOf, sessionOfRef } from './questions-score.js';

const LIMIT = 30;

const cell = (r: HitRates): string => `${round(r.at1, 2)} / ${round(r.at5, 2)} / ${round(r.at10, 2)}`;

async function main(): Promise<void> {
  const root = repoRoot();
  const bm25 = process.argv.includes('--bm25');
  const questions = questionsFile.parse(JSON.parse(readFileSync(join(root, '..', 'shared', 'bench', 'coding-questions-dev.json'), 'utf8')));
  const all = transcripts(transcriptDir(root));
  const last =
    all
      .map((t) => t.endedAt)
      .sort()
      .at(-1) ?? new Date().toISOString();
  ensureDir(join(root, '.bench-tmp'));
  const dir = mkdtempSync(join(root, '.bench-tmp', 'questions-'));
  const store = openStore({ home: join(dir, 'home'), clock: fixedClock(new Date(Date.parse(last) + 60_000)) });
  try {
    const ctx = { store, env: { ...process.env, HOME: dir } };
    const started = performance.now();
    await invoke(sync, ctx, { paths: all.map((t) => t.file), llm: false, embed: !bm25 });
    const syncSeconds = (performance.now() - started) / 1000;
    const texts = new Map(all.map((t) => [t.id, readFileSync(t.file, 'utf8').toLowerCase()]));
    const ranks: { q: Question; ours: number; ask: number; grep: number; half: number }[] = [];
    for (const [i, q] of questions.entries()) {
      const res = await invoke(query, ctx, { query: q.question, limit: LIMIT, mode: bm25 ? 'bm25' : 'hybrid' });
      ranks.push({
        q,
        ours: firstHit(res.results.map(sessionOf), q.session_ids),
        // `ask` without a model: the numbered sources, in the order the model would read them.
        ask: firstHit(
          (await invoke(ask, ctx, { question: q.question })).sources.map((x) => sessionOfRef(x.ref)),
          q.session_ids,
        ),
        grep: firstHit(grepRank(q.question, texts), q.session_ids),
        half: i % 2,
      });
    }
    const rows: [string, (r: (typeof ranks)[number]) => boolean][] = [
      ['late in a session', (r) => r.q.late],
      ['main topic', (r) => !r.q.late],
      ['late, even half', (r) => r.q.late && r.half === 0],
      ['late, odd half', (r) => r.q.late && r.half === 1],
      ['main, even half', (r) => !r.q.late && r.half === 0],
      ['main, odd half', (r) => !r.q.late && r.half === 1],
    ];
    const scores = rows.map(([name, pick]) => {
      const set = ranks.filter(pick);
      return { name, ours: hitRates(set.map((r) => r.ours)), ask: hitRates(set.map((r) => r.ask)), grep: hitRates(set.map((r) => r.grep)) };
    });
    if (process.argv.includes('--json')) return void console.log(JSON.stringify({ syncSeconds, scores }, null, 2));
    console.log(
      `## bench:questions: ${questions.length} questions, ${all.length} sessions (${bm25 ? 'BM25 only' : 'hybrid'}; sync ${round(syncSeconds, 1)} s)\n`,
    );
    console.log('questions | n | query hit@1 / @5 / @10 | ask (sources) hit@1 / @5 / @10 | grep hit@1 / @5 / @10');
    console.log('---|---|---|---|---');
    for (const s of scores) console.log(`${s.name} | ${s.ours.questions} | ${cell(s.ours)} | ${cell(s.ask)} | ${cell(s.grep)}`);
    if (process.argv.includes('--misses'))
      for (const r of ranks.filter((x) => x.ours === 0 || x.ours > 5))
        console.log(`- ${r.q.id} (ours ${r.ours}, grep ${r.grep}): ${r.q.question}`);
  } finally {
    store.close();
    if (!process.env.HOMUNCULUS_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
