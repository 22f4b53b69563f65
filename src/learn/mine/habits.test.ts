import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { qualityGate } from '../gate.js';
import { contradictedPairs, editedProjectFiles, isObviousPair, mineCoedits, pairKey } from './coedits.js';
import { mineCombos, mineProjectCommands, mineSequences, taskVariant } from './habits.js';

describe('mineSequences', () => {
  it('pairs commands from separate calls within 5 minutes, skipping noise and git', () => {
    const found = mineSequences(
      steps([
        { bash: 'make gen' },
        { bash: 'git status' },
        { bash: 'ls' },
        { bash: './scripts/smoke.sh' },
        { wait: 6 * 60 },
        { bash: 'make gen' },
      ]),
    );
    expect(found.map((c) => c.key)).toEqual(['seq:make-gen->scripts-smoke.sh']);
    expect(found[0]).toMatchObject({ category: 'sequence', miner: 'sequence', notable: false });
  });

  it('lets the gate drop validation-only orders and stock commands', () => {
    const [order] = mineSequences(steps([{ bash: 'mise run fmt' }, { bash: 'mise run lint' }]));
    expect(order && qualityGate(order).reasons).toEqual([expect.stringMatching(/validation order/)]);
    const [stock] = mineSequences(steps([{ bash: 'go build ./...' }, { bash: 'go test ./...' }]));
    expect(stock && qualityGate(stock).reasons).toEqual([expect.stringMatching(/stock toolchain/)]);
  });
});

describe('mineCombos', () => {
  it('collects commands chained with && or ; but not pipes', () => {
    const [combo] = mineCombos(steps([{ bash: 'cd /x && make gen && ./scripts/smoke.sh 2>&1 | tail -5' }]));
    expect(combo).toMatchObject({
      key: 'combo:make-gen+scripts-smoke.sh',
      category: 'combo',
      action: 'Run them together: `make gen && ./scripts/smoke.sh`.',
    });
    expect(mineCombos(steps([{ bash: 'mise run lint | grep error' }]))).toEqual([]);
    expect(mineCombos(steps([{ bash: 'make gen && make build', error: 'boom' }]))).toEqual([]);
  });
});

describe('mineProjectCommands', () => {
  it("learns the project's own task for a purpose, never the stock toolchain", () => {
    const found = mineProjectCommands(
      steps([{ bash: 'mise run test:integration 2>&1' }, { bash: 'go test ./...' }, { bash: 'mise run dup' }], { projectName: 'cli' }),
    );
    expect(found.map((c) => c.key)).toEqual(['pref:cli/test=mise-run-test:integration']);
    expect(found[0]?.trigger).toBe('when you need to run the tests (integration) in cli');
    expect(taskVariant('mise run test')).toBe('');
  });

  it('says how the project is treated in plain English, whatever the purpose', () => {
    const explain = (bash: string) => mineProjectCommands(steps([{ bash }], { projectName: 'cli' }))[0]?.explain;
    expect(explain('mise run fmt')).toMatch(/is how cli is formatted;/);
    expect(explain('mise run build')).toMatch(/is how cli is built;/);
    expect(explain('mise run lint')).toMatch(/is how cli is linted;/);
  });

  it('says a tool run in the project environment (uv, poetry) is run that way, not that the project defines it', () => {
    const [found] = mineProjectCommands(steps([{ bash: 'uv run pytest -q' }], { projectName: 'invoice-parser' }));
    expect(found).toMatchObject({
      key: 'pref:invoice-parser/test=uv-run-pytest',
      trigger: 'when you need to run the tests in invoice-parser',
      action: "Run it as `uv run pytest`, in the project's environment.",
    });
    expect(found?.explain).not.toMatch(/defined by the project/);
  });

  it('says a tool the package manager launches by name (`pnpm vitest`) is that tool, not a task the project defines', () => {
    const [found] = mineProjectCommands(steps([{ bash: 'pnpm vitest run' }], { projectName: 'calc-ts' }));
    expect(found).toMatchObject({
      trigger: 'when you need to run the tests in calc-ts',
      action: "Run `pnpm vitest`: vitest through pnpm, as this project's sessions do.",
    });
    expect(found?.explain).not.toMatch(/defined by the project/);
    // A script of the project's is still its task.
    const [script] = mineProjectCommands(steps([{ bash: 'pnpm lint' }], { projectName: 'calc-ts' }));
    expect(script?.action).toBe("Use the project's task `pnpm lint` rather than calling the toolchain directly.");
  });
});

describe('co-edits', () => {
  const session = steps([
    { edit: 'src/store/schema.ts' },
    { edit: 'src/store/migrations.ts' },
    { edit: 'src/store/schema.test.ts' },
    { read: 'README.md' },
  ]);

  it('pairs project files edited in one session; files outside the project are ignored', () => {
    expect(editedProjectFiles([...session, ...steps([{ edit: '../elsewhere/x.ts' }], { cwd: '/work/demo' })])).toEqual([
      'src/store/schema.ts',
      'src/store/migrations.ts',
      'src/store/schema.test.ts',
      '../elsewhere/x.ts',
    ]);
    const keys = mineCoedits(session).map((c) => c.key);
    // prettier-ignore
    expect(keys).toEqual([
      'combo:demo:src/store/migrations.ts+src/store/schema.ts',
      'combo:demo:src/store/schema.test.ts+src/store/schema.ts',
      'combo:demo:src/store/migrations.ts+src/store/schema.test.ts',
    ]);
  });

  it('skips broad sessions and obvious pairs', () => {
    expect(mineCoedits(steps(Array.from({ length: 13 }, (_, i) => ({ edit: `f${i}.ts` }))))).toEqual([]);
    expect(isObviousPair('src/a.ts', 'src/a.test.ts')).toBe('a file and its own test');
    expect(isObviousPair('cmd/state.go', 'cmd/state_test.go')).toBe('a file and its own test');
    expect(isObviousPair('go.mod', 'go.sum')).toBe('a manifest and its lock file');
    expect(isObviousPair('src/store/schema.ts', 'src/store/migrations.ts')).toBeUndefined();
    const [testPair] = mineCoedits(steps([{ edit: 'src/a.ts' }, { edit: 'src/a.test.ts' }]));
    expect(testPair && qualityGate(testPair).reasons).toEqual(['obvious pair: a file and its own test']);
  });

  it('finds the pairs a session contradicts (one file edited without the other)', () => {
    const pairs = [
      { key: pairKey('demo', 'a.ts', 'b.ts'), files: ['a.ts', 'b.ts'] as [string, string] },
      { key: 'k2', files: ['c.ts', 'd.ts'] as [string, string] },
    ];
    expect(contradictedPairs(pairs, ['a.ts', 'x.ts'])).toEqual(['combo:demo:a.ts+b.ts']);
    expect(contradictedPairs(pairs, ['a.ts', 'b.ts', 'x.ts'])).toEqual([]);
  });
});
