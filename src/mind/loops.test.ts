import { scratchDir } from '../test-support/cli.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoals, readMemories, readSoul, readValues, soulPath } from './files.js';
import { initInstance, instancePaths } from './instance.js';
import { render, runLoop, stepVars } from './loops.js';

const clock = { now: () => new Date('2026-02-14T10:00:00Z') };
const instance = () => instancePaths(initInstance(join(scratchDir('mind-loops-'), 'mind'), 2026).root);

/** A scripted model: each step's answer in turn, the prompts it was sent kept. */
function scripted(answers: string[]) {
  const prompts: string[] = [];
  return { prompts, ask: async (_system: string, prompt: string) => (prompts.push(prompt), answers[prompts.length - 1] ?? '') };
}

const EVOLVE = JSON.stringify({
  soul: '# Soul\n\nI have grown.',
  values: [{ name: 'patience', weight: 0.6, status: 'active' }],
  goals: [{ name: 'understand the people I talk with', weight: 0.9, status: 'perpetual' }],
  memories: [{ author: 'self', weight: 0.7, situation: 'reflection', description: 'I changed' }],
});

describe('the loops', () => {
  it('reflect: runs its four steps, records the prediction, and evolves soul, values and goal weights', async () => {
    const paths = instance();
    const model = scripted(['a review', 'questions', 'I predict calm', `Here: ${EVOLVE}`]);
    const report = await runLoop('reflect', paths, clock, model.ask);
    expect(report.steps.map((s) => s.step)).toEqual(['review', 'ask', 'predict', 'evolve']);
    expect(model.prompts[1]).toContain('a review');
    expect(model.prompts[3]).toContain('I predict calm');
    expect(report.writes.every((w) => w.result.done)).toBe(true);
    expect(readSoul(paths.data)).toBe('# Soul\n\nI have grown.');
    // A value the proposal leaves out is deprecated, never deleted.
    expect(readValues(paths.data).map((v) => `${v.name} ${v.status}`)).toEqual([
      'patience active',
      'curiosity deprecated',
      'honesty deprecated',
    ]);
    expect(readGoals(paths.data, 2026)[0]?.weight).toBe(0.9);
    expect(readMemories(paths.data).map((m) => [m.situation, m.description])).toEqual([
      ['reflect prediction', 'I predict calm'],
      ['reflection', 'I changed'],
      // The kernel marks the reasons answered once the reflection finished.
      ['reflection', 'reflected on:\n- requested'],
    ]);
  });

  it('explore: whatever the model proposes, only its cells are written; the rest is refused and logged', async () => {
    const paths = instance();
    const soul = readFileSync(soulPath(paths.data), 'utf8');
    const report = await runLoop('explore', paths, clock, scripted(['why?', 'I will learn', EVOLVE]).ask);
    expect(report.writes.map((w) => [w.what, w.result.done])).toEqual([
      ['soul.md', false],
      ['values.json', false],
      ['goal understand the people I talk with', false],
      ['memory', true],
    ]);
    expect(readFileSync(soulPath(paths.data), 'utf8')).toBe(soul);
    expect(readGoals(paths.data, 2026)[0]?.weight).toBe(0.6);
    expect(readMemories(paths.data).filter((m) => m.author === 'kernel')).toHaveLength(3);
  });

  it('an answer that is not a proposal changes nothing and is logged by the kernel', async () => {
    const paths = instance();
    const report = await runLoop('reflect', paths, clock, scripted(['r', 'q', 'p', '{"values": [{"name": "x", "weight": 3}]}']).ask);
    expect(report.failure).toContain('(values, entry 1, weight: must be between 0 and 1)');
    expect(report.writes).toEqual([]);
    expect(readValues(paths.data).map((v) => v.name)).toEqual(['curiosity', 'honesty']);
    expect(readMemories(paths.data).at(-1)?.author).toBe('kernel');
  });

  it('gives each step the answers of the steps before it, and RECORD only what both ACT and CREATE-SKILL leave', () => {
    expect(stepVars('explore', 'explore')).not.toContain('predict');
    expect(stepVars('explore', 'record')).toEqual(expect.arrayContaining(['explore', 'predict']));
    expect(stepVars('reflect', 'evolve')).toEqual(expect.arrayContaining(['reasons', 'review', 'ask', 'predict']));
    expect(stepVars('action', 'act')).not.toContain('outcome');
    expect(stepVars('action', 'record')).toEqual(expect.arrayContaining(['outcome', 'decide', 'skill']));
    expect(stepVars('action', 'record')).not.toContain('act');
    expect(stepVars('action', 'record')).not.toContain('create-skill');
  });

  it('names a prompt placeholder the step does not provide', () => {
    expect(() => render('{{soul}} {{weather}}', { soul: 's' }, 'prompts/x/prompt.md')).toThrow(
      /prompts\/x\/prompt\.md uses \{\{weather\}\}/,
    );
  });
});
