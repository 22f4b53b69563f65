/**
 * The personal agent's memory tools over the store: search is memory.query (hybrid, every
 * collection), saving is memory.add in the agent's own collections. The port is filled in
 * here because the agent's engine sits below app/ and cannot call operations itself.
 */
import { AGENT_MEMORY, type MemoryHit, type MemoryPort } from '../agent/tools/memory.js';
import { redact } from '../core/redact.js';
import { parseJson } from '../store/json.js';
import { matchedTerms } from '../text/stem.js';
import { promptTerms } from '../text/terms.js';
import { addMemory, query } from './memory.js';
import { type AppContext, invoke } from './operation.js';

/** Texts handed back to the model are cut: a search result is a pointer, not a document. */
const HIT_CHARS = 1_000;

type Hit = Awaited<ReturnType<typeof query.run>>['results'][number];

/** Sessions and episodes are indexed with their files as a JSON list on the last line: said as words for the model. Pure. */
export function filesSaid(text: string): string {
  const cut = text.lastIndexOf('\n');
  const last = text.slice(cut + 1);
  if (!last.startsWith('[') || !last.endsWith(']')) return text;
  const files = parseJson<unknown>(last, undefined);
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) return text;
  const head = cut < 0 ? '' : text.slice(0, cut);
  return files.length ? `${head}\nFiles: ${files.join(', ')}`.trim() : head.trimEnd();
}

const hitOf = (h: Hit): MemoryHit => {
  const text = filesSaid(h.text);
  return {
    id: h.id,
    collection: h.collection,
    // A learned rule is titled by its key, which tells the model nothing its text does not.
    ...(h.title && h.title !== h.id ? { title: h.title } : {}),
    text: text.length > HIT_CHARS ? `${text.slice(0, HIT_CHARS)}…` : text,
    ...(h.ts ? { ts: h.ts } : {}),
    score: Math.round(h.score * 1000) / 1000,
  };
};

/** A saved memory is recalled when it names a third of the message's words (at least one): "favourite editor" finds "My favourite editor is Helix". */
const names = (message: string, text: string): boolean => {
  const terms = promptTerms(message);
  return terms.length > 0 && matchedTerms(terms, text) >= Math.max(1, Math.ceil(terms.length / 3));
};

export function storeMemory(ctx: AppContext): MemoryPort {
  return {
    async search(text, limit) {
      // Asked from no project: the learned rules the question names come from every project, each
      // naming its own; ranked among raw records, a faded rule would lose to the talk it came from.
      const res = await invoke(query, ctx, { query: text, limit, cwd: ctx.store.paths.home });
      return { rules: res.learned, results: res.results.map(hitOf) };
    },
    // Full-text over the agent's own memories only: no model to load before every message.
    async recall(message, limit) {
      if (promptTerms(message).length === 0) return [];
      const res = await invoke(query, ctx, { query: message, collections: [AGENT_MEMORY], mode: 'bm25', limit });
      return res.results.filter((h) => names(message, h.text)).map(hitOf);
    },
    async save(m) {
      // What the agent saves comes back in later prompts and searches: never a secret in it.
      const r = await invoke(addMemory, ctx, {
        text: redact(m.text),
        collection: m.collection,
        ts: m.ts,
        thread: m.session,
        speaker: 'homunculus-agent',
        ...(m.title ? { title: redact(m.title) } : {}),
        // A log entry never replaces an earlier one that says something alike.
        supersede: false,
        // Embedding on save would load the model inside a tool call; queries embed what is missing.
        embed: false,
      });
      return { id: r.id };
    },
  };
}
