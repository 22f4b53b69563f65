/**
 * npm run bench:beam -- --data DIR [--dump OUT.jsonl] [--bm25] — memories that change (BEAM,
 * knowledge_update questions). Each chat's messages are imported as a user would (`memory
 * import` of one JSONL file, no flag), one collection per chat; each question is asked within
 * its chat, and it counts when the message that UPDATED the fact ranks above the ORIGINAL one
 * (the original left out of the results counts as below). Printed beside plain BM25 over the
 * same store. The dump holds one `{sample_id, question, retrieved}` line per question.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importMemories, query } from '../app/memory.js';
import { invoke } from '../app/operation.js';
import { fixedClock } from '../core/clock.js';
import { round } from '../core/text.js';
import { openStore } from '../store/store.js';
import { chatFile, memories, questions, updatedFirst } from './beam-data.js';
import { machine } from './measure.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: 'string' }, dump: { type: 'string' }, bm25: { type: 'boolean' } } });
  if (!values.data) throw new Error('usage: npm run bench:beam -- --data DIR [--dump OUT.jsonl] [--bm25]');
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'bench-beam-'));
  const store = openStore({ home: join(dir, 'home'), clock: fixedClock(new Date('2026-01-01T00:00:00Z')) });
  const modes = values.bm25 ? (['bm25'] as const) : (['hybrid', 'bm25'] as const);
  const hits = new Map<string, number>(modes.map((m) => [m, 0]));
  const dump: string[] = [];
  let asked = 0;
  const same: string[] = [];
  try {
    const ctx = { store, env: process.env };
    for (const sample of readdirSync(values.data).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b))) {
      const folder = join(values.data, sample);
      const chat = chatFile.parse(JSON.parse(readFileSync(join(folder, 'chat.json'), 'utf8')));
      const file = join(dir, `${sample}.jsonl`);
      writeFileSync(file, memories(chat, sample));
      await invoke(importMemories, ctx, { file, collection: `beam${sample}`, embed: !values.bm25 });
      for (const q of questions.parse(JSON.parse(readFileSync(join(folder, 'pq.json'), 'utf8'))).knowledge_update) {
        const { original_info: original, updated_info: updated } = q.source_chat_ids;
        // A question whose original and updated message are the same message cannot be answered either way.
        if (updated.every((id) => original.includes(id))) {
          same.push(`${sample}: ${q.question}`);
          continue;
        }
        asked++;
        const ids = (list: number[]) => list.map((id) => `beam${sample}-${id}`);
        for (const mode of modes) {
          const res = await invoke(query, ctx, { query: q.question, collections: [`beam${sample}`], limit: 50, mode });
          const retrieved = res.results.map((r) => r.id);
          const first = updatedFirst(retrieved, ids(q.source_chat_ids.updated_info), ids(q.source_chat_ids.original_info));
          if (first) hits.set(mode, (hits.get(mode) ?? 0) + 1);
          if (process.env.BEAM_TRACE) {
            const at = (l: string[]) => l.map((id) => retrieved.indexOf(id) + 1).join(',');
            console.error(
              `${mode} ${sample} updated@${at(ids(q.source_chat_ids.updated_info))} original@${at(ids(q.source_chat_ids.original_info))} ${q.question}`,
            );
          }
          if (mode === modes[0]) dump.push(JSON.stringify({ sample_id: sample, question: q.question, retrieved: retrieved.slice(0, 10) }));
        }
      }
    }
    if (values.dump) writeFileSync(values.dump, `${dump.join('\n')}\n`);
    console.log(`Machine: ${machine()}\n\n## bench:beam: ${asked} knowledge-update questions\n`);
    if (same.length) console.log(`Left out, their original and updated message being one message: ${same.join('; ')}\n`);
    console.log('ranking | updated message above the original (target >= 90%)');
    console.log('---|---');
    for (const mode of modes) {
      const n = hits.get(mode) ?? 0;
      console.log(
        `${mode === 'hybrid' ? 'query (hybrid, as shipped)' : 'BM25 only'} | ${n}/${asked} (${round((100 * n) / Math.max(asked, 1), 1)}%)`,
      );
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
