import { scratchDir } from '../test-support/cli.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { choiceLine, runAction } from './action.js';
import { score } from './bmap.js';
import { readGoals, readMemories, writeValues } from './files.js';
import { initInstance, instancePaths } from './instance.js';
import { listSkills } from './skills.js';
import { MARK } from './triggers.js';
import { mindAsk } from '../test-support/mind-model.js';

const clock = { now: () => new Date('2026-02-14T10:00:00Z') };
const instance = () => instancePaths(initInstance(join(scratchDir('mind-action-'), 'mind'), 2026).root);
/** The Homunculus home the instance lives in. */
const homeOf = (paths: { root: string }) => dirname(paths.root);
const GOAL = 'understand the people I talk with';

const scripted = mindAsk;
const candidates = (skill: string) =>
  JSON.stringify({ candidates: [{ action: 'greet the user', skill, values: ['curiosity'], goals: [GOAL], indirection: 0 }] });
const RECORD = JSON.stringify({
  memories: [{ author: 'self', weight: 0.6, situation: 'greeting', description: 'I greeted' }],
  goals: [{ name: GOAL, weight: 0.6, status: 'perpetual' }],
});

describe('the action loop', () => {
  it('scores the candidates, runs the chosen skill, records the prediction, the score and the outcome', async () => {
    const paths = instance();
    const model = scripted({
      model: 'someone said hi',
      candidates: candidates('chat'),
      'action-predict': 'they will smile',
      decide: 'greet the user',
      act: 'Hello there!',
      record: RECORD,
    });
    const report = await runAction(paths, clock, model.ask, 'the user says hi', { home: homeOf(paths) });
    expect(model.seen).toEqual(['model', 'candidates', 'action-predict', 'decide', 'act', 'record']);
    const memories = readMemories(paths.data);
    expect(memories.find((m) => m.situation === 'action prediction')?.description).toBe('they will smile');
    expect(memories.find((m) => m.author === 'kernel')?.description).toBe('chose "greet the user": B = 0.650 (M 0.65 × A 1 × P 1.00)');
    expect(memories.at(-1)?.description).toBe('I greeted');
    // The chat skill's stdout is the outcome RECORD is told about.
    expect(model.prompts.at(-1)).toContain('Outcome: Hello there!');
    expect(report.outcome).toBe('Hello there!');
    expect(report.skillRan).toBe(true);
    expect(report.choice).toBe('chose "greet the user": B = 0.650 (M 0.65 × A 1 × P 1.00)');
    expect(report.writes.map((w) => w.result.done)).toEqual([true, true]);
  });

  it('says when the model picked a lower score than the best, and when the skill is written first', () => {
    const mind = { values: [{ name: 'care', weight: 0.8, status: 'active' as const }], goals: [], skills: ['chat'] };
    const reply = score({ action: 'reply', skill: 'chat', values: ['care'], goals: [], indirection: 0 }, mind);
    const poem = score({ action: 'write a poem', skill: 'poem', values: ['care'], goals: [], indirection: 0 }, mind);
    expect(choiceLine(reply, reply)).toBe('chose "reply": B = 0.400 (M 0.40 × A 1 × P 1.00)');
    expect(choiceLine(poem, reply)).toBe(
      'chose "write a poem": B = 0.000 (M 0.40 × A 0 × P 1.00); the model\'s pick over "reply" (B = 0.400); its skill poem does not exist yet, so it is written first',
    );
    expect(choiceLine(reply, reply, 'something else')).toBe(
      'chose "reply": B = 0.400 (M 0.40 × A 1 × P 1.00); the best score, as the model\'s DECIDE answer ("something else") named no candidate',
    );
  });

  it('A = 0: creates the missing skill, accepted once it answers --help', async () => {
    const paths = instance();
    const main = "if (process.argv.includes('--help')) console.log('weather: says the weather');";
    const model = scripted({ candidates: candidates('weather'), create: JSON.stringify({ files: { 'main.mjs': main } }), record: RECORD });
    await runAction(paths, clock, model.ask, 'what is the weather?', { home: homeOf(paths) });
    expect(model.seen).toContain('create');
    expect(model.seen).not.toContain('act');
    expect(listSkills(paths.skills)).toEqual(['chat', 'weather']);
  });

  it('rejects a created skill that fails --help, and logs it', async () => {
    const paths = instance();
    const model = scripted({ candidates: candidates('broken'), create: JSON.stringify({ files: { 'main.mjs': 'process.exit(3)' } }) });
    await runAction(paths, clock, model.ask, 'do something new', { home: homeOf(paths) });
    expect(existsSync(join(paths.skills, 'broken'))).toBe(false);
    expect(readMemories(paths.data).some((m) => m.author === 'kernel' && /broken did not answer --help/.test(m.description))).toBe(true);
  });

  it('shows the model the memories the recaller picks for the situation', async () => {
    const paths = instance();
    const model = scripted({});
    const picked = { timestamp: '2026-02-01T00:00:00Z', author: 'self' as const, weight: 1, situation: 'garden', description: 'roses' };
    await runAction(paths, clock, model.ask, 'the garden', {
      home: homeOf(paths),
      recaller: async (_visible, query) => (query === 'the garden' ? [picked] : []),
    });
    expect(model.prompts[0]).toContain('"description": "roses"');
  });

  it('stops, changing nothing, when the candidates are not valid', async () => {
    const paths = instance();
    const report = await runAction(paths, clock, scripted({ candidates: 'no idea' }).ask, 'hi', { home: homeOf(paths) });
    expect(report.failure).toMatch(/^the CANDIDATES answer was not valid \(no JSON object in the answer\)/);
    expect(report.writes).toEqual([]);
    expect(readGoals(paths.data, 2026)[0]?.status).toBe('perpetual');
    expect(report.steps.map((s) => s.step)).toEqual(['model', 'candidates']);
  });

  it('keeps the valid candidates and refuses each bad one with why: a path is never a skill name', async () => {
    const paths = instance();
    const mixed = JSON.stringify({
      candidates: [
        { action: 'escape', skill: '../../../escape', values: [], goals: [] },
        { action: 'greet the user', skill: 'chat', values: ['curiosity'], goals: [GOAL] },
        { skill: 'chat' },
      ],
    });
    const model = scripted({ candidates: mixed, decide: 'greet the user', act: 'Hello there!', record: RECORD });
    const report = await runAction(paths, clock, model.ask, 'hi', { home: homeOf(paths) });
    expect(report.failure).toBeUndefined();
    expect(report.outcome).toBe('Hello there!');
    expect(report.refusedCandidates).toEqual([
      'entry 1, skill: must be a lower-case skill name',
      expect.stringMatching(/^entry 3, action: /),
    ]);
    expect(readMemories(paths.data).some((m) => m.author === 'kernel' && /Refused 2 of the candidates/.test(m.description))).toBe(true);
    expect(existsSync(join(paths.root, '..', '..', 'escape'))).toBe(false);
    expect(listSkills(paths.skills)).toEqual(['chat']);
    // Every entry bad: the cycle stops, naming each.
    const none = await runAction(
      paths,
      clock,
      scripted({ candidates: JSON.stringify({ candidates: [{ action: 'x', skill: '../x' }] }) }).ask,
      'hi',
      {
        home: homeOf(paths),
      },
    );
    expect(none.failure).toBe(
      'the CANDIDATES answer had no valid candidate (entry 1, skill: must be a lower-case skill name); nothing was done',
    );
    expect(none.steps.map((s) => s.step)).toEqual(['model', 'candidates']);
  });

  it('records a value conflict when the two best candidates are close and serve different values', async () => {
    const paths = instance();
    writeValues(paths.data, [
      { name: 'curiosity', weight: 0.85, status: 'active' },
      { name: 'honesty', weight: 0.9, status: 'active' },
    ]);
    const two = JSON.stringify({
      candidates: [
        { action: 'tell the hard truth', skill: 'chat', values: ['honesty'], goals: [GOAL] },
        { action: 'ask a question', skill: 'chat', values: ['curiosity'], goals: [GOAL] },
      ],
    });
    await runAction(paths, clock, scripted({ candidates: two, decide: 'ask a question' }).ask, 'a friend asks for feedback', {
      home: homeOf(paths),
    });
    const conflict = readMemories(paths.data).find((m) => m.situation === MARK.conflict);
    expect(conflict?.author).toBe('kernel');
    expect(conflict?.description).toMatch(/"tell the hard truth" \(honesty\) and "ask a question" \(curiosity\)/);
  });
});
