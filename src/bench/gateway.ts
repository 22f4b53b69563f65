/**
 * The gateway's share of `npm run bench:agent`: GET /health (no token) and POST /api/v1/chat
 * with the bearer token (recognised by its HMAC after the one bcrypt check) answered by the
 * scripted mock model through the test-support runner (one tool call, echo, then text), over
 * real HTTP on 127.0.0.1. What it measures is the gateway and the runner's bookkeeping, not a model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToken } from '../agent/gateway-token.js';
import { builtinRegistry } from '../agent/tools/builtin.js';
import { startGateway } from '../gateway/server.js';
import { type ScriptStep, mockRunner, scriptedModel } from '../test-support/mock-runner.js';
import { formatTable, machine, percentile } from './measure.js';

async function time(runs: number, call: () => Promise<Response>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -20; i < runs; i++) {
    const start = performance.now();
    const res = await call();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`gateway answered ${res.status}`);
    if (i >= 0) samples.push(performance.now() - start);
  }
  return samples;
}

export async function runGatewayBench(runs = Number(process.env.BENCH_RUNS ?? 300)): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'homunculus-bench-gateway-'));
  const script: ScriptStep[] = [];
  for (let i = 0; i < runs + 20; i++) script.push({ tool: 'echo', input: { text: 'hi' } }, { text: 'It said hi.' });
  const runner = mockRunner({ model: scriptedModel(script), registry: builtinRegistry(), context: { workspace: dir, home: dir } });
  const tokenPath = join(dir, 'agent-token.bcrypt');
  const token = await createToken(tokenPath);
  const gateway = await startGateway({ runner, tokenPath, port: 0, rate: { perMinute: 1e9, burst: 1e9 } });
  try {
    const health = await time(runs, () => fetch(`${gateway.url}/health`));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ message: 'echo hi', session: 'bench' });
    const chat = await time(runs, () => fetch(`${gateway.url}/api/v1/chat`, { method: 'POST', headers, body }));
    const row = (label: string, s: number[]) => [label, percentile(s, 50), percentile(s, 95)];
    return [
      '## Agent gateway (`npm run bench:agent`)',
      '',
      `${runs} sequential requests each after 20 warm-up ones, over HTTP on 127.0.0.1 (Node's fetch, kept-alive). ${machine()}. The chat is one echo tool call and a text answer from the scripted mock model; the bearer token went through bcrypt (cost 12) once, in the warm-up.`,
      '',
      formatTable(['request', 'p50 ms', 'p95 ms'], [row('GET /health', health), row('POST /api/v1/chat (mock model, 1 tool call)', chat)]),
      '',
    ].join('\n');
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
