/** memory add / import / delete, query, embed: the general memory surface over the search engine. */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { addMemory, deleteMemories, embed, embedStatus, importMemories, installEmbeddingRuntime, query } from '../../app/memory.js';
import { ask } from '../../app/chat.js';
import { UsageError } from '../../core/errors.js';
import { resolveHome } from '../../core/paths.js';
import { truncate, counted } from '../../core/text.js';
import { DEFAULT_COLLECTION } from '../../search/documents.js';
import { SEARCH_MODES } from '../../search/modes.js';
import type { SearchHit } from '../../search/search.js';
import { globals, withCommandStore } from '../context.js';
import { emit } from '../output.js';
import { type Options, num, runOperation, stringOption } from '../run.js';
import { askWarm, serveWarm, startWarm, warmDisabled, warmSocket } from '../warm-query.js';

const fromStdin = (text: string): string => (text === '-' ? readFileSync(0, 'utf8') : text);

function parseMetadata(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw new UsageError(`--metadata must be a JSON object, got ${JSON.stringify(value)}.`);
  }
}

const collections = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function hitLines(hit: SearchHit, i: number, explain: boolean): string[] {
  const when = hit.ts ? ` ${hit.ts.slice(0, 10)}` : '';
  const by = hit.speaker ? ` (${hit.speaker})` : '';
  // History, said as such: a later memory restated its value.
  const later = typeof hit.metadata.superseded_by === 'string' ? `  [superseded by ${hit.metadata.superseded_by}]` : '';
  const lines = [
    `${String(i + 1).padStart(2)}. ${hit.score.toFixed(3)}  ${hit.collection}/${hit.id}${when}${by}${later}`,
    `    ${truncate(hit.text.replace(/\s+/g, ' '), 200)}`,
  ];
  if (!explain) return lines;
  const e = hit.explain;
  const lists = e.lists.map((l) => `${l.list} #${l.rank}${l.score === undefined ? '' : ` (${l.score.toFixed(3)})`}`).join(', ') || 'none';
  const speaker = e.speaker === 1 ? '' : ` x speaker ${e.speaker.toFixed(2)}`;
  const m = e.modifiers;
  const mods = [
    m.confidence !== undefined ? `confidence ${m.confidence.toFixed(2)}` : '',
    m.activation !== undefined ? `activation ${m.activation.toFixed(2)}` : '',
    m.recency !== undefined ? `recency ${m.recency.toFixed(2)}` : '',
    m.superseded !== undefined ? `superseded ${m.superseded.toFixed(2)}` : '',
  ].filter(Boolean);
  return [
    ...lines,
    `    lists: ${lists}`,
    `    (fused ${e.fused.toFixed(3)} + bonus ${e.bonus.toFixed(3)} + neighbours ${e.neighbours.toFixed(3)} + thread ${e.thread.toFixed(3)} + time ${e.time.toFixed(3)})${speaker}`,
    `    modifiers: ${mods.length ? `${mods.join(' x ')} = ${m.factor.toFixed(3)}` : 'none'}${e.rerank !== undefined ? `; rerank ${e.rerank.toFixed(3)}` : ''}`,
  ];
}

function addCommand(memory: Command): void {
  memory
    .command('add')
    .description('Store one memory; it becomes searchable at once')
    .argument('<text>', 'the text to remember ("-" reads it from stdin)')
    .option('--id <id>', 'your id for it (default: derived from the text)')
    .option('--collection <name>', `collection: ${DEFAULT_COLLECTION} (the default) or a name of your own (a-z, 0-9, - and _)`)
    .option('--title <title>', 'a short title, weighted higher in full-text search')
    .option('--ts <when>', 'when it happened (ISO-8601)')
    .option('--project <project>', 'project fingerprint or name')
    .option('--thread <thread>', 'conversation/session it belongs to (neighbouring memories help each other)')
    .option('--speaker <name>', 'who said it; a query naming this speaker prefers what they said')
    .option('--metadata <json>', 'a JSON object stored with it')
    .option('--no-embed', 'skip embedding now (queries repair it later)')
    .option('--no-supersede', 'keep older memories whose value this one restates as current')
    .action(async (text: string, o: Options, cmd: Command) => {
      const input = {
        text: fromStdin(text),
        id: stringOption(o, 'id'),
        collection: stringOption(o, 'collection'),
        title: stringOption(o, 'title'),
        ts: stringOption(o, 'ts'),
        project: stringOption(o, 'project'),
        thread: stringOption(o, 'thread'),
        speaker: stringOption(o, 'speaker'),
        metadata: parseMetadata(stringOption(o, 'metadata')),
        embed: o.embed !== false,
        supersede: o.supersede !== false,
      };
      await runOperation(
        cmd,
        addMemory,
        input,
        (r) => [
          `${r.inserted ? 'Added' : r.updated ? 'Updated' : 'Unchanged'} ${r.collection}/${r.id}${r.embedded ? ' (embedded)' : ''}`,
          ...r.superseded.map((id) => `  supersedes ${r.collection}/${id} (it gave an earlier value; kept, ranked below)`),
          ...Object.entries(r.supersededBy).map(([older, by]) =>
            older === r.id
              ? `  superseded by ${r.collection}/${by} (stored before, it gives a later value; this one is kept as history)`
              : `  ${r.collection}/${older} now superseded by ${r.collection}/${by} (the value after it)`,
          ),
        ],
        { names: { text: '<text>' } },
      );
    });
}

function importCommand(memory: Command): void {
  memory
    .command('import')
    .description(
      'Import a JSONL file: one {"id", "text", "collection"?, "ts"?, "project"?, "metadata"?, "thread"?, "title"?, "speaker"?} per line',
    )
    .argument('<file>', 'the JSONL file')
    .option('--collection <name>', `collection for lines that name none (default ${DEFAULT_COLLECTION})`)
    .option('--no-embed', 'skip embedding now (run `homunculus embed` later)')
    .option('--no-supersede', 'keep older memories whose value an imported one restates as current (faster)')
    .action(async (file: string, o: { collection?: string; embed?: boolean; supersede?: boolean }, cmd: Command) => {
      const input = { file, collection: o.collection, embed: o.embed !== false, supersede: o.supersede !== false };
      await runOperation(
        cmd,
        importMemories,
        input,
        (r) => {
          const bad = r.bad.length ? `; skipped ${counted(r.bad.length, 'bad line')} (listed above)` : '';
          const repeated = r.duplicates.length ? `; ${counted(r.duplicates.length, 'repeated id')} (listed above)` : '';
          return `Imported ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged from ${r.lines} lines${bad}${repeated}${r.embedded ? `; embedded ${r.embedded}` : ''}.`;
        },
        { names: { file: '<file>' }, exitCode: (r) => (r.bad.length ? 1 : 0) },
      );
    });
}

function deleteCommand(memory: Command): void {
  memory
    .command('delete')
    .description('Delete memories by id (their index entries and embeddings go with them)')
    .argument('<ids...>', 'ids given at add/import time')
    .option('--collection <name>', 'collection', DEFAULT_COLLECTION)
    .action(async (ids: string[], o: { collection: string }, cmd: Command) => {
      await runOperation(
        cmd,
        deleteMemories,
        { ids, collection: o.collection },
        (r) =>
          `Deleted ${r.deleted} of ${r.requested}.${r.missing.length ? ` Not in ${o.collection}: ${r.missing.map((id) => JSON.stringify(id)).join(', ')}.` : ''}`,
        {
          names: { ids: '<ids...>' },
          exitCode: (r) => (r.deleted < r.requested ? 1 : 0),
        },
      );
    });
}

function registerMemoryCommands(program: Command): void {
  const memory = program.command('memory').description('Add, import and delete searchable memories (documents)');
  for (const register of [addCommand, importCommand, deleteCommand]) register(memory);
}

const EMBED_HELP =
  '\nThe model comes from config.json, e.g. {"embedding": {"provider": "use-lite"}} (default, offline),\n' +
  '{"embedding": {"provider": "onnx", "path": "/models/all-MiniLM-L6-v2"}},\n' +
  '{"embedding": {"provider": "ollama", "url": "http://127.0.0.1:11434", "model": "nomic-embed-text"}},\n' +
  '{"embedding": {"provider": "openai", "url": "http://127.0.0.1:8080/v1", "model": "...", "apiKeyEnv": "OPENAI_API_KEY"}},\n' +
  'or {"embedding": {"provider": "none"}}. HOMUNCULUS_EMBEDDING=none|use-lite overrides the provider.\n' +
  'The onnx provider needs transformers.js, installed once on demand: homunculus embed --install-runtime.\n';

function registerEmbedCommand(program: Command): void {
  program
    .command('embed')
    .description('Embed every document with the configured model; after a model change, re-embed everything (never mixing models)')
    .option('--force', 're-embed every document even when its vector is current')
    .option('--status', 'only report the model and how many documents are embedded')
    .option('--install-runtime', 'install transformers.js (for "provider": "onnx", about 450 MB) into $HOMUNCULUS_HOME/runtime with npm')
    .addHelpText('after', EMBED_HELP)
    .action(async (o: { force?: boolean; status?: boolean; installRuntime?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      if (o.installRuntime) {
        if (!g.json) process.stderr.write('homunculus: installing transformers.js with npm (about 450 MB)...\n');
        const result = await installEmbeddingRuntime(resolveHome(g.home), (chunk) => (g.json ? undefined : process.stderr.write(chunk)));
        emit(g, result, (r) => `Installed ${r.installed} in ${r.runtime}; the onnx provider can now load local models.`);
        return;
      }
      const off = 'Embeddings are turned off (embedding.provider = "none"); search uses full-text only.';
      if (o.status) {
        await runOperation(cmd, embedStatus, {}, (r) => {
          if (!('model' in r)) return off;
          const changed =
            r.stored && r.model_changed
              ? `; vectors on record are from ${r.stored.provider}/${r.stored.model}: run \`homunculus embed\``
              : '';
          return [
            `model: ${r.model.provider}/${r.model.model} (${r.model.dims}-d)${changed}`,
            `${r.current} of ${r.documents} documents embedded, ${r.missing} missing${r.stale ? `, ${r.stale} from another model` : ''}`,
          ];
        });
        return;
      }
      await runOperation(cmd, embed, { force: !!o.force }, (r) => {
        if (!('model' in r)) return off;
        const moved =
          r.model_changed && r.previous
            ? [
                `Model changed from ${r.previous.provider}/${r.previous.model} to ${r.model.provider}/${r.model.model}: re-embedded every document.`,
              ]
            : [];
        return [
          ...moved,
          `Embedded ${counted(r.embedded, 'document')} with ${r.model.provider}/${r.model.model} in ${r.seconds.toFixed(1)} s.`,
        ];
      });
    });
}

export function registerSearchCommands(program: Command): void {
  registerMemoryCommands(program);

  program
    .command('query')
    .description('Hybrid search (BM25 + embeddings, fused) over every collection')
    .argument('<text>', 'what to look for ("-" reads it from stdin); FTS5 syntax ("phrase", AND, OR, NOT, prefix*) is honoured')
    .option(
      '--collection <names>',
      'only these collections (comma-separated): instincts, sessions, episodes, facts, entities, memories, ...',
    )
    .option('--project <project>', 'only this project')
    .option('--since <when>', 'only records at or after this time (ISO-8601, or e.g. 30d)')
    .option('--until <when>', 'only records at or before this time (ISO-8601, or e.g. 7d)')
    .option('--limit <n>', 'how many results (default 10)')
    .option('--mode <mode>', `${SEARCH_MODES.join(' | ')} (default hybrid)`)
    .option('--min-score <n>', 'drop results scoring below this')
    .option('--recency', 'decay every dated record by exp(-days/90) (default: facts only)')
    .option('--no-recency', 'no recency decay at all')
    .option('--explain', 'show each list rank and score, the fusion and every modifier')
    .action(async (text: string, o: Options, cmd: Command) => {
      const input = {
        query: fromStdin(text),
        collections: collections(stringOption(o, 'collection')),
        project: stringOption(o, 'project'),
        since: stringOption(o, 'since'),
        until: stringOption(o, 'until'),
        limit: num(stringOption(o, 'limit')),
        mode: stringOption(o, 'mode'),
        minScore: num(stringOption(o, 'minScore')),
        recency: o.recency as boolean | undefined,
        cwd: process.cwd(),
      };
      const explain = Boolean(o.explain);
      const g = globals(cmd);
      const human = (res: QueryResult): string[] => {
        const lines = res.notes.map((n) => `note: ${n}`);
        if (res.learned.length) lines.push('Learned rules this names:', ...res.learned, '');
        if (res.results.length === 0) lines.push('No results.');
        res.results.forEach((h, i) => lines.push(...hitLines(h, i, explain)));
        if (explain && res.shortcut) lines.push('(strong BM25 hit: the dense list was skipped)');
        return g.json ? [] : lines;
      };
      const home = resolveHome(g.home);
      // A warm query server answers at once when one runs; otherwise this process does, and starts one.
      const warm = warmDisabled() ? undefined : await askWarm(home, input);
      if (warm) return void (g.json ? emit(g, queryJson(warm, explain), () => '') : emit(g, warm, human));
      await runOperation(cmd, query, input, human, {
        names: { query: '<text>', collections: '--collection' },
        json: (res) => queryJson(res, explain),
      });
      if (input.mode !== 'bm25' && process.exitCode === undefined) await startWarm(home);
    });

  program
    .command('serve-query')
    .description(
      'Keep a query process warm (the sentence encoder loaded) for later `query` calls, over a socket in the data directory; `query` starts one by itself',
    )
    .option('--idle <seconds>', 'stop after this long without a question (default 900)')
    .action(async (o: Options, cmd: Command) => {
      const idle = num(stringOption(o, 'idle'));
      if (idle !== undefined && (typeof idle !== 'number' || idle <= 0))
        throw new UsageError('--idle must be a number of seconds above 0.');
      await withCommandStore(cmd, async (store) => {
        const r = await serveWarm(store, typeof idle === 'number' ? idle * 1000 : undefined);
        if (r === 'already running') process.stderr.write(`A query server already answers on ${warmSocket(store.paths.home)}.\n`);
        // Closing would checkpoint and delete the WAL files under the database's name, which now
        // belong to the file that replaced ours: the process ends without closing it.
        if (r === 'replaced') process.exit(0);
      });
    });

  registerEmbedCommand(program);
  registerAskCommand(program);
}

/** ask: the dashboard's memory chat on the command line. */
function registerAskCommand(program: Command): void {
  program
    .command('ask')
    .description(
      'Ask your memory a question: the configured model answers from retrieved facts and memories, citing them; without one, the sources alone',
    )
    .argument('<question...>', 'the question, quoted or not ("-" reads it from stdin)')
    .option(
      '--project <project>',
      "search this project's facts and memories (and the global ones) only: a fingerprint or a name its sessions were seen under",
    )
    .action(async (words: string[], o: Options, cmd: Command) => {
      const input = { question: fromStdin(words.join(' ')), project: stringOption(o, 'project'), cwd: process.cwd() };
      await runOperation(
        cmd,
        ask,
        input,
        (r) => [
          ...(r.answer !== null ? [r.answer, ''] : []),
          ...(r.note ? [r.note, ''] : []),
          // Asked outside any project, each rule names the project it was learned in: none is "here".
          ...(r.learned.length ? ['Learned rules the question names:', ...r.learned, ''] : []),
          ...(r.sources.length === 0 ? ['Nothing in the memory matches this question.'] : []),
          ...r.sources.map((s) => `[${s.n}] ${s.title} (${s.ref}${s.ts ? `, ${s.ts.slice(0, 10)}` : ''}): ${s.text}`),
        ],
        { names: { question: '<question>', project: '--project' } },
      );
    });
}

type QueryResult = Awaited<ReturnType<typeof query.run>>;

/** query --json: each hit with its ids, text and metadata, and the explanation when asked. */
function queryJson(res: QueryResult, explain: boolean) {
  return {
    results: res.results.map((h) => ({
      id: h.id,
      score: h.score,
      collection: h.collection,
      text: h.text,
      ts: h.ts,
      title: h.title,
      project: h.project,
      thread: h.thread,
      speaker: h.speaker,
      metadata: h.metadata,
      ...(explain ? { explain: h.explain } : {}),
    })),
    learned: res.learned,
    mode: res.mode,
    shortcut: res.shortcut,
    repaired: res.repaired,
    notes: res.notes,
  };
}
