/** MCP round trips over stdio against a 10,000-pattern store (issue: observe, suggest, search_instincts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { importPatternRows } from '../app/instincts.js';
import { invoke } from '../app/operation.js';
import { consolidateLevels } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { formatTable, median, percentile } from './measure.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'bin.js');
const CATEGORIES = ['seq', 'pref', 'fix', 'combo'] as const;

async function timeCalls(
  client: Client,
  runs: number,
  args: (i: number) => { name: string; arguments: Record<string, unknown> },
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -5; i < runs; i++) {
    const start = process.hrtime.bigint();
    await client.callTool(args(i + 5));
    if (i >= 0) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

export async function runMcpBench(options: { patterns?: number; runs?: number } = {}): Promise<string> {
  const count = options.patterns ?? 10_000;
  const runs = options.runs ?? 200;
  const home = mkdtempSync(join(tmpdir(), 'homunculus-mcp-bench-'));
  try {
    const store = openStore({ home });
    const rows = Array.from({ length: count }, (_, i) => ({
      pattern: `${CATEGORIES[i % 4]}:bench-${i}-${['lint', 'test', 'build', 'deploy', 'format'][i % 5]}`,
      explain: `synthetic pattern ${i} about ${['eslint', 'vitest', 'tsc', 'docker', 'prettier'][i % 5]}`,
      confidence: 1 + (i % 15),
    }));
    invoke(importPatternRows, { store, env: process.env }, { rows, project: '', source: 'bench' });
    consolidateLevels(store);
    store.close();

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: { ...process.env, HOMUNCULUS_HOME: home } as Record<string, string>,
    });
    const client = new Client({ name: 'bench', version: '1' });
    const connectStart = process.hrtime.bigint();
    await client.connect(transport);
    const connectMs = Number(process.hrtime.bigint() - connectStart) / 1e6;
    const observe = await timeCalls(client, runs, (i) => ({ name: 'observe', arguments: { pattern: `seq:bench-new-${i % 50}` } }));
    const suggest = await timeCalls(client, runs, () => ({ name: 'suggest', arguments: { keyword: 'vitest' } }));
    const search = await timeCalls(client, runs, (i) => ({
      name: 'search_instincts',
      arguments: { query: ['lint', 'eslint OR prettier', 'deploy*', 'build NOT docker'][i % 4] },
    }));
    await client.close();
    const rowsOut = [
      ['connect (spawn + initialize)', connectMs, connectMs],
      ['observe', median(observe), percentile(observe, 95)],
      ['suggest (keyword, compact)', median(suggest), percentile(suggest, 95)],
      ['search_instincts (limit 20)', median(search), percentile(search, 95)],
    ];
    return `## MCP tool calls over stdio (${count.toLocaleString('en-US')} patterns, ${runs} calls each)\n\n${formatTable(['call', 'p50 ms', 'p95 ms'], rowsOut)}\n`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
