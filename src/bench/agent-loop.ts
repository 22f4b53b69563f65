/**
 * `npm run bench:agent`, the loop: what a turn costs beyond the model, measured against the
 * Ollama stub on loopback. A bare round trip (fetch, the same streamed request, the body
 * read to its end) is the floor; a loop turn adds the router, the prompt builder with its
 * memory retrieval, the AI SDK, the budget row, the audit entry and the observation. The
 * turn with a tool call makes two model calls and runs echo through the registry.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopHarness, stubModel } from '../test-support/agent-loop.js';
import { ollamaOneToolCall, startOllamaStub } from '../test-support/ollama-stub.js';
import { formatTable, machine, median, percentile } from './measure.js';

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function loopOverheadBench(runs = Number(process.env.BENCH_RUNS ?? 30)): Promise<string> {
  const plain = await startOllamaStub(() => ({ text: 'Fine, thanks.' }));
  const tooled = await startOllamaStub(ollamaOneToolCall({ name: 'echo', input: { text: 'ping' } }, 'Echoed.'));
  const h = loopHarness({ local: stubModel('ollama', plain.baseUrl) });
  const t = loopHarness({ local: stubModel('ollama', tooled.baseUrl) });
  const body = JSON.stringify({ model: 'llama-stub', stream: true, messages: [{ role: 'user', content: 'how are you?' }] });
  const bare = () =>
    fetch(`${plain.baseUrl}/api/chat`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((r) => r.text());
  const samples: number[][] = [[], [], []];
  try {
    for (let i = -3; i < runs; i++) {
      const round = [
        await time(bare),
        await time(() => h.loop.turn({ session: `b${i}`, message: 'how are you?' })),
        await time(() => t.loop.turn({ session: `t${i}`, message: 'echo ping' })),
      ];
      if (i >= 0) round.forEach((ms, k) => samples[k]?.push(ms));
    }
  } finally {
    h.cleanup();
    t.cleanup();
    await plain.close();
    await tooled.close();
  }
  const [b, turn, tool] = samples as [number[], number[], number[]];
  const floor = median(b);
  const rows = [
    ['bare stub round trip (fetch)', median(b), percentile(b, 90), '-'],
    ['loop turn, text answer (1 model call)', median(turn), percentile(turn, 90), (median(turn) - floor).toFixed(2)],
    ['loop turn with echo (2 model calls)', median(tool), percentile(tool, 90), (median(tool) - 2 * floor).toFixed(2)],
  ];
  return [
    '## Agent loop overhead per turn (`npm run bench:agent`)',
    '',
    `${runs} interleaved rounds after 3 warm-up rounds, the Ollama stub on 127.0.0.1 streaming NDJSON; a new session each turn. ${machine()}.`,
    '',
    formatTable(['path', 'median ms', 'p90 ms', 'overhead ms (vs bare round trips)'], rows),
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await loopOverheadBench());
}
