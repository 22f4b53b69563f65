/** memory add / import / delete, query, embed: the general memory surface over the search engine. */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { DAY_MS, parseInstant } from '../../core/clock.js';
import { HomunculusError, UsageError, errorMessage } from '../../core/errors.js';
import { contentId } from '../../core/ids.js';
import { truncate } from '../../core/text.js';
import { DEFAULT_COLLECTION, DocumentInputError, validateCollection, validateDocumentInput } from '../../search/documents.js';
import type { Embedder } from '../../search/embeddings.js';
import { addDocuments, importJsonl } from '../../search/memory.js';
import { embedderFor } from '../../search/open.js';
import { sanitizeQuery } from '../../search/query-text.js';
import { SEARCH_MODES, searchMode } from '../../search/modes.js';
import { type SearchHit, search } from '../../search/search.js';
import { readFingerprint } from '../../search/vectors.js';
import { globals, withCommandStore } from '../context.js';
import { resolveHome } from '../../core/paths.js';
import { TRANSFORMERS_PACKAGE, TRANSFORMERS_VERSION, installRuntime, runtimeDir } from '../../embed/runtime.js';
import { embedNew } from '../embedding.js';
import { progressBar } from '../progress.js';
import { emit, parsePositiveInt } from '../output.js';

/** An ISO-8601 date/instant, or "<n>d" for n days before now. */
export function parseTimeBound(name: string, value: string | undefined, now: Date): string | undefined {
  if (value === undefined) return undefined;
  const relative = /^\s*(\d{1,5})d\s*$/.exec(value);
  if (relative) return new Date(now.getTime() - Number(relative[1]) * DAY_MS).toISOString();
  const at = parseInstant(value);
  if (!at)
    throw new UsageError(
      `--${name} must be an ISO-8601 date or instant (2026-03-01, 2026-03-01T12:00:00Z) or a number of days such as 30d, got ${JSON.stringify(value)}.`,
    );
  return at.toISOString();
}

function parseCollections(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError('--collection needs at least one name, e.g. --collection memories,facts.');
  try {
    return names.map((n) => validateCollection(n, { allowMirrored: true }));
  } catch (err) {
    throw new UsageError(`--collection: ${errorMessage(err)}.`);
  }
}

function parseMinScore(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--min-score must be a number of at least 0, got ${JSON.stringify(value)}.`);
  return n;
}

function readQuery(text: string): string {
  const query = text === '-' ? readFileSync(0, 'utf8') : text;
  if (sanitizeQuery(query).trim() === '')
    throw new UsageError('The query is empty.', 'Give some words to search for, e.g. homunculus query "database migration".');
  return query;
}

function hitLines(hit: SearchHit, i: number, explain: boolean): string[] {
  const when = hit.ts ? ` ${hit.ts.slice(0, 10)}` : '';
  const by = hit.speaker ? ` (${hit.speaker})` : '';
  const lines = [
    `${String(i + 1).padStart(2)}. ${hit.score.toFixed(3)}  ${hit.collection}/${hit.id}${when}${by}`,
    `    ${truncate(hit.text.replace(/\s+/g, ' '), 200)}`,
  ];
  if (explain) {
    const e = hit.explain;
    const lists = e.lists.map((l) => `${l.list} #${l.rank}${l.score === undefined ? '' : ` (${l.score.toFixed(3)})`}`).join(', ') || 'none';
    lines.push(`    lists: ${lists}`);
    const speaker = e.speaker === 1 ? '' : ` x speaker ${e.speaker.toFixed(2)}`;
    lines.push(
      `    (fused ${e.fused.toFixed(3)} + bonus ${e.bonus.toFixed(3)} + neighbours ${e.neighbours.toFixed(3)} + thread ${e.thread.toFixed(3)} + time ${e.time.toFixed(3)})${speaker}`,
    );
    const m = e.modifiers;
    const mods = [
      m.confidence !== undefined ? `confidence ${m.confidence.toFixed(2)}` : '',
      m.activation !== undefined ? `activation ${m.activation.toFixed(2)}` : '',
      m.recency !== undefined ? `recency ${m.recency.toFixed(2)}` : '',
    ].filter(Boolean);
    lines.push(
      `    modifiers: ${mods.length ? `${mods.join(' x ')} = ${m.factor.toFixed(3)}` : 'none'}${e.rerank !== undefined ? `; rerank ${e.rerank.toFixed(3)}` : ''}`,
    );
  }
  return lines;
}

export function registerSearchCommands(program: Command): void {
  const memory = program.command('memory').description('Add, import and delete searchable memories (documents)');

  memory
    .command('add')
    .description('Store one memory; it becomes searchable at once')
    .argument('<text>', 'the text to remember ("-" reads it from stdin)')
    .option('--id <id>', 'your id for it (default: derived from the text)')
    .option('--collection <name>', `collection (default ${DEFAULT_COLLECTION}; facts, entities or your own name)`)
    .option('--title <title>', 'a short title, weighted higher in full-text search')
    .option('--ts <when>', 'when it happened (ISO-8601)')
    .option('--project <project>', 'project fingerprint or name')
    .option('--thread <thread>', 'conversation/session it belongs to (neighbouring memories help each other)')
    .option('--speaker <name>', 'who said it; a query naming this speaker prefers what they said')
    .option('--metadata <json>', 'a JSON object stored with it')
    .option('--no-embed', 'skip embedding now (queries repair it later)')
    .option('--no-supersede', 'keep older memories whose value this one restates as current')
    .action(async (textArg: string, o: Record<string, string | boolean | undefined>, cmd: Command) => {
      const text = textArg === '-' ? readFileSync(0, 'utf8') : textArg;
      let metadata: unknown;
      if (typeof o.metadata === 'string') {
        try {
          metadata = JSON.parse(o.metadata);
        } catch {
          throw new UsageError(`--metadata must be a JSON object, got ${JSON.stringify(o.metadata)}.`);
        }
      }
      const collection = typeof o.collection === 'string' ? o.collection : DEFAULT_COLLECTION;
      let doc;
      try {
        doc = validateDocumentInput({
          id: o.id ?? contentId(collection, text),
          text,
          collection,
          title: o.title,
          ts: o.ts,
          project: o.project,
          thread: o.thread,
          speaker: o.speaker,
          metadata,
        });
      } catch (err) {
        if (err instanceof DocumentInputError) throw new UsageError(`Cannot add this memory: ${err.message}.`);
        throw err;
      }
      await withCommandStore(cmd, async (store, g) => {
        const counts = addDocuments(store, [doc], { supersede: o.supersede !== false });
        const embedding = await embedNew(store, o.embed !== false);
        if (embedding.warning) process.stderr.write(`homunculus: ${embedding.warning}\n`);
        emit(g, { id: doc.id, collection: doc.collection, ...counts, embedded: embedding.embedded }, (r) => [
          `${r.inserted ? 'Added' : r.updated ? 'Updated' : 'Unchanged'} ${r.collection}/${r.id}${r.embedded ? ' (embedded)' : ''}`,
          ...r.superseded.map((id) => `  supersedes ${r.collection}/${id} (it gave an earlier value; kept, ranked below)`),
        ]);
      });
    });

  memory
    .command('import')
    .description(
      'Import a JSONL file: one {"id", "text", "collection"?, "ts"?, "project"?, "metadata"?, "thread"?, "title"?, "speaker"?} per line',
    )
    .argument('<file>', 'the JSONL file')
    .option('--collection <name>', `collection for lines that name none (default ${DEFAULT_COLLECTION})`)
    .option('--no-embed', 'skip embedding now (run `homunculus embed` later)')
    .option('--supersede', 'mark older memories whose value an imported one restates as superseded (slower)')
    .action(async (file: string, o: { collection?: string; embed?: boolean; supersede?: boolean }, cmd: Command) => {
      if (o.collection !== undefined) {
        try {
          validateCollection(o.collection);
        } catch (err) {
          throw new UsageError(`--collection: ${errorMessage(err)}.`);
        }
      }
      await withCommandStore(cmd, async (store, g) => {
        const bar = progressBar('importing', 1);
        const result = await importJsonl(store, file, {
          collection: o.collection,
          supersede: !!o.supersede,
          onProgress: (done, total) => bar.update(done, total),
        });
        bar.finish();
        const embedding = await embedNew(store, o.embed !== false);
        if (embedding.warning) process.stderr.write(`homunculus: ${embedding.warning}\n`);
        for (const b of result.bad.slice(0, 50)) process.stderr.write(`homunculus: ${file}:${b.line}: ${b.error}\n`);
        if (result.bad.length > 50) process.stderr.write(`homunculus: ... and ${result.bad.length - 50} more bad lines\n`);
        emit(
          g,
          { file, ...result, embedded: embedding.embedded },
          (r) =>
            `Imported ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged from ${r.lines} lines${r.bad.length ? `; skipped ${r.bad.length} bad line${r.bad.length === 1 ? '' : 's'} (listed above)` : ''}${r.embedded ? `; embedded ${r.embedded}` : ''}.`,
        );
        if (result.bad.length) process.exitCode = 1;
      });
    });

  memory
    .command('delete')
    .description('Delete memories by id (their index entries and embeddings go with them)')
    .argument('<ids...>', 'ids given at add/import time')
    .option('--collection <name>', `collection (default ${DEFAULT_COLLECTION})`, DEFAULT_COLLECTION)
    .action(async (ids: string[], o: { collection: string }, cmd: Command) => {
      try {
        validateCollection(o.collection);
      } catch (err) {
        throw new UsageError(`--collection: ${errorMessage(err)}.`);
      }
      await withCommandStore(cmd, (store, g) => {
        const deleted = store.documents.delete(o.collection, ids);
        emit(g, { deleted, requested: ids.length }, (r) => `Deleted ${r.deleted} of ${r.requested}.`);
        if (deleted < ids.length) process.exitCode = 1;
      });
    });

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
    .action(async (textArg: string, o: Record<string, string | boolean | undefined>, cmd: Command) => {
      const query = readQuery(textArg);
      const mode = searchMode(o.mode);
      const limit = parsePositiveInt('limit', o.limit as string | undefined) ?? 10;
      if (limit > 1000) throw new UsageError('--limit must be at most 1000.');
      const minScore = parseMinScore(o['minScore'] as string | undefined);
      const collections = parseCollections(o.collection as string | undefined);
      await withCommandStore(cmd, async (store, g) => {
        const now = store.clock.now();
        const since = parseTimeBound('since', o.since as string | undefined, now);
        const until = parseTimeBound('until', o.until as string | undefined, now);
        if (since && until && since > until) throw new UsageError('--since is later than --until; swap them.');
        let embedder: Embedder | null = null;
        const notes: string[] = [];
        if (mode !== 'bm25') {
          try {
            embedder = await embedderFor(store);
          } catch (err) {
            if (mode === 'vector' || !(err instanceof HomunculusError)) throw err;
            notes.push(`Embeddings unavailable (${err.message}); ranked by full-text search only.`);
          }
        }
        const res = await search(store, embedder, {
          query,
          mode,
          limit,
          minScore,
          filter: { collections, project: o.project as string | undefined, since, until },
          recency: o.recency as boolean | undefined,
        });
        res.notes.unshift(...notes);
        const explain = Boolean(o.explain);
        const payload = {
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
          mode: res.mode,
          shortcut: res.shortcut,
          repaired: res.repaired,
          notes: res.notes,
        };
        emit(g, payload, () => {
          const lines = res.notes.map((n) => `note: ${n}`);
          if (res.results.length === 0) lines.push('No results.');
          res.results.forEach((h, i) => lines.push(...hitLines(h, i, explain)));
          if (explain && res.shortcut) lines.push('(strong BM25 hit: the dense list was skipped)');
          return lines;
        });
      });
    });

  program
    .command('embed')
    .description('Embed every document with the configured model; after a model change, re-embed everything (never mixing models)')
    .option('--force', 're-embed every document even when its vector is current')
    .option('--status', 'only report the model and how many documents are embedded')
    .option('--install-runtime', 'install transformers.js (for "provider": "onnx", about 450 MB) into $HOMUNCULUS_HOME/runtime with npm')
    .addHelpText(
      'after',
      '\nThe model comes from config.json, e.g. {"embedding": {"provider": "use-lite"}} (default, offline),\n' +
        '{"embedding": {"provider": "onnx", "path": "/models/all-MiniLM-L6-v2"}},\n' +
        '{"embedding": {"provider": "ollama", "url": "http://127.0.0.1:11434", "model": "nomic-embed-text"}},\n' +
        '{"embedding": {"provider": "openai", "url": "http://127.0.0.1:8080/v1", "model": "...", "apiKeyEnv": "OPENAI_API_KEY"}},\n' +
        'or {"embedding": {"provider": "none"}}. HOMUNCULUS_EMBEDDING=none|use-lite overrides the provider.\n' +
        'The onnx provider needs transformers.js, installed once on demand: homunculus embed --install-runtime.\n',
    )
    .action(async (o: { force?: boolean; status?: boolean; installRuntime?: boolean }, cmd: Command) => {
      if (o.installRuntime) {
        const g = globals(cmd);
        const dir = runtimeDir(resolveHome(g.home));
        if (!g.json)
          process.stderr.write(
            `homunculus: installing ${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION} into ${dir} with npm (about 450 MB)...\n`,
          );
        const entry = await installRuntime(dir, (chunk) => (g.json ? undefined : process.stderr.write(chunk)));
        emit(
          g,
          { installed: `${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION}`, runtime: dir, entry },
          (r) => `Installed ${r.installed} in ${r.runtime}; the onnx provider can now load local models.`,
        );
        return;
      }
      await withCommandStore(cmd, async (store, g) => {
        const embedder = await embedderFor(store);
        if (!embedder) {
          emit(
            g,
            { provider: 'none', embedded: 0 },
            () => 'Embeddings are turned off (embedding.provider = "none"); search uses full-text only.',
          );
          return;
        }
        if (o.status) {
          const counts = store.documents.vectorCounts(embedder.key);
          const stored = readFingerprint(store.documents);
          emit(g, { model: embedder.fingerprint, stored: stored ?? null, ...counts }, (r) => [
            `model: ${r.model.provider}/${r.model.model} (${r.model.dims}-d)${r.stored && embedder.modelChanged() ? `; vectors on record are from ${r.stored.provider}/${r.stored.model}: run \`homunculus embed\`` : ''}`,
            `${r.current} of ${r.documents} documents embedded, ${r.missing} missing${r.stale ? `, ${r.stale} from another model` : ''}`,
          ]);
          return;
        }
        const bar = progressBar('embedding', 1);
        const started = performance.now();
        const result = await embedder.syncAll({ force: o.force, onProgress: (done, total) => bar.update(done, total) });
        bar.finish();
        const seconds = (performance.now() - started) / 1000;
        const changed =
          result.previous &&
          (result.previous.model !== embedder.fingerprint.model ||
            result.previous.provider !== embedder.fingerprint.provider ||
            result.previous.dims !== embedder.fingerprint.dims);
        emit(
          g,
          {
            model: embedder.fingerprint,
            previous: result.previous ?? null,
            model_changed: Boolean(changed),
            embedded: result.embedded,
            removed_stale: result.removedStale,
            seconds,
          },
          (r) => [
            ...(r.model_changed && r.previous
              ? [
                  `Model changed from ${r.previous.provider}/${r.previous.model} to ${r.model.provider}/${r.model.model}: re-embedded every document.`,
                ]
              : []),
            `Embedded ${r.embedded} document${r.embedded === 1 ? '' : 's'} with ${r.model.provider}/${r.model.model} in ${r.seconds.toFixed(1)} s.`,
          ],
        );
      });
    });
}
