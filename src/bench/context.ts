/**
 * npm run bench:context — what the agent is shown, scored. The history (the 81 dev sessions
 * that started first) goes through the real `sync` into a fresh home with the clock at the
 * start of the rest; then, for each prompt of bench/context-gold.json (taken from the later
 * sessions), the start hook's and the prompt hook's injections are built as the hooks build
 * them and scored against what would have helped (at session start: what any of the session's
 * prompts needed, and what the learning gold's readers saw at work in that session): precision and recall of the injected
 * lines and the share of points with anything irrelevant. The gold's prompts are split in two
 * (even and odd positions) and each half is reported, beside the whole. `--json` prints it.
 * `--now DATE` sets the clock instead (history that has aged, as a user who syncs it later has it).
 * `--progressive`: each later session's history also holds every later session that ended
 * before it started (synced in turn, the clock at its start), as a user's store would.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sync } from '../app/capture.js';
import { invoke } from '../app/operation.js';
import { TranscriptReplay } from '../capture/transcript/replay.js';
import { fixedClock } from '../core/clock.js';
import { ensureDir } from '../core/fs.js';
import { detectProject } from '../core/project.js';
import { round } from '../core/text.js';
import { promptInjection, startInjection } from '../context/inject.js';
import { fromRow, plainLine } from '../context/plain.js';
import { openStore, withClock } from '../store/store.js';
import { transcriptDir } from '../test-support/transcripts.js';
import { type ContextScore, type Judged, contextGoldFile, injectedLines, judge, patternsOf, total } from './context-gold.js';
import { type Transcript, repoRoot, transcripts } from './dev-transcripts.js';
import { goldFile } from './learn-gold.js';

const HISTORY_SESSIONS = 81;
/** The gold's prompts up to here are ours; those after, a second reader's, written blind to the hooks later on. */
const FIRST_READER = 48;
const PROGRESSIVE = process.argv.includes('--progressive');
/** `--now DATE`: the clock for the whole replay, as a user who syncs old history sees it (default: the start of the later sessions). */
const AT = ((i: number): string | undefined => {
  if (i < 0) return undefined;
  const at = new Date(process.argv[i + 1] ?? '');
  if (Number.isNaN(at.getTime())) throw new Error('--now needs a date, e.g. --now 2026-11-26');
  return at.toISOString();
})(process.argv.indexOf('--now'));
const TARGETS = { precision: 0.7, recall: 0.6, noisyShare: 0.2 };

/** The prompts a transcript holds, with the working directory each was typed in. */
function promptsOf(file: string): { text: string; cwd: string }[] {
  const replay = new TranscriptReplay(file);
  const out: { text: string; cwd: string }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    for (const e of replay.feed(line)) {
      if (e.hook === 'prompt') out.push({ text: String(e.payload.prompt ?? ''), cwd: String(e.payload.cwd ?? '') });
    }
  }
  return out;
}

interface Gold {
  /** Every gold pattern's match rule: the reader's, ours, and the bench's own. */
  match: Map<string, RegExp>;
  /** The patterns the learning gold's readers saw at work in each session. */
  seenIn: (session: string) => string[];
}

function readGold(root: string, patterns: Record<string, string>): Gold {
  const read = (path: string) => goldFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  const items = [
    ...read(join(root, '..', 'shared', 'bench', 'learning-gold-dev.json')),
    ...read(join(root, 'bench', 'learning-gold-team.json')),
  ];
  return {
    match: new Map([
      ...items.map((g) => [g.id, new RegExp(g.match, 'i')] as const),
      ...Object.entries(patterns).map(([id, re]) => [id, new RegExp(re, 'i')] as const),
    ]),
    seenIn: (session) => items.filter((g) => g.sessions.includes(session)).map((g) => g.id),
  };
}

const pct = (x: number): string => `${round(x * 100, 1)}%`;
const row = (name: string, s: ContextScore): string =>
  [
    name,
    s.points,
    s.lines,
    `${round(s.precision, 2)} ${s.precision >= TARGETS.precision ? 'met' : 'MISSED'}`,
    `${round(s.recall, 2)} ${s.recall >= TARGETS.recall ? 'met' : 'MISSED'}`,
    `${pct(s.noisyShare)} ${s.noisyShare <= TARGETS.noisyShare ? 'met' : 'MISSED'}`,
  ].join(' | ');

async function main(): Promise<void> {
  const root = repoRoot();
  const gold = contextGoldFile.parse(JSON.parse(readFileSync(join(root, 'bench', 'context-gold.json'), 'utf8')));
  const byStart = transcripts(transcriptDir(root)).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const history = byStart.slice(0, HISTORY_SESSIONS);
  const later = new Map(byStart.slice(HISTORY_SESSIONS).map((t) => [t.id, t] as [string, Transcript]));
  const asOf = AT ?? later.values().next().value?.startedAt ?? new Date().toISOString();
  ensureDir(join(root, '.bench-tmp'));
  const dir = mkdtempSync(join(root, '.bench-tmp', 'context-'));
  const store = openStore({ home: join(dir, 'home'), clock: fixedClock(new Date(asOf)) });
  const { match, seenIn } = readGold(root, gold.patterns);
  try {
    await invoke(sync, { store, env: { ...process.env, HOME: dir } }, { paths: history.map((t) => t.file), llm: false, embed: false });
    // The ceiling: the expected patterns that some learned instinct names at all.
    const learned = store.instincts
      .list({})
      .map((row) => `- ${plainLine([fromRow(row)])}`)
      .join('\n');
    let learnable = 0;
    const prompts: (Judged & { half: number; second: boolean })[] = [];
    const starts: Judged[] = [];
    const afterStart: Judged[] = [];
    const detail: string[] = [];
    const sessions = [...new Set(gold.prompts.map((p) => p.session))].sort((a, b) =>
      (later.get(a)?.startedAt ?? '').localeCompare(later.get(b)?.startedAt ?? ''),
    );
    const synced = new Set(history.map((h) => h.id));
    for (const session of sessions) {
      const t = later.get(session);
      if (!t) throw new Error(`bench/context-gold.json names ${session}, which is not among the later sessions`);
      const view = PROGRESSIVE ? withClock(store, fixedClock(new Date(t.startedAt))) : store;
      // --progressive: the history of each session is every session that ended before it started.
      if (PROGRESSIVE) {
        const due = [...later.values()].filter((x) => !synced.has(x.id) && x.endedAt <= t.startedAt);
        due.forEach((x) => synced.add(x.id));
        if (due.length)
          await invoke(
            sync,
            { store: view, env: { ...process.env, HOME: dir } },
            { paths: due.map((x) => x.file), llm: false, embed: false },
          );
      }
      const typed = promptsOf(t.file);
      const points = gold.prompts.filter((p) => p.session === session);
      const project = detectProject(typed[0]?.cwd ?? '');
      const { text: start, keys: startKeys } = await startInjection(view, project, `bench-${session}`);
      const held = { text: start, keys: [...startKeys] };
      // At session start, what helps anywhere in the session: what its prompts needed and what the readers saw at work in it.
      const helps = [...new Set([...points.flatMap((p) => p.expect), ...seenIn(session)])];
      const startJudged = judge(start, helps, match);
      starts.push(startJudged);
      detail.push(
        `- ${session.slice(0, 8)} start: ${startJudged.lines} lines, ${startJudged.relevant} relevant, ${startJudged.found}/${helps.length} of [${helps.join(', ')}]`,
      );
      if (process.argv.includes('--lines'))
        for (const l of injectedLines(start)) detail.push(`    ${l.slice(0, 160)} => [${patternsOf(l, match).join(', ')}]`);
      for (const p of points) {
        const flat = (text: string): string => text.replace(/\s+/g, ' ');
        const prompt = typed.find((x) => flat(x.text).slice(0, 300).includes(flat(p.prompt_starts)));
        if (!prompt) throw new Error(`No prompt starting "${p.prompt_starts}" in ${session}`);
        const text = await promptInjection(view, { project, prompt: prompt.text, sessionId: `bench-${session}` });
        const judged = judge(text, p.expect, match);
        learnable += judge(learned, p.expect, match).found;
        prompts.push({ ...judged, half: gold.prompts.indexOf(p) % 2, second: gold.prompts.indexOf(p) >= FIRST_READER });
        // As the hook gives it: what the session's start and its earlier prompts gave is not given again, and counts as held.
        const after = await promptInjection(view, {
          project,
          prompt: prompt.text,
          sessionId: `bench-${session}`,
          skip: new Set(held.keys),
          record: false,
          onGiven: (keys) => held.keys.push(...keys),
        });
        held.text += `\n${after}`;
        afterStart.push({ ...judge(after, p.expect, match), found: judge(held.text, p.expect, match).found });
        detail.push(
          `- ${session.slice(0, 8)} "${p.prompt_starts}": ${judged.lines} lines, ${judged.relevant} relevant, ${judged.found}/${judged.expected} expected`,
        );
        // --lines: what was injected, each line with the gold patterns it names, and what was learned but not given.
        if (process.argv.includes('--lines')) {
          for (const l of injectedLines(text)) detail.push(`    ${l.slice(0, 160)} => [${patternsOf(l, match).join(', ')}]`);
          const given = new Set(injectedLines(text).flatMap((l) => patternsOf(l, match)));
          const missed = p.expect.filter((id) => !given.has(id) && judge(learned, [id], match).found > 0);
          if (missed.length) detail.push(`    learned but not given: ${missed.join(', ')}`);
        }
      }
    }
    const scores = {
      prompt: total(prompts),
      promptTune: total(prompts.filter((p) => p.half === 0)),
      promptHeldOut: total(prompts.filter((p) => p.half === 1)),
      promptFirstReader: total(prompts.filter((p) => !p.second)),
      promptSecondReader: total(prompts.filter((p) => p.second)),
      start: total(starts),
      promptAfterStart: total(afterStart),
    };
    if (process.argv.includes('--json')) return void console.log(JSON.stringify(scores, null, 2));
    console.log(
      `## bench:context: ${history.length} sessions of history, ${prompts.length} prompts of ${sessions.length} later sessions\n`,
    );
    console.log(
      'injection | points | lines | precision (target 0.7) | recall (target 0.6) | points with anything irrelevant (target <= 20%)',
    );
    console.log('---|---|---|---|---|---');
    console.log(row('prompt hook, all', scores.prompt));
    console.log(row('prompt hook, even half', scores.promptTune));
    console.log(row('prompt hook, odd half', scores.promptHeldOut));
    console.log(row(`prompt hook, the first ${FIRST_READER} prompts (ours)`, scores.promptFirstReader));
    console.log(row('prompt hook, the later prompts (a second reader, blind)', scores.promptSecondReader));
    console.log(row('session start', scores.start));
    console.log(row('prompt hook after its session start (recall: held by start or any prompt so far)', scores.promptAfterStart));
    const named = starts.reduce((n, s) => n + s.named, 0);
    console.log(
      `\nSession start lines that name a gold pattern at all (a rule readers found at work somewhere, not junk): ${named} of ${scores.start.lines}; starts that name at least one of their session's needs: ${starts.filter((s) => s.found > 0).length} of ${starts.length}.`,
    );
    const expected = prompts.reduce((n, p) => n + p.expected, 0);
    console.log(
      `\nLearned from the history at all: ${learnable} of the ${expected} expected patterns at prompts (recall ceiling ${round(learnable / expected, 2)}).`,
    );
    console.log(`\n${detail.join('\n')}`);
  } finally {
    store.close();
    if (!process.env.HOMUNCULUS_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

await main();
