/**
 * Engine core benchmark: store write and read paths in process, and the CLI as a whole
 * process against bare Node start-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../core/clock.js';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { formatTable, median, percentile, timeProcesses, timeSync } from './measure.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'bin.js');

export async function runCoreBench(options: { instincts?: number; runs?: number } = {}): Promise<string> {
  const count = options.instincts ?? 10_000;
  const runs = options.runs ?? 15;
  const home = mkdtempSync(join(tmpdir(), 'homunculus-bench-'));
  try {
    const store = openStore({ home, clock: fixedClock('2026-03-01T00:00:00Z') });
    let i = 0;
    const obsSamples = timeSync(
      () => {
        store.observations.insert({
          source: 'bench',
          session_id: `s${i % 50}`,
          tool_use_id: `t${i}`,
          ts: '2026-03-01T00:00:00Z',
          tool: 'Bash',
          input: 'npm test',
        });
        i++;
      },
      2000,
      10,
    );
    let k = 0;
    const observeSamples = timeSync(
      () => {
        observe(store, { pattern: `seq:tool-${k % count}->step-${k}`, explain: `benchmark pattern ${k}` });
        k++;
      },
      count,
      0,
    );
    const reinforceSamples = timeSync(() => void observe(store, { pattern: 'seq:tool-1->step-1' }), 500);
    const listSamples = timeSync(() => void store.instincts.list({ limit: 50 }), 50);
    const searchSamples = timeSync(() => void store.instincts.search('step OR tool', 20), 50);
    store.close();

    const env = { ...process.env, HOMUNCULUS_HOME: home };
    const [bare, status, get] = timeProcesses(
      [
        { label: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
        { label: 'homunculus status', command: process.execPath, args: [BIN, 'status', '--json'], env },
        { label: 'homunculus get', command: process.execPath, args: [BIN, 'get', 'seq:tool-1->step-1', '--json'], env },
      ],
      runs,
    );
    const base = median(bare ?? []);
    const rows: (string | number)[][] = [
      ['record observation (in process, one transaction each)', median(obsSamples), percentile(obsSamples, 95), ''],
      ['observe new instinct (in process)', median(observeSamples), percentile(observeSamples, 95), ''],
      ['reinforce instinct (in process)', median(reinforceSamples), percentile(reinforceSamples, 95), ''],
      [`list top 50 of ${count.toLocaleString('en-US')}`, median(listSamples), percentile(listSamples, 95), ''],
      [`FTS5 search over ${count.toLocaleString('en-US')}`, median(searchSamples), percentile(searchSamples, 95), ''],
      ['node -e 0 (whole process)', base, percentile(bare ?? [], 95), '1.00x'],
      [
        `homunculus status (whole process, ${count.toLocaleString('en-US')} instincts)`,
        median(status ?? []),
        percentile(status ?? [], 95),
        `${(median(status ?? []) / base).toFixed(2)}x`,
      ],
      ['homunculus get (whole process)', median(get ?? []), percentile(get ?? [], 95), `${(median(get ?? []) / base).toFixed(2)}x`],
    ];
    return `## Engine core\n\n${formatTable(['operation', 'p50 ms', 'p95 ms', 'vs node -e 0'], rows)}\n`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
