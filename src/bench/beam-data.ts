/** Reading BEAM chats for bench:beam: the messages as memory lines, the knowledge-update questions. */
import { z } from 'zod';

const message = z.object({ role: z.string(), id: z.number(), time_anchor: z.string().optional(), content: z.string() });
export const chatFile = z.array(z.object({ time_anchor: z.string().nullable().optional(), turns: z.array(z.array(message)) }));
export const questions = z.object({
  knowledge_update: z.array(
    z.object({
      question: z.string(),
      source_chat_ids: z.object({ original_info: z.array(z.number()), updated_info: z.array(z.number()) }),
    }),
  ),
});

/** "March-15-2024" -> 2024-03-15T12:00:00Z. */
export function anchorTime(anchor: string | undefined | null): string | undefined {
  const t = anchor ? Date.parse(`${anchor.replace(/-/g, ' ')} 12:00 UTC`) : Number.NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

/** The chat as memory lines: `role: content`, dated by the last time anchor seen. */
export function memories(chat: z.infer<typeof chatFile>, sample: string): string {
  const lines: string[] = [];
  for (const batch of chat) {
    let ts = anchorTime(batch.time_anchor);
    for (const turn of batch.turns)
      for (const m of turn) {
        ts = anchorTime(m.time_anchor) ?? ts;
        lines.push(JSON.stringify({ id: `beam${sample}-${m.id}`, text: `${m.role}: ${m.content}`, ...(ts ? { ts } : {}) }));
      }
  }
  return `${lines.join('\n')}\n`;
}

/** Updated first: an updated message ranks, above every original one. */
export function updatedFirst(retrieved: readonly string[], updated: readonly string[], original: readonly string[]): boolean {
  const rank = (ids: readonly string[]): number => Math.min(...ids.map((id) => retrieved.indexOf(id)).filter((i) => i >= 0), Infinity);
  return rank(updated) < rank(original);
}
