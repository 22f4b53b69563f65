/**
 * npm run bench:learn — runs the main job (`sync`: import, learn, consolidate, graph) on the
 * real Claude Code transcripts three times, on all of them, on the tuning half and on the
 * held-out half, each in a fresh home with the clock just after the last session. It scores
 * what was learned against the gold patterns of ../shared/bench (the reader's and ours,
 * bench/learning-gold-team.json): recall, a verdict per instinct (gold, a reader's note from
 * bench/learning-notes.json, or a stated rule) and the three targets. `--json` prints the scores.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sync } from '../app/capture.js';
import { invoke } from '../app/operation.js';
import { fixedClock } from '../core/clock.js';
import { ensureDir } from '../core/fs.js';
import { round } from '../core/text.js';
import { parseJsonObject } from '../store/json.js';
import { openStore } from '../store/store.js';
import { transcriptDir } from '../test-support/transcripts.js';
import { auditInstinct } from './audit.js';
import { type Transcript, repoRoot, transcripts } from './dev-transcripts.js';
import { useLiteProvider } from '../embed/use-lite.js';
import { groupRequestsByMeaning } from '../learn/meaning-apply.js';
import { type GoldItem, goldFile, type LearnedInstinct, notesFile, readableText, type Score, score, splitSessions } from './learn-gold.js';

const TARGETS = { recall: 0.6, junkRate: 0.1, usefulPer10: 1 };

async function learnFrom(root: string, set: readonly Transcript[]): Promise<{ instincts: LearnedInstinct[]; seconds: number }> {
  ensureDir(join(root, '.bench-tmp'));
  const dir = mkdtempSync(join(root, '.bench-tmp', 'learn-'));
  const last =
    set
      .map((t) => t.endedAt)
      .sort()
      .at(-1) ?? new Date().toISOString();
  const store = openStore({ home: join(dir, 'home'), clock: fixedClock(new Date(Date.parse(last) + 60_000)) });
  try {
    const started = performance.now();
    // HOME points at an empty directory: nothing of this machine's own agent history joins in.
    const ctx = { store, env: { ...process.env, HOME: dir } };
    await invoke(sync, ctx, { paths: set.map((t) => t.file), llm: false, embed: false });
    // What sync does with the bundled encoder after learning, without embedding every turn for search.
    const encoder = useLiteProvider();
    await groupRequestsByMeaning(store, (texts) => encoder.embed(texts));
    const seconds = (performance.now() - started) / 1000;
    const instincts = store.instincts.list().map((r) => ({
      key: r.key,
      title: r.title,
      trigger: r.trigger,
      action: r.action,
      evidence: r.evidence,
      documented: parseJsonObject(r.metadata).documented === true,
      auditFailures: auditInstinct({ key: r.key, trigger: r.trigger, action: r.action }),
    }));
    return { instincts, seconds };
  } finally {
    store.close();
    if (!process.env.HOMUNCULUS_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

function readGold(root: string): GoldItem[] {
  const reader = goldFile.parse(JSON.parse(readFileSync(join(root, '..', 'shared', 'bench', 'learning-gold-dev.json'), 'utf8')));
  const teamFile = join(root, 'bench', 'learning-gold-team.json');
  const team = existsSync(teamFile) ? goldFile.parse(JSON.parse(readFileSync(teamFile, 'utf8'))) : [];
  return [...reader.map((g) => ({ ...g, author: 'reader' as const })), ...team.map((g) => ({ ...g, author: 'team' as const }))];
}

const pct = (x: number): string => `${round(x * 100, 1)}%`;
const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED');

function summaryRow(name: string, s: Score, seconds: number): string {
  return [
    name,
    s.sessions,
    `${s.matched.length}/${s.learnable} (${pct(s.recall)}) ${mark(s.recall >= TARGETS.recall)}`,
    s.instincts,
    `${s.counts.useful}/${s.counts.trivial}/${s.counts.junk}/${s.counts.wrong}/${s.counts.unjudged}`,
    `${pct(s.junkRate)} ${mark(s.junkRate <= TARGETS.junkRate)}`,
    `${round(s.usefulPer10, 2)} ${mark(s.usefulPer10 >= TARGETS.usefulPer10)}`,
    round(seconds, 1),
  ].join(' | ');
}

function printDetail(name: string, s: Score): void {
  console.log(`\n### ${name}: every learned instinct\n`);
  const order = { useful: 0, trivial: 1, unjudged: 2, junk: 3, wrong: 4 };
  for (const j of [...s.judged].sort((a, b) => order[a.verdict] - order[b.verdict] || a.instinct.key.localeCompare(b.instinct.key))) {
    console.log(`- **${j.verdict}** (${j.why}; ${j.instinct.evidence} sessions) \`${j.instinct.key.slice(0, 90)}\``);
    console.log(`    ${readableText(j.instinct).replace(/\s+/g, ' ').slice(0, 300)}`);
  }
  console.log(`\nGold missed (${s.missed.length}): ${s.missed.join(', ') || 'none'}`);
}

async function main(): Promise<void> {
  const root = repoRoot();
  const dir = transcriptDir(root);
  if (!existsSync(dir)) throw new Error(`No transcripts at ${dir} (expected ../shared/data/claude-code-transcripts).`);
  const gold = readGold(root);
  const notesPath = join(root, 'bench', 'learning-notes.json');
  const notes = existsSync(notesPath) ? notesFile.parse(JSON.parse(readFileSync(notesPath, 'utf8'))) : [];
  const all = transcripts(dir);
  const { tune, heldOut } = splitSessions(all.map((t) => ({ id: t.id, startedAt: t.startedAt })));
  const sets: [string, Transcript[]][] = [
    ['all sessions', all],
    ['tuning half', all.filter((t) => tune.has(t.id))],
    ['held-out half', all.filter((t) => heldOut.has(t.id))],
  ];
  const results: { name: string; score: Score; seconds: number }[] = [];
  for (const [name, set] of sets) {
    const { instincts, seconds } = await learnFrom(root, set);
    results.push({ name, score: score(instincts, gold, notes, new Set(set.map((t) => t.id))), seconds });
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  const authors = `${gold.filter((g) => g.author === 'reader').length} by the reader, ${gold.filter((g) => g.author === 'team').length} by us`;
  console.log(`## bench:learn: ${all.length} real Claude Code sessions through sync; gold: ${gold.length} patterns (${authors})\n`);
  console.log(
    'set | sessions | gold recall (target 60%) | instincts | useful/trivial/junk/wrong/unjudged | junk or wrong, unjudged counted (target <= 10%) | useful per 10 sessions (target >= 1) | sync s',
  );
  console.log('---|---|---|---|---|---|---|---');
  for (const r of results) console.log(summaryRow(r.name, r.score, r.seconds));
  for (const r of results) printDetail(r.name, r.score);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
