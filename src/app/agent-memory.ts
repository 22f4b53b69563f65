/**
 * The personal agent's memory tools over the store: search is memory.query (hybrid, every
 * collection), saving is memory.add in the agent's own collections. The port is filled in
 * here because the agent's engine sits below app/ and cannot call operations itself.
 */
import type { MemoryPort } from '../agent/tools/memory.js';
import { addMemory, query } from './memory.js';
import { type AppContext, invoke } from './operation.js';

/** Texts handed back to the model are cut: a search result is a pointer, not a document. */
const HIT_CHARS = 1_000;

export function storeMemory(ctx: AppContext): MemoryPort {
  return {
    async search(text, limit) {
      const res = await invoke(query, ctx, { query: text, limit });
      return res.results.map((h) => ({
        id: h.id,
        collection: h.collection,
        ...(h.title ? { title: h.title } : {}),
        text: h.text.length > HIT_CHARS ? `${h.text.slice(0, HIT_CHARS)}…` : h.text,
        ...(h.ts ? { ts: h.ts } : {}),
        score: Math.round(h.score * 1000) / 1000,
      }));
    },
    async save(m) {
      const r = await invoke(addMemory, ctx, {
        text: m.text,
        collection: m.collection,
        ts: m.ts,
        thread: m.session,
        speaker: 'homunculus-agent',
        ...(m.title ? { title: m.title } : {}),
        // A log entry never replaces an earlier one that says something alike.
        supersede: false,
        // Embedding on save would load the model inside a tool call; queries embed what is missing.
        embed: false,
      });
      return { id: r.id };
    },
  };
}
