/**
 * npm run bench:learn — replays the real Claude Code transcripts session by session through
 * capture (for now the test-support converter) and `learn`, as if each stop hook ran at the
 * session's end, then reports what was learned: instincts and episodes per 100 sessions, the
 * share of instincts an independent rule set rejects, ten example instincts, and the
 * median time of a learning run.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../core/clock.js';
import { round } from '../core/text.js';
import { currentConfidence } from '../learn/records.js';
import { runLearn } from '../learn/run.js';
import { parseJsonObject } from '../store/json.js';
import { openStore } from '../store/store.js';
import { insertSession, loadTranscripts, transcriptDir } from '../test-support/transcripts.js';
import { renderEpisodes } from '../view/episodes.js';
import { renderAll } from '../view/render.js';
import { auditInstinct } from './audit.js';

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the bench script');
    dir = up;
  }
  return dir;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? ((s[Math.floor((s.length - 1) / 2)] as number) + (s[Math.ceil((s.length - 1) / 2)] as number)) / 2 : 0;
};

async function main(): Promise<void> {
  const root = repoRoot();
  const dir = transcriptDir(root);
  if (!existsSync(dir)) throw new Error(`No transcripts at ${dir} (expected ../shared/data/claude-code-transcripts).`);
  mkdirSync(join(root, '.bench-tmp'), { recursive: true });
  const home = mkdtempSync(join(root, '.bench-tmp', 'learn-'));
  const sessions = loadTranscripts(dir, { remote: 'https://github.com/entireio/cli.git' });
  const base = openStore({ home });
  const times: number[] = [];
  const checkpoints: string[] = [];
  let observations = 0;
  try {
    for (const [i, session] of sessions.entries()) {
      observations += insertSession(base, session);
      // The stop hook runs at the session's end: learning sees the clock of that moment.
      const store = { ...base, clock: fixedClock(new Date(Date.parse(session.endedAt) + 60_000)) };
      const started = performance.now();
      const report = await runLearn(store, { quiet: true });
      times.push(performance.now() - started);
      if (report.errors.length) console.error(`session ${session.sessionId}: ${report.errors.map((e) => e.message).join('; ')}`);
      if ((i + 1) % 25 === 0 || i === sessions.length - 1) {
        checkpoints.push(
          `  after ${String(i + 1).padStart(3)} sessions: ${base.instincts.list().length} instincts, ${base.episodes.list().length} episodes`,
        );
      }
    }
    const last = sessions.at(-1);
    const store = { ...base, clock: fixedClock(new Date(Date.parse(last?.endedAt ?? new Date().toISOString()) + 60_000)) };
    renderAll(store);
    renderEpisodes(store);
    const instincts = base.instincts.list();
    const episodes = base.episodes.list();
    const audited = instincts.map((r) => ({ row: r, failures: auditInstinct({ key: r.key, trigger: r.trigger, action: r.action }) }));
    const failing = audited.filter((a) => a.failures.length > 0);
    const per100 = (n: number): number => round((n / sessions.length) * 100, 1);
    const byMiner = new Map<string, number>();
    for (const r of instincts) {
      const miner = String(parseJsonObject(r.metadata).miner ?? 'other');
      byMiner.set(miner, (byMiner.get(miner) ?? 0) + 1);
    }
    console.log(`bench:learn — ${sessions.length} real Claude Code sessions, ${observations} observations replayed through learn`);
    console.log(checkpoints.join('\n'));
    console.log(
      `instincts: ${instincts.length} (${per100(instincts.length)} per 100 sessions) — ${[...byMiner.entries()].map(([m, n]) => `${m} ${n}`).join(', ')}`,
    );
    console.log(`episodes:  ${episodes.length} (${per100(episodes.length)} per 100 sessions)`);
    console.log(
      `independent audit: ${failing.length}/${instincts.length} instincts fail (${instincts.length ? round((failing.length / instincts.length) * 100, 1) : 0}%)`,
    );
    for (const f of failing) console.log(`  fails ${f.row.key}: ${f.failures.join(', ')}`);
    console.log(`learn run per session: median ${round(median(times), 1)} ms, max ${round(Math.max(...times), 1)} ms`);
    console.log('\nExample instincts (highest confidence first, at most 4 per miner):');
    const shown = new Map<string, number>();
    const now = store.clock.now();
    const examples = [...instincts]
      .sort((a, b) => currentConfidence(b, now) - currentConfidence(a, now) || b.evidence - a.evidence || a.key.localeCompare(b.key))
      .filter((r) => {
        const miner = String(parseJsonObject(r.metadata).miner ?? 'other');
        const n = shown.get(miner) ?? 0;
        shown.set(miner, n + 1);
        return n < 4;
      })
      .slice(0, 10);
    for (const r of examples) {
      console.log(`- ${r.key}  [${r.category}, ${r.evidence} sessions, confidence ${currentConfidence(r, now).toFixed(2)}]`);
      console.log(`    ${r.trigger} -> ${r.action}`);
    }
    console.log('\nEpisodes (sample):');
    for (const e of episodes.slice(0, 8)) console.log(`- ${e.title} (${e.occurrences} session${e.occurrences === 1 ? '' : 's'})`);
    if (process.env.HOMUNCULUS_BENCH_KEEP) console.log(`\nRendered view kept in ${home}`);
  } finally {
    base.close();
    if (!process.env.HOMUNCULUS_BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
