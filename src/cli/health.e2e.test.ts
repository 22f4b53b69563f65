/** `homunculus health`, `changes` and `telemetry` on a seeded home. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { cli, tempDir } from '../test-support/cli.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'installing packages', action: 'use pnpm', occurrences: 3 });
  store.close();
});
afterEach(() => home.cleanup());

describe('health, changes and telemetry', () => {
  it('print the tiers and quality, the changes of a range, and the hook calls, as text and --json', () => {
    const health = cli(home.path, ['health']);
    expect(health.status).toBe(0);
    expect(health.stdout).toMatch(/^T1 Working: 0 sessions in the last 24 h, 0 observations pending$/m);
    // No facts yet: nothing to judge, said so rather than marked unhealthy.
    expect(health.stdout).toMatch(/^ {2}Dedup ratio: 0 \(healthy: below 0\.3; not measured yet\)$/m);
    expect(health.stdout).not.toContain('✗');
    const today = new Date().toISOString().slice(0, 10);
    const changes = cli(home.path, ['changes', '--from', today, '--to', today, '--json']);
    expect(JSON.parse(changes.stdout).instincts.created[0].pattern).toBe('pref:pkg=pnpm');
    // Without --to, up to now.
    expect(cli(home.path, ['changes', '--help']).stdout).toMatch(/default:\s+now\)/);
    const since = cli(home.path, ['changes', '--from', today, '--json']);
    expect(since.status).toBe(0);
    expect(JSON.parse(since.stdout).instincts.created[0].pattern).toBe('pref:pkg=pnpm');
    const bad = cli(home.path, ['changes', '--from', 'monday', '--to', today]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--from must be a date such as 2026-03-01/);

    expect(cli(home.path, ['telemetry']).stdout).toBe('No hook calls recorded yet.\n');
    mkdirSync(join(home.path, 'logs'));
    const line = (ms: number, outcome: string) =>
      JSON.stringify({ ts: '2026-03-01T10:00:00.000Z', event: 'prompt', agent: 'codex', ms, outcome });
    writeFileSync(join(home.path, 'logs', 'hook-calls.jsonl'), [line(10, 'ok'), line(30, 'failed'), '{'].join('\n'));
    const telemetry = cli(home.path, ['telemetry']);
    expect(telemetry.stdout).toMatch(/^2 hook calls since 2026-03-01T10:00:00.000Z \(1 unreadable lines skipped\)$/m);
    expect(telemetry.stdout).toMatch(/^ {2}prompt: 2 calls, p50 10 ms, p95 30 ms, p99 30 ms; 1 failed, 0 timed out, 0 over budget$/m);
    expect(JSON.parse(cli(home.path, ['telemetry', '--json']).stdout)).toMatchObject({ calls: 2, skipped_lines: 1 });
  });
});
