/**
 * Reading REALTALK chats (one JSON object per chat: `session_N` message lists, `qa`) into the
 * turn-level shape of the LoCoMo bench: one document per message, "speaker: text" plus an
 * image caption, sessions as threads, dated by each message's own time. Evidence ids are
 * cleaned as the dataset's README says: split on ';' ',' and spaces, a trailing '.' dropped,
 * ranges expanded, ids the chat does not hold dropped.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DocumentInput } from '../store/documents/index.js';
import type { LocomoSample } from './locomo-data.js';

/** "29.12.2023, 11:23:21" -> ISO instant (UTC). */
export function parseMessageTime(text: string): string | undefined {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4}),\s*(\d{1,2}):(\d{2}):(\d{2})$/.exec(text.trim());
  return m ? new Date(Date.UTC(+m[3]!, +m[2]! - 1, +m[1]!, +m[4]!, +m[5]!, +m[6]!)).toISOString() : undefined;
}

/** Evidence ids of one question, cleaned and checked against the chat's ids. */
export function realtalkEvidence(raw: readonly unknown[], known: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const part of raw.flatMap((e) => String(e).split(/[;,\s]+/))) {
    const id = part.trim().replace(/\.$/, '');
    const range = /^D(\d+):(\d+)-(?:D\1:)?(\d+)$/.exec(id);
    const ids = range ? Array.from({ length: Math.max(0, +range[3]! - +range[2]! + 1) }, (_, i) => `D${range[1]}:${+range[2]! + i}`) : [id];
    for (const one of ids) {
      const m = /^D(\d+):(\d+)$/.exec(one);
      const clean = m ? `D${Number(m[1])}:${Number(m[2])}` : '';
      if (clean && known.has(clean)) out.add(clean);
    }
  }
  return [...out];
}

interface RawMessage {
  clean_text: string;
  speaker: string;
  date_time: string;
  dia_id: string;
  blip_caption?: string;
}

export function loadRealtalk(dir: string): LocomoSample[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const chat = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      const documents: DocumentInput[] = [];
      const sessions = Object.keys(chat)
        .filter((k) => /^session_\d+$/.test(k))
        .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
      for (const key of sessions)
        (chat[key] as RawMessage[]).forEach((m, i) => {
          const caption = m.blip_caption ? ` [shares ${m.blip_caption}]` : '';
          const id = m.dia_id.replace(/^D(\d+):0*(\d+)$/, 'D$1:$2');
          documents.push({
            id,
            text: `${m.speaker}: ${m.clean_text}${caption}`,
            collection: 'memories',
            ts: parseMessageTime(m.date_time),
            thread: key,
            seq: i + 1,
            speaker: m.speaker,
          });
        });
      const known = new Set(documents.map((d) => d.id));
      const questions = ((chat.qa as Record<string, unknown>[]) ?? [])
        .map((q) => ({
          question: String(q.question),
          category: Number(q.category),
          evidence: realtalkEvidence((q.evidence as unknown[]) ?? [], known),
        }))
        .filter((q) => q.evidence.length > 0);
      return { sampleId: basename(file, '.json'), documents, questions };
    });
}
