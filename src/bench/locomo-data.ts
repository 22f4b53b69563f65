/**
 * Reading the LoCoMo file format for the turn-level retrieval benchmark (the format, not
 * the data, lives here: any file in this shape works). Documents are "speaker: text"
 * plus the image caption; sessions become threads; evidence ids are cleaned as the
 * benchmark's README says.
 */
import { readFileSync } from 'node:fs';
import type { DocumentInput } from '../store/documents/index.js';

interface LocomoQuestion {
  question: string;
  category: number;
  evidence: string[];
}

export interface LocomoSample {
  sampleId: string;
  documents: DocumentInput[];
  questions: LocomoQuestion[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> ISO instant (UTC); undefined when the text has another shape. */
export function parseSessionDate(text: string): string | undefined {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) return undefined;
  const month = MONTHS.indexOf((m[5] as string).toLowerCase());
  if (month < 0) return undefined;
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === 'pm') hour += 12;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

/** Splits on ';', ',' and whitespace, drops malformed ids, reads 'D30:05' as 'D30:5'. */
export function cleanEvidence(raw: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const entry of raw) {
    for (const part of String(entry).split(/[;,\s]+/)) {
      const m = /^D(\d+):(\d+)$/.exec(part.trim());
      if (m) out.add(`D${Number(m[1])}:${Number(m[2])}`);
    }
  }
  return [...out];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export function loadLocomo(path: string): LocomoSample[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as {
    sample_id: string;
    conversation: Record<string, unknown>;
    qa: Record<string, unknown>[];
  }[];
  return raw.map((sample) => {
    const documents: DocumentInput[] = [];
    const sessions = Object.keys(sample.conversation)
      .filter((k) => /^session_\d+$/.test(k))
      .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
    for (const key of sessions) {
      const ts = parseSessionDate(String(sample.conversation[`${key}_date_time`] ?? ''));
      (sample.conversation[key] as RawTurn[]).forEach((turn, i) => {
        const caption = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : '';
        documents.push({
          id: turn.dia_id,
          text: `${turn.speaker}: ${turn.text}${caption}`,
          collection: 'memories',
          ts,
          thread: key,
          seq: i + 1,
          speaker: turn.speaker,
        });
      });
    }
    const questions = sample.qa
      .filter((q) => [1, 2, 3, 4].includes(Number(q.category)))
      .map((q) => ({
        question: String(q.question),
        category: Number(q.category),
        evidence: cleanEvidence((q.evidence as unknown[]) ?? []),
      }))
      .filter((q) => q.evidence.length > 0);
    return { sampleId: sample.sample_id, documents, questions };
  });
}
