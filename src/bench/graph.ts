/**
 * Knowledge graph benchmark (`npm run bench:graph`):
 *
 * 1. Time-aware retrieval on a graph the bench builds, where values change over time
 *    (latencies improve, deadlines move, versions bump, preferences flip) among
 *    distractors: the current value must come first for a question about now, even when
 *    history is searched too; a question about the past must get the value true then. Once
 *    with BM25 alone (the prompt hook) and once with the bundled encoder (memory_context).
 * 2. Latency of the whole per-prompt pipeline (buildPromptContext: classification,
 *    queries, search, expansion, chunking, formatting, access recording) at 10k facts,
 *    warm, in process; with BM25 alone and with a 64-d hashing embedder; and the CLI as a
 *    whole process. No LLM anywhere.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DAY_MS, type Clock } from '../core/clock.js';
import { hashProvider } from '../embed/hash.js';
import { useLiteProvider } from '../embed/use-lite.js';
import { buildPromptContext } from '../context/build.js';
import { agenticRetrieve } from '../context/retrieve.js';
import { addFact } from '../graph/add-fact.js';
import { ENTITIES_COLLECTION } from '../core/graph-vocabulary.js';
import { factDocuments } from '../graph/embeddings.js';
import { searchFacts } from '../graph/fact-search.js';
import { queryFacts } from '../graph/temporal.js';
import { Embedder } from '../search/embeddings.js';
import { type Store, openStore } from '../store/store.js';
import { formatTable, median, percentile, timeProcesses } from './measure.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'bin.js');
const START = Date.parse('2026-01-01T00:00:00Z');

function movableStore(home: string): Store & { setDay: (day: number) => void } {
  let now = START;
  const clock: Clock = { now: () => new Date(now) };
  const store = openStore({ home, clock });
  return Object.assign(store, { setDay: (day: number) => (now = START + day * DAY_MS) });
}

function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'cart checkout payment invoice refund coupon shipping address profile session token cache queue worker scheduler retry timeout ' +
  'webhook upload image thumbnail search index ranking filter pagination export import report dashboard chart metric alert ' +
  'login signup password reset email template locale currency tax discount inventory stock warehouse order customer review rating ' +
  'migration schema column index trigger backup restore replica shard cluster deploy release rollback feature flag experiment'
).split(' ');

interface Case {
  subject: string;
  question: string;
  /** Values in the order they became true, with the day each did. */
  versions: { day: number; value: string }[];
}

/** Adds the changing facts of part 1; returns what the questions must find. */
function buildChangingFacts(store: Store & { setDay: (d: number) => void }, perKind: number): Case[] {
  const cases: Case[] = [];
  const shop = { name: 'shop', type: 'project', properties: { fingerprint: 'benchshop0000000' } };
  const plan: { day: number; run: () => void }[] = [];
  for (let i = 0; i < perKind; i++) {
    const svc = `svc${String(i).padStart(3, '0')}`;
    const v = [240 + i, 180 + i, 120 + i];
    cases.push({
      subject: svc,
      question: `checkout p95 latency of ${svc}`,
      versions: [0, 30, 60].map((day, k) => ({ day, value: `${v[k]} ms` })),
    });
    const verbs = ['is', 'improved to', 'dropped to'];
    [0, 30, 60].forEach((day, k) =>
      plan.push({
        day,
        run: () =>
          addFact(store, {
            source: { name: svc, type: 'concept' },
            target: { name: 'p95 latency', type: 'concept' },
            relation: 'related_to',
            description: `${svc} checkout p95 latency ${verbs[k]} ${v[k]} ms`,
            project: 'benchshop0000000',
          }),
      }),
    );
    const launch = `launch${String(i).padStart(3, '0')}`;
    cases.push({
      subject: launch,
      question: `deadline of the ${launch} release`,
      versions: [
        { day: 0, value: 'March 3' },
        { day: 40, value: 'March 17' },
      ],
    });
    plan.push({
      day: 0,
      run: () =>
        addFact(store, {
          source: { name: launch, type: 'decision' },
          target: { name: 'deadline', type: 'concept' },
          relation: 'related_to',
          description: `The ${launch} release deadline is March 3`,
          project: 'benchshop0000000',
        }),
    });
    plan.push({
      day: 40,
      run: () =>
        addFact(store, {
          source: { name: launch, type: 'decision' },
          target: { name: 'deadline', type: 'concept' },
          relation: 'related_to',
          description: `The ${launch} release deadline moved to March 17`,
          project: 'benchshop0000000',
        }),
    });
    const lib = `lib${String(i).padStart(3, '0')}`;
    cases.push({
      subject: lib,
      question: `which version of ${lib} does shop depend on`,
      versions: [
        { day: 0, value: '^1.4.0' },
        { day: 50, value: '^2.0.0' },
      ],
    });
    plan.push({
      day: 0,
      run: () =>
        addFact(store, {
          source: shop,
          target: { name: lib, type: 'library' },
          relation: 'depends_on',
          description: `shop depends on ${lib} ^1.4.0 (package.json)`,
          project: 'benchshop0000000',
        }),
    });
    plan.push({
      day: 50,
      run: () =>
        addFact(store, {
          source: shop,
          target: { name: lib, type: 'library' },
          relation: 'depends_on',
          description: `shop depends on ${lib} ^2.0.0 (package.json)`,
          project: 'benchshop0000000',
        }),
    });
    const team = `team${String(i).padStart(3, '0')}`;
    cases.push({
      subject: team,
      question: `what indentation does ${team} prefer`,
      versions: [
        { day: 0, value: 'tabs' },
        { day: 45, value: 'spaces' },
      ],
    });
    plan.push({
      day: 0,
      run: () =>
        addFact(store, {
          source: { name: team, type: 'person' },
          target: { name: 'tabs', type: 'preference' },
          relation: 'prefers',
          description: `${team} prefers tabs for indentation`,
          project: 'benchshop0000000',
        }),
    });
    plan.push({
      day: 45,
      run: () =>
        addFact(store, {
          source: { name: team, type: 'person' },
          target: { name: 'spaces', type: 'preference' },
          relation: 'prefers',
          description: `${team} prefers spaces for indentation`,
          project: 'benchshop0000000',
        }),
    });
  }
  plan.sort((a, b) => a.day - b.day);
  for (const step of plan) {
    store.setDay(step.day);
    step.run();
  }
  return cases;
}

/** The value a fact about the subject states, among the case's versions (longest match wins). */
function valueOf(c: Case, text: string): string | undefined {
  return [...c.versions].sort((a, b) => b.value.length - a.value.length).find((v) => text.includes(v.value))?.value;
}

/** Share of right answers per check, as `pct (n/d)`; with an embedder, facts are matched by meaning too. */
async function timeAwareAccuracy(store: Store & { setDay: (d: number) => void }, cases: Case[], embedder?: Embedder): Promise<string[]> {
  store.setDay(70);
  let nowRight = 0;
  let historyRight = 0;
  let pastRight = 0;
  let pastTotal = 0;
  for (const c of cases) {
    const about = (t: string) => new RegExp(`\\b${c.subject}\\b`).test(t);
    const current = c.versions.at(-1)?.value;
    const retrieved = await agenticRetrieve(store, { prompt: `What is the ${c.question} now?`, project: 'benchshop0000000', embedder });
    const first = retrieved.facts.find((r) => about(`${r.fact.source} ${r.fact.target} ${r.fact.description}`));
    if (first && valueOf(c, first.fact.description) === current) nowRight++;
    const history = await searchFacts(store, embedder ?? null, {
      text: c.question,
      includeHistory: true,
      projects: ['benchshop0000000'],
      limit: 50,
      // As when these figures were first measured, only the agentic retrieval repairs missing vectors.
      repair: 0,
    });
    const firstInHistory = history.facts.find((h) => about(`${h.fact.source} ${h.fact.target} ${h.fact.description}`));
    if (firstInHistory && valueOf(c, firstInHistory.fact.description) === current) historyRight++;
    for (let k = 0; k < c.versions.length - 1; k++) {
      const from = c.versions[k]?.day ?? 0;
      const to = c.versions[k + 1]?.day ?? 0;
      const day = new Date(START + Math.floor((from + to) / 2) * DAY_MS).toISOString().slice(0, 10);
      const past = await agenticRetrieve(store, {
        prompt: `What was the ${c.question} on ${day}?`,
        project: 'benchshop0000000',
        embedder,
      });
      const hit = past.facts.find((r) => about(`${r.fact.source} ${r.fact.target} ${r.fact.description}`));
      pastTotal++;
      if (hit && valueOf(c, hit.fact.description) === c.versions[k]?.value) pastRight++;
    }
  }
  const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}% (${n}/${d})`;
  return [pct(nowRight, cases.length), pct(historyRight, cases.length), pct(pastRight, pastTotal)];
}

/**
 * Embeds the current facts and every entity, as the graph's bulk repair did when these
 * figures were first measured (facts superseded before it ran were never embedded).
 */
async function embedCurrent(store: Store, embedder: Embedder): Promise<void> {
  const current = queryFacts(store).map((f) => f.id);
  const docs = [...factDocuments(store, current).values()];
  const entities = store.graph.entities.list().map((e) => String(e.id));
  docs.push(...store.documents.rowIds(ENTITIES_COLLECTION, entities).values());
  await embedder.embedDocuments(docs);
}

/** 10k facts over ~2,500 entities in one project, with 1-3 accesses each over 60 days. */
function buildLargeGraph(store: Store & { setDay: (d: number) => void }, count: number): void {
  const rand = prng(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const project = { name: 'bigshop', type: 'project', properties: { fingerprint: 'benchbig00000000' } };
  const relations = [
    'depends_on',
    'uses',
    'has_component',
    'solved_by',
    'prefers',
    'decided_for',
    'related_to',
    'implements',
    'caused_by',
    'works_well_for',
  ];
  store.setDay(0);
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const relation = relations[i % relations.length] as string;
      const a = `${pick(WORDS)}-${pick(WORDS)}`;
      const b = `${pick(WORDS)}${i % 500}`;
      const source =
        relation === 'depends_on' || relation === 'uses' || relation === 'has_component'
          ? project
          : { name: relation === 'prefers' || relation === 'decided_for' ? 'user' : a };
      addFact(store, {
        source,
        target: { name: b },
        relation,
        description: `${source.name} ${relation.replace('_', ' ')} ${b} for the ${pick(WORDS)} ${pick(WORDS)} flow when the ${pick(WORDS)} ${pick(WORDS)} changes`,
        confidence: 0.5 + rand() * 0.45,
        validAt: new Date(START + Math.floor(rand() * 60) * DAY_MS).toISOString(),
        project: 'benchbig00000000',
        noMerge: true,
      });
    }
    const ids = store.graph.facts.summaries({ project: 'benchbig00000000' }).map((f) => f.id);
    for (const id of ids)
      for (let k = Math.floor(rand() * 3); k > 0; k--)
        store.graph.accesses.record([id], new Date(START + Math.floor(rand() * 60) * DAY_MS).toISOString(), 'retrieval');
  });
  store.setDay(60);
}

function prompts(n: number): string[] {
  const rand = prng(11);
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const shapes = [
    () => `fix the ${pick()} ${pick()} bug that crashes on ${pick()}`,
    () => `add a ${pick()} ${pick()} feature to the ${pick()} page`,
    () => `why does the ${pick()} ${pick()} use ${pick()}?`,
    () => `refactor the ${pick()} ${pick()} module and simplify ${pick()}`,
    () => `ajoute un ${pick()} pour le ${pick()} ${pick()}`,
  ];
  return Array.from({ length: n }, (_, i) => (shapes[i % shapes.length] as () => string)());
}

async function timeAsync(fn: (i: number) => Promise<unknown>, runs: number, warmup: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

export async function runGraphBench(options: { facts?: number; perKind?: number; runs?: number } = {}): Promise<string> {
  const count = options.facts ?? 10_000;
  const perKind = options.perKind ?? 50;
  const runs = options.runs ?? 200;
  const home = mkdtempSync(join(tmpdir(), 'homunculus-bench-graph-'));
  try {
    const store = movableStore(home);
    const cases = buildChangingFacts(store, perKind);
    const bm25Accuracy = await timeAwareAccuracy(store, cases);
    // The same questions with the bundled encoder, as the MCP server's memory_context asks them.
    const encoder = new Embedder(store, useLiteProvider());
    await embedCurrent(store, encoder);
    const vectorAccuracy = await timeAwareAccuracy(store, cases, encoder);
    // prettier-ignore
    const accuracy = [
      'question about now: current value ranked first (pipeline)',
      'history searched too: current value outranks superseded ones',
      'question about a past date: the value true then',
    ].map((check, i) => [check, bm25Accuracy[i] ?? '', vectorAccuracy[i] ?? '']);
    console.error(`graph bench: time-aware retrieval done (${cases.length} cases)`);

    const buildStart = Date.now();
    buildLargeGraph(store, count);
    const buildSeconds = (Date.now() - buildStart) / 1000;
    console.error(`graph bench: ${count} facts built in ${buildSeconds.toFixed(1)} s`);
    const total = store.graph.facts.count();
    const texts = prompts(50);
    const bm25 = await timeAsync(
      (i) => buildPromptContext(store, { prompt: texts[i % texts.length] as string, project: 'benchbig00000000' }),
      runs,
      texts.length,
    );
    let m = 0;
    const merge = await timeAsync(
      async () => {
        m++;
        addFact(store, {
          source: { name: 'bigshop' },
          target: { name: `newlib${m}` },
          relation: 'depends_on',
          description: `bigshop depends on newlib${m} ^${m}.0.0 (package.json)`,
          project: 'benchbig00000000',
        });
      },
      100,
      5,
    );
    console.error('graph bench: BM25 pipeline measured');
    const embedder = new Embedder(store, hashProvider(64));
    await embedder.syncAll();
    const vector = await timeAsync(
      (i) => buildPromptContext(store, { prompt: texts[i % texts.length] as string, project: 'benchbig00000000', embedder }),
      Math.min(runs, 100),
      texts.length,
    );
    store.close();

    const env = { ...process.env, HOMUNCULUS_HOME: home, HOMUNCULUS_NOW: new Date(START + 60 * DAY_MS).toISOString() };
    const [bare, cliRuns] = timeProcesses(
      [
        { label: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
        {
          label: 'homunculus context',
          command: process.execPath,
          args: [BIN, 'context', 'fix the checkout payment bug', '--project', 'bigshop', '--json'],
          env,
        },
      ],
      15,
    );
    const row = (label: string, s: readonly number[]) => [label, median(s), percentile(s, 95)];
    const latency = [
      row(`buildPromptContext, BM25 only (${total.toLocaleString('en-US')} facts, warm)`, bm25),
      row('buildPromptContext, BM25 + 64-d vectors (hash embedder)', vector),
      row('addFact with merge checks (same hub entity)', merge),
      row('node -e 0 (whole process)', bare ?? []),
      row('homunculus context --json (whole process)', cliRuns ?? []),
    ];
    return [
      '## Knowledge graph',
      '',
      `Time-aware retrieval: ${cases.length} subjects whose value changes (${perKind} each of latency, deadline, dependency version, preference), ${cases.reduce((n, c) => n + c.versions.length, 0)} facts, questions asked on day 70.`,
      '',
      formatTable(['check', 'BM25 only', 'BM25 + USE-lite vectors'], accuracy),
      '',
      `Per-prompt pipeline at ${total.toLocaleString('en-US')} facts (graph built in ${buildSeconds.toFixed(1)} s; ${runs} prompts after ${texts.length} warm-up runs; target p50 <= 50 ms):`,
      '',
      formatTable(['operation', 'p50 ms', 'p95 ms'], latency),
      '',
    ].join('\n');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
