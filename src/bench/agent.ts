/**
 * `npm run bench:agent`: the sandbox and the gateway. The start-up cost of shell_exec's bubblewrap
 * sandbox, timed as whole processes against a bare `sh -c true`: a minimal bwrap (read-only
 * root only), the full sandbox command line shell_exec builds (namespaces, tmpfs, hidden
 * homes, prlimit, and setpriv when run as root), and runSandboxed as the tool calls it
 * (spawn from Node, output collection, timeout timer). Runs are interleaved. Then the agent
 * loop's own cost per turn (agent-loop.ts) and the gateway's /health and /api/v1/chat (gateway.ts).
 */
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BWRAP, bwrapArgs, planSandbox, runSandboxed, sandboxProblem } from '../agent/sandbox.js';
import { runGatewayBench } from './gateway.js';
import { formatTable, machine, median, percentile, type ProcessSpec, timeProcesses } from './measure.js';
import { loopOverheadBench } from './agent-loop.js';

async function timeRunSandboxed(config: Parameters<typeof runSandboxed>[1], runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = -3; i < runs; i++) {
    const start = process.hrtime.bigint();
    const r = await runSandboxed(['true'], config);
    if (r.exitCode !== 0) throw new Error(`runSandboxed(true) exited ${r.exitCode}: ${r.stderr}`);
    if (i >= 0) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

export async function runAgentBench(runs = Number(process.env.BENCH_RUNS ?? 30)): Promise<string> {
  const problem = sandboxProblem();
  if (problem) return `## Agent sandbox start-up\n\nSkipped: ${problem} (install bubblewrap: apt-get install bubblewrap).\n`;
  const dir = mkdtempSync(join(tmpdir(), 'homunculus-bench-agent-'));
  try {
    const home = join(dir, 'home');
    const workspace = join(home, 'workspace');
    mkdirSync(workspace, { recursive: true });
    if (process.getuid?.() === 0) chownSync(workspace, 65534, 65534);
    const config = { workspace, home };
    const full = bwrapArgs(planSandbox(config), ['true']);
    const specs: ProcessSpec[] = [
      { label: 'sh -c true', command: 'sh', args: ['-c', 'true'] },
      { label: 'bwrap --ro-bind / / true', command: BWRAP, args: ['--ro-bind', '/', '/', 'true'] },
      { label: 'shell_exec sandbox (bwrap + prlimit)', command: BWRAP, args: full },
    ];
    const samples = timeProcesses(specs, runs, 3);
    const labels = [...specs.map((s) => s.label), 'runSandboxed from Node'];
    samples.push(await timeRunSandboxed(config, runs));
    const base = median(samples[0] as number[]);
    const rows = labels.map((label, i) => {
      const s = samples[i] as number[];
      return [label, median(s), percentile(s, 90), `${(median(s) / base).toFixed(1)}x`];
    });
    return [
      '## Agent sandbox start-up (`npm run bench:agent`)',
      '',
      `${runs} interleaved runs per command after 3 warm-up rounds, each running \`true\`. ${machine()}; running as ${process.getuid?.() === 0 ? 'root (the command drops to nobody with setpriv)' : 'a user (in its own user namespace)'}.`,
      '',
      formatTable(['command', 'median ms', 'p90 ms', 'vs sh -c true'], rows),
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await runAgentBench());
  console.log(await loopOverheadBench());
  console.log(await runGatewayBench());
}
