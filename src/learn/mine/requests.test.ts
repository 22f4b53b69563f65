import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { qualityGate } from '../gate.js';
import { mineFeedbackAssessment, mineRequests, requestOf, withRequests } from './requests.js';

describe('recurring requests', () => {
  it('reads the verb and the object of a request in other words, and nothing from questions or statements', () => {
    expect(requestOf('can you review the changes in the local branch?')).toEqual({
      verb: 'review',
      object: 'chang',
      objectWord: 'changes',
    });
    expect(requestOf('ok, can you look at the changes in this branch')).toMatchObject({ verb: 'review', object: 'chang' });
    expect(requestOf("let's update the docs for this")).toMatchObject({ verb: 'update', objectWord: 'docs' });
    expect(requestOf('The changes in this branch look fine')).toBeUndefined();
    expect(requestOf('what does this function do?')).toBeUndefined();
    expect(requestOf('can you review it')).toBeUndefined();
    // An identifier names one thing: three such asks are three features, not one request that recurs.
    expect(requestOf('add a parse_date function to the parser')).toBeUndefined();
    expect(requestOf('fix handleClick in the cart')).toBeUndefined();
    // So does a plain word before the kind of thing it names: eight asks for eight functions are no habit.
    for (const name of ['greet', 'mul', 'times']) expect(requestOf(`add a ${name} function to src/index.js`)).toBeUndefined();
    // The kind alone, its name no word; and a word placed in a file: one thing each time, not a recurring request.
    expect(requestOf('add a f13 function to src/math.js and run the tests')).toBeUndefined();
    expect(requestOf('refactor add in src/math.js, and always run pnpm lint after editing')).toBeUndefined();
    expect(requestOf('add tests for the parser')).toMatchObject({ verb: 'add', objectWord: 'tests' });
    expect(requestOf('update docs/architecture for the change')).toMatchObject({ verb: 'update', objectWord: 'docs' });
  });

  it('reads only what the user wrote: a request inside a pasted review comment is not theirs', () => {
    const prompt = 'I got this feedback:\n\nMissing field\n\nMedium Severity\n\nPlease update the converter to copy every field.';
    expect(mineRequests(steps([{ prompt }]))).toEqual([]);
    const [found] = mineRequests(steps([{ prompt: 'can you review the changes in this branch?' }, { prompt: 'review the changes again' }]));
    expect(found).toMatchObject({
      key: 'pref:demo/request=review-chang',
      evidence: ['asked: "can you review the changes in this branch?"'],
    });
  });

  it('leaves out a request whose turn ended in a failure: asked again because it failed, it is a retry', () => {
    const failed = steps([{ prompt: 'add httpx to the project' }, { bash: 'uv add httpx', error: 'uv: command not found', exit: 127 }]);
    expect(mineRequests(failed)).toEqual([]);
    const done = steps([
      { prompt: 'add httpx to the project' },
      { bash: 'uv add httpx', error: 'uv: command not found', exit: 127 },
      { bash: 'pip install httpx' },
    ]);
    expect(mineRequests(done).map((c) => c.key)).toEqual(['pref:demo/request=add-httpx']);
    // Only its own turn counts: a later prompt's failure is not this request's.
    const later = steps([
      { prompt: 'add httpx to the project' },
      { bash: 'pip install httpx' },
      { prompt: 'now deploy' },
      { bash: 'make deploy', exit: 2 },
    ]);
    expect(mineRequests(later)).toHaveLength(1);
  });

  it('quotes the users of every session that backs it, and leaves requests every session expects to the gate', () => {
    const [found] = mineRequests(steps([{ prompt: 'can you review the changes in this branch?' }]));
    const composed = withRequests(found!, [
      '2026-02-01: asked: "review the changes please"',
      '2026-02-02: asked: "look at the changes in this branch"',
    ]);
    expect(composed.action).toBe(
      'Offer to review the changes before being asked: users here ask for it again and again ("review the changes please"; "look at the changes in this branch").',
    );
    expect(qualityGate(composed)).toEqual({ pass: true, reasons: [] });
    const [tests] = mineRequests(steps([{ prompt: 'could we add tests for that method now?' }]));
    expect(qualityGate(tests!).reasons).toContain('a request any session expects (add tests, commit)');
  });

  it("learns that review feedback is judged before it is fixed, from the ask in the user's own words", () => {
    const pasted =
      'can you look at this, I got this feedback, let me know what you think before doing anything:\n\nStale field\n\nLow Severity\n\nThe field is never copied.';
    const [found] = mineFeedbackAssessment(steps([{ prompt: pasted }]));
    expect(found).toMatchObject({ key: 'pref:request=assess-feedback', project: '', miner: 'request' });
    expect(found?.action).toMatch(/^Check each item of the review feedback against the code and say which are valid/);
    expect(found?.evidence[0]).toBe(
      'asked: "can you look at this, I got this feedback, let me know what you think before doing anything:"',
    );
    // "eval" is how some users write it.
    expect(mineFeedbackAssessment(steps([{ prompt: 'eval this feedback:\n\nAll test cases use the --force flag.' }]))).toHaveLength(1);
    // Feedback with no ask for a judgement, or a judgement asked only inside the pasted part, is not it.
    expect(mineFeedbackAssessment(steps([{ prompt: 'address the PR comments' }]))).toEqual([]);
    expect(mineFeedbackAssessment(steps([{ prompt: 'fix this:\n\nBug\n\nLow Severity\n\nCheck whether it is valid.' }]))).toEqual([]);
  });
});
