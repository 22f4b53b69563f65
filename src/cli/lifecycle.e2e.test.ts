/** The whole instinct lifecycle through the built binary, the clock moved with HOMUNCULUS_NOW. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { runCli, runCliJson } from '../test-support/run-cli.js';

let home: ReturnType<typeof tempDir>;
beforeAll(() => (home = tempDir()));
afterAll(() => home.cleanup());

const day = (n: number): string => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
const at = (n: number) => ({ HOMUNCULUS_NOW: day(n) });
const run = <T = Record<string, unknown>>(n: number, ...args: string[]): Promise<T> => runCliJson<T>(home.path, args, at(n));

interface View {
  pattern: string;
  confidence: number;
  evidence: number;
  level: string;
  conviction: boolean;
  stale_conviction: boolean;
}

describe('lifecycle from the command line', () => {
  it('learns, decays, promotes to a conviction, and flags it stale', async () => {
    expect((await runCli(home.path, ['init'])).status).toBe(0);
    // Observed every other day for three weeks: 11 observations, 0.30 + 10 x 0.05 = 0.80.
    for (let i = 0; i <= 20; i += 2) {
      run(i, 'observe', 'pref:pkg=pnpm', '--explain', 'Use pnpm, never npm, in this repository', '--domain', 'tooling', '--project', 'p1');
    }
    let view = await run<View>(20, 'get', 'pref:pkg=pnpm');
    expect(view).toMatchObject({ evidence: 11, confidence: 0.8, level: 'raw', conviction: false });

    // Exactly 7 days idle: one decay period; the instinct is still "seen within 7 days".
    view = await run<View>(27, 'get', 'pref:pkg=pnpm');
    expect(view.confidence).toBe(0.75);
    const preview = await run<{ candidates: { pattern: string; eligible: boolean }[] }>(27, 'evolve');
    expect(preview.candidates).toEqual([expect.objectContaining({ pattern: 'pref:pkg=pnpm', eligible: true })]);

    // A day later it is idle too long to promote.
    expect((await run<{ candidates: unknown[] }>(28, 'evolve')).candidates).toEqual([]);

    const promoted = await run<{ promoted: string[] }>(27, 'evolve', '--promote');
    expect(promoted.promoted).toEqual(['pref:pkg=pnpm']);
    const convictions = readFileSync(join(home.path, 'convictions.md'), 'utf8');
    expect(convictions).toContain('- **pkg=pnpm**: Use pnpm, never npm, in this repository');
    const file = readFileSync(join(home.path, 'instincts', 'personal', 'pref-pkg-pnpm.md'), 'utf8');
    expect(file).toMatch(/promoted: true/);
    expect(file).toMatch(/promoted_to: .*convictions\.md/);

    // Idle for 9 weeks: 0.80 - 9 x 0.05 = 0.35 < 0.40, so the conviction may be stale.
    const stale = await run<{ stale: { pattern: string; confidence: number }[] }>(20 + 63, 'evolve');
    expect(stale.stale).toEqual([{ pattern: 'pref:pkg=pnpm', title: 'pkg=pnpm', confidence: 0.35 }]);
    const status = await run<{ convictions: { stale: boolean }[] }>(20 + 63, 'status');
    expect(status.convictions).toEqual([expect.objectContaining({ stale: true })]);
    // The floor holds a year later.
    expect((await run<View>(400, 'get', 'pref:pkg=pnpm')).confidence).toBe(0.2);
  });

  it('consolidates levels and reports stats in the contract shape', async () => {
    const result = await run<Record<string, number>>(20, 'consolidate');
    expect(result).toMatchObject({ promoted_to_mature: 1, promoted_to_rule: 1, promoted_to_universal: 0, total: 1 });
    expect(await run(20, 'stats')).toEqual({
      total: 1,
      raw: 0,
      mature: 0,
      rules: 1,
      universal: 0,
      avg_evidence: 11,
      max_evidence: 11,
      by_category: { preference: { count: 1, avg_evidence: 11 } },
    });
  });
});
