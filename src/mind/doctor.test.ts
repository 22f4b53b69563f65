import { scratchDir } from '../test-support/cli.js';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mindVerdict } from './doctor.js';
import { valuesPath } from './files.js';
import { initInstance } from './instance.js';

const fresh = () => initInstance(join(scratchDir('mind-doctor-'), 'mind'), 2026).root;

describe('doctor on the mind', () => {
  it('says when there is no mind, and when all is well (with what is not committed)', () => {
    expect(mindVerdict(join(tmpdir(), 'no-such-mind'), 2026)).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('not set up'),
    });
    const root = fresh();
    expect(mindVerdict(root, 2026)).toMatchObject({ status: 'ok', detail: expect.stringMatching(/0 memories, every file valid$/) });
    writeFileSync(join(root, 'data', 'soul.md'), '# Soul\n\nChanged.');
    expect(mindVerdict(root, 2026).detail).toMatch(/changed since the last commit \(homunculus mind commit\)/);
  });

  it('fails on a corrupt file, naming it and the fix, and leaves it as it was', () => {
    const root = fresh();
    writeFileSync(valuesPath(join(root, 'data')), '[{"name": "x", "weight": 7}]');
    const verdict = mindVerdict(root, 2026);
    expect(verdict.status).toBe('fail');
    expect(verdict.detail).toMatch(/values\.json is corrupt/);
    expect(verdict.fix).toBeTruthy();
    expect(readFileSync(valuesPath(join(root, 'data')), 'utf8')).toBe('[{"name": "x", "weight": 7}]');
  });

  it('fails when a prompt file is missing, with init as the fix', () => {
    const root = fresh();
    rmSync(join(root, 'prompts', 'reflect-evolve', 'prompt.md'));
    expect(mindVerdict(root, 2026)).toMatchObject({ status: 'fail', detail: expect.stringContaining('prompts/reflect-evolve/prompt.md') });
  });

  it('fails when a prompt uses a variable its loop does not provide (an edit with a typo), naming it', () => {
    const root = fresh();
    writeFileSync(join(root, 'prompts', 'action-act', 'prompt.md'), 'Reply to {{situaton}}');
    expect(mindVerdict(root, 2026)).toMatchObject({
      status: 'fail',
      detail: 'prompts/action-act/prompt.md uses {{situaton}}, which the action loop does not have at that step.',
      fix: expect.stringContaining('{{situation}}'),
    });
  });

  it("fails when a prompt uses a later step's answer, which a cycle would reach only after writing memories", () => {
    const root = fresh();
    writeFileSync(join(root, 'prompts', 'action-act', 'prompt.md'), 'Reply to {{situation}} {{record}}');
    expect(mindVerdict(root, 2026)).toMatchObject({
      status: 'fail',
      detail: 'prompts/action-act/prompt.md uses {{record}}, which the action loop does not have at that step.',
      fix: expect.not.stringContaining('{{record}}'),
    });
  });

  it('warns when values.json or the chat skill is gone, with init as the fix', () => {
    const root = fresh();
    rmSync(join(root, 'skills', 'chat'), { recursive: true });
    rmSync(valuesPath(join(root, 'data')));
    expect(mindVerdict(root, 2026)).toMatchObject({
      status: 'warn',
      detail: 'missing: data/values.json (the mind has no values); the chat skill (mind chat cannot answer)',
      fix: expect.stringContaining('homunculus mind init'),
    });
  });
});
