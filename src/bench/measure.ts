/** Timing helpers shared by every benchmark: samples, medians, percentiles, tables. */
import { spawnSync } from 'node:child_process';
import { cpus, platform, release, totalmem } from 'node:os';
import { percentile } from '../core/percentile.js';

export { percentile };

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Wall-clock milliseconds of `fn`, run `runs` times after `warmup` unmeasured runs. */
export function timeSync(fn: () => void, runs: number, warmup = 1): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

export interface ProcessSpec {
  label: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  input?: string;
}

/**
 * Times whole processes, interleaving the specs run by run so machine noise hits them
 * alike; returns the samples of each spec in milliseconds.
 */
export function timeProcesses(specs: readonly ProcessSpec[], runs: number, warmup = 2): number[][] {
  const samples = specs.map(() => [] as number[]);
  for (let round = -warmup; round < runs; round++) {
    specs.forEach((spec, i) => {
      const start = process.hrtime.bigint();
      const result = spawnSync(spec.command, [...spec.args], {
        env: spec.env ?? process.env,
        input: spec.input,
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`${spec.label} exited ${result.status}: ${result.stderr?.toString().slice(0, 500)}`);
      if (round >= 0) samples[i]?.push(ms);
    });
  }
  return samples;
}

export function formatTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => (typeof c === 'number' ? formatNumber(c) : c)));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(cells[0] ?? []), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...cells.slice(1).map(line)].join('\n');
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} x ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${platform()} ${release()}`;
}
