/** Memory operations: store, import and delete searchable memories, query everything, keep the embeddings current. */
import { z } from 'zod';
import { DAY_MS, parseInstant } from '../core/clock.js';
import { HomunculusError, UsageError, errorMessage } from '../core/errors.js';
import { FACTS_COLLECTION } from '../core/graph-vocabulary.js';
import { contentId } from '../core/ids.js';
import type { EmbeddingFingerprint } from '../embed/provider.js';
import { TRANSFORMERS_PACKAGE, TRANSFORMERS_VERSION, installRuntime, runtimeDir } from '../embed/runtime.js';
import { factProfile } from '../graph/fact-search.js';
import { DEFAULT_COLLECTION, DocumentInputError, validateCollection, validateDocumentInput } from '../search/documents.js';
import type { Embedder } from '../search/embeddings.js';
import { addDocuments, deleteDocuments, importJsonl } from '../search/memory.js';
import { SEARCH_MODES } from '../search/modes.js';
import { withSessionDense } from '../search/profiles.js';
import { embedderFor } from '../search/open.js';
import { sanitizeQuery } from '../text/query.js';
import { search } from '../search/search.js';
import { readFingerprint } from '../search/vectors.js';
import { projectIn } from '../core/project-alias.js';
import { type AppContext, defineOperation } from './operation.js';
import { projectKey, projectName, unknownProjectNote } from './project-ref.js';
import { text } from './schemas.js';
import { selfNames } from './user-names.js';

const collection = (options: { allowMirrored?: boolean } = {}) =>
  text(64).superRefine((name, ctx) => {
    try {
      validateCollection(name, options);
    } catch (err) {
      // Its message already quotes the name: no second "got ..." after it.
      ctx.addIssue({ code: 'custom', message: errorMessage(err).replace(/^collection /, ''), input: undefined });
    }
  });

/** An ISO-8601 date or instant, or `<n>d` for n days before now (resolved against the store's clock). */
const timeBound = () =>
  text(64).refine((v) => /^\s*\d{1,5}d\s*$/.test(v) || parseInstant(v) !== undefined, {
    error: 'must be an ISO-8601 date or instant (2026-03-01, 2026-03-01T12:00:00Z) or a number of days such as 30d',
  });

function resolveBound(value: string | undefined, now: Date): string | undefined {
  if (value === undefined) return undefined;
  const days = /^\s*(\d{1,5})d\s*$/.exec(value);
  return days ? new Date(now.getTime() - Number(days[1]) * DAY_MS).toISOString() : (parseInstant(value) as Date).toISOString();
}

const notEmbedded = (err: unknown): string =>
  `Stored, but not embedded: ${errorMessage(err)} (run \`homunculus embed\` later; queries repair up to 20 a time).`;

/** Embeds every document without a vector of the configured model; never throws (a warning says what failed). */
export async function embedNew(ctx: AppContext): Promise<{ embedded: number; warning?: string }> {
  let embedder: Embedder | null;
  try {
    embedder = await embedderFor(ctx.store, ctx.env);
    if (!embedder) return { embedded: 0 };
    const bar = ctx.progress?.('embedding');
    let announced = false;
    const embedded = await embedder.embedMissing((done, total) => {
      if (!announced && total > 1000) {
        ctx.warn?.(`embedding ${total} documents with ${embedder?.key}; interrupting is safe (\`homunculus embed\` resumes).`);
        announced = true;
      }
      bar?.update(done, total);
    });
    bar?.finish();
    return { embedded };
  } catch (err) {
    return { embedded: 0, warning: notEmbedded(err) };
  }
}

/** Embeds only these documents (row ids), not the backlog: that is `embed`'s and `sync`'s. Never throws. */
async function embedOnly(ctx: AppContext, ids: readonly number[]): Promise<{ embedded: number; warning?: string }> {
  try {
    const embedder = await embedderFor(ctx.store, ctx.env);
    return { embedded: embedder ? await embedder.repair(ids, ids.length) : 0 };
  } catch (err) {
    return { embedded: 0, warning: notEmbedded(err) };
  }
}

export const addMemory = defineOperation({
  name: 'memory.add',
  summary: 'Store one memory; it becomes searchable at once (and supersedes older memories whose value it restates)',
  input: z.object({
    text: text(1_000_000).refine((t) => t.trim() !== '', { error: 'must not be empty' }),
    id: text(512).optional(),
    collection: collection().default(DEFAULT_COLLECTION),
    title: text(500).optional(),
    ts: text(64).optional(),
    project: text(200).optional(),
    thread: text(500).optional(),
    speaker: text(200).optional(),
    metadata: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }).optional(),
    embed: z.boolean().default(true),
    supersede: z.boolean().default(true),
  }),
  async run(ctx, input) {
    let doc;
    try {
      doc = validateDocumentInput({ ...input, id: input.id ?? contentId(input.collection, input.text) });
    } catch (err) {
      if (err instanceof DocumentInputError) throw new UsageError(`Cannot add this memory: ${err.message}.`);
      throw err;
    }
    const counts = addDocuments(ctx.store, [doc], { supersede: input.supersede });
    const added = [...ctx.store.documents.rowIds(doc.collection, [doc.id]).values()];
    const embedding = input.embed ? await embedOnly(ctx, added) : { embedded: 0 };
    if (embedding.warning) ctx.warn?.(embedding.warning);
    return { id: doc.id, collection: doc.collection, ...counts, embedded: embedding.embedded };
  },
});

export const importMemories = defineOperation({
  name: 'memory.import',
  summary: 'Import a JSONL file of memories, one {"id", "text", ...} per line; bad lines are reported and skipped',
  input: z.object({
    file: text(4096).min(1, { error: 'must not be empty' }),
    collection: collection().optional(),
    embed: z.boolean().default(true),
    supersede: z.boolean().default(true),
  }),
  async run(ctx, input) {
    const bar = ctx.progress?.('importing (bytes read)');
    const result = await importJsonl(ctx.store, input.file, {
      collection: input.collection,
      supersede: input.supersede,
      onProgress: (done, total) => bar?.update(done, total),
    });
    bar?.finish();
    const embedding = input.embed ? await embedNew(ctx) : { embedded: 0 };
    if (embedding.warning) ctx.warn?.(embedding.warning);
    for (const b of result.bad.slice(0, 50)) ctx.warn?.(`${input.file}:${b.line}: ${b.error}`);
    if (result.bad.length > 50) ctx.warn?.(`... and ${result.bad.length - 50} more bad lines`);
    for (const d of result.duplicates.slice(0, 50))
      ctx.warn?.(`${input.file}:${d.line}: id ${JSON.stringify(d.id)} repeats line ${d.first} (${d.collection}); the later line was kept`);
    if (result.duplicates.length > 50) ctx.warn?.(`... and ${result.duplicates.length - 50} more repeated ids`);
    return { file: input.file, ...result, embedded: embedding.embedded };
  },
});

export const deleteMemories = defineOperation({
  name: 'memory.delete',
  summary: 'Delete memories by id; their index entries and embeddings go with them',
  input: z.object({
    ids: z.array(text(512)).min(1, { error: 'must name at least one id' }),
    collection: collection().default(DEFAULT_COLLECTION),
  }),
  run: ({ store }, input) => {
    const missing = input.ids.filter((id) => !store.documents.get(input.collection, id));
    return { deleted: deleteDocuments(store, input.collection, input.ids), requested: input.ids.length, missing };
  },
});

// A long-lived process (the MCP server) loads the embedding model once, on the first query that needs it.
const embedders = new WeakMap<object, Promise<Embedder | null>>();
export function embedderOnce(ctx: AppContext): Promise<Embedder | null> {
  let pending = embedders.get(ctx.store.documents);
  if (!pending) {
    pending = embedderFor(ctx.store, ctx.env);
    embedders.set(ctx.store.documents, pending);
    pending.catch(() => embedders.delete(ctx.store.documents));
  }
  return pending;
}

export const query = defineOperation({
  name: 'memory.query',
  summary: 'Hybrid search (BM25 and embeddings, fused) over every collection, with filters; explainable',
  input: z.object({
    // Any length: only its opening is searched (sanitizeQuery cuts it).
    query: z
      .string({ error: 'must be text' })
      .refine((q) => sanitizeQuery(q).trim() !== '', { error: 'is empty: give some words to search for' }),
    collections: z.array(collection({ allowMirrored: true })).optional(),
    project: text(200).optional(),
    since: timeBound().optional(),
    until: timeBound().optional(),
    limit: z.number({ error: 'must be a whole number from 1 to 1000' }).int().min(1).max(1000).default(10),
    mode: z.enum(SEARCH_MODES, { error: `must be one of ${SEARCH_MODES.join(', ')}` }).default('hybrid'),
    minScore: z.number({ error: 'must be a number of at least 0' }).min(0, { error: 'must be a number of at least 0' }).optional(),
    recency: z.boolean().optional(),
    /** Where the question is asked from: the learned rules of its project that the question names come first. */
    cwd: text(4096).optional(),
  }),
  async run(ctx, input) {
    const now = ctx.store.clock.now();
    const notes: string[] = [];
    let embedder: Embedder | null = null;
    if (input.mode !== 'bm25') {
      try {
        embedder = await embedderOnce(ctx);
      } catch (err) {
        if (input.mode === 'vector' || !(err instanceof HomunculusError)) throw err;
        notes.push(`Embeddings unavailable (${err.message}); ranked by full-text search only.`);
      }
    }
    if (input.mode === 'vector' && !embedder) {
      throw new UsageError(
        'No embedding model is available for vector search.',
        'Use mode hybrid or bm25, or configure "embedding" in config.json.',
      );
    }
    const filter = {
      collections: input.collections,
      // A name its sessions were seen under ("cli") finds the project as its fingerprint does.
      project: input.project === undefined ? undefined : projectKey(ctx.store, input.project),
      since: resolveBound(input.since, now),
      until: resolveBound(input.until, now),
    };
    if (filter.since && filter.until && filter.since > filter.until)
      throw new UsageError('since is later than until.', 'Swap the two bounds.');
    // Facts answer as the graph holds them now, scored by its rules (graph/fact-search.ts).
    const profiles = withSessionDense({ [FACTS_COLLECTION]: factProfile(ctx.store, {}) }, embedder?.fingerprint.provider);
    const self = selfNames(ctx.store.paths.config);
    const res = await search(ctx.store, embedder, { ...input, query: input.query.replaceAll('\u0000', ''), filter, profiles, self });
    res.notes.unshift(...notes);
    if (input.collections?.length && res.results.length === 0) {
      // Collections are named by what imports into them: a typo finds nothing and should say so.
      const held = ctx.store.documents.countByCollection().map((c) => c.collection);
      const unknown = input.collections.filter((c) => !held.includes(c));
      if (unknown.length)
        res.notes.push(
          `No document is in ${unknown.map((c) => JSON.stringify(c)).join(', ')}; the collections here: ${held.join(', ') || 'none yet'}.`,
        );
    }
    if (input.project !== undefined && res.results.length === 0) {
      // Documents may be filed under any name, so an unknown one is searched as written; say so when it finds nothing.
      const unknown = unknownProjectNote(ctx.store, input.project);
      if (unknown) res.notes.push(unknown);
    }
    return { ...res, learned: await learnedRules(ctx.store, input) };
  },
});

/**
 * The rules learned for the asking directory's project that the question clearly names, as the
 * prompt hook would give them: a decayed rule is still the answer to "how do we run the tests",
 * where the fused list ranks it by its faded confidence.
 */
/** The learned rules of the asking directory's project (or the project named) that `query` names, in plain words. */
export async function learnedRules(
  store: AppContext['store'],
  input: { query: string; cwd?: string; collections?: string[]; project?: string },
): Promise<string[]> {
  if ((input.cwd === undefined && input.project === undefined) || (input.collections && !input.collections.includes('instincts')))
    return [];
  // Loaded here: every `query` process imports this module, and most ask a warm server instead.
  const { matchingLines } = await import('../context/prompt.js');
  if (input.project !== undefined) {
    const fingerprint = projectKey(store, input.project);
    return matchingLines(store, { fingerprint, name: projectName(store, fingerprint) }, input.query, LEARNED_LINES);
  }
  const here = projectIn(input.cwd ?? '', store.paths.projectAliases);
  const known = store.sessions.projects();
  if (known.some((p) => p.project === here.fingerprint)) return matchingLines(store, here, input.query, LEARNED_LINES);
  // Asked from a folder with no history (the home folder): the rules that hold anywhere, then every
  // project's, each line naming its project (none is "here").
  const lines = new Map<string, string>();
  const projects = [
    here,
    ...[...known].sort((a, b) => b.sessions - a.sessions).map((p) => ({ fingerprint: p.project, name: p.project_name })),
  ];
  for (const p of projects) {
    for (const line of matchingLines(store, p, input.query, LEARNED_LINES))
      if (!lines.has(line)) lines.set(line, p === here ? line : `${line} (learned in ${p.name})`);
    if (lines.size >= LEARNED_LINES) break;
  }
  return [...lines.values()].slice(0, LEARNED_LINES);
}

const LEARNED_LINES = 3;

export const embedStatus = defineOperation({
  name: 'memory.embed-status',
  summary: 'The configured embedding model and how many documents have its vectors',
  input: z.object({}),
  async run(ctx) {
    const embedder = await embedderFor(ctx.store, ctx.env);
    if (!embedder) return { provider: 'none' as const };
    const stored = readFingerprint(ctx.store.documents);
    return {
      model: embedder.fingerprint,
      stored: stored ?? null,
      model_changed: Boolean(embedder.modelChanged()),
      ...ctx.store.documents.vectorCounts(embedder.key),
    };
  },
});

type EmbedResult =
  | { provider: 'none'; embedded: 0 }
  | {
      model: EmbeddingFingerprint;
      previous: EmbeddingFingerprint | null;
      model_changed: boolean;
      embedded: number;
      removed_stale: number;
      seconds: number;
    };

export const embed = defineOperation({
  name: 'memory.embed',
  summary: 'Embed every document with the configured model; after a model change, re-embed everything (never mixing models)',
  input: z.object({ force: z.boolean().default(false) }),
  async run(ctx, input): Promise<EmbedResult> {
    const embedder = await embedderFor(ctx.store, ctx.env);
    if (!embedder) return { provider: 'none', embedded: 0 };
    const bar = ctx.progress?.('embedding');
    const started = performance.now();
    const result = await embedder.syncAll({ force: input.force, onProgress: (done, total) => bar?.update(done, total) });
    bar?.finish();
    const p = result.previous;
    const f = embedder.fingerprint;
    const changed = p !== undefined && (p.model !== f.model || p.provider !== f.provider || p.dims !== f.dims);
    return {
      model: f,
      previous: p ?? null,
      model_changed: changed,
      embedded: result.embedded,
      removed_stale: result.removedStale,
      seconds: (performance.now() - started) / 1000,
    };
  },
});

/** Installs transformers.js for the onnx provider (no store needed). */
export async function installEmbeddingRuntime(home: string, log: (chunk: string) => void, env: NodeJS.ProcessEnv = process.env) {
  const dir = runtimeDir(home, env);
  const entry = await installRuntime(dir, log, env);
  return { installed: `${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION}`, runtime: dir, entry };
}
