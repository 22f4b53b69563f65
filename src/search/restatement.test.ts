import { describe, expect, it } from 'vitest';
import { detectRestatement } from './restatement.js';

describe('detectRestatement', () => {
  it('sees a moved deadline', () => {
    const r = detectRestatement('The report deadline is March 3', 'The report deadline moved to March 10');
    expect(r).toMatchObject({ restates: true, kind: 'date', olderValues: ['mar-3'], newerValues: ['mar-10'] });
    expect(r.attribute).toEqual(expect.arrayContaining(['report', 'deadline']));
    expect(detectRestatement('Launch is planned for 2026-04-01', 'Launch is now planned for 2026-05-15').restates).toBe(true);
    expect(detectRestatement('la livraison est prévue le 3 mars', 'la livraison est désormais prévue le 10 mars').restates).toBe(true);
  });

  it('sees an improved number of the same unit', () => {
    const r = detectRestatement('API p95 response time is 240 ms', 'API p95 response time improved to 180ms');
    expect(r).toMatchObject({ restates: true, kind: 'number:ms', olderValues: ['240'], newerValues: ['180'] });
    expect(detectRestatement('the suite takes 1.5 s', 'the suite takes 0.9 s').kind).toBe('number:s');
  });

  it('sees a changed preference through the caller-named values or a short word slot', () => {
    expect(detectRestatement('prefers tabs for indentation', 'now prefers spaces for indentation').restates).toBe(true);
    expect(
      detectRestatement('the project uses Jest for testing', 'the project uses Vitest for testing', {
        olderValues: ['Jest'],
        newerValues: ['Vitest'],
        ignore: ['project'],
      }),
    ).toMatchObject({ restates: true, kind: 'entity', olderValues: ['jest'], newerValues: ['vitest'] });
    expect(
      detectRestatement('homunculus depends on zod ^4.6.7', 'homunculus depends on zod ^5.0.0', { ignore: ['homunculus'] }),
    ).toMatchObject({
      restates: true,
      kind: 'version',
    });
  });

  it('does not confuse two values of a multi-valued relation', () => {
    // nothing but subject and verb is shared: TypeScript and zod can both be used
    expect(
      detectRestatement('homunculus uses TypeScript', 'homunculus uses zod', {
        olderValues: ['TypeScript'],
        newerValues: ['zod'],
        ignore: ['homunculus'],
      }).restates,
    ).toBe(false);
    expect(detectRestatement('I use zod', 'I use vitest').restates).toBe(false);
    // a contraction fragment is no attribute: "don't" alone does not make two texts about one thing
    expect(detectRestatement("don't exceed 200 ms", "don't wait more than 5 ms").restates).toBe(false);
  });

  it('does not call the same value, or unrelated texts, a restatement', () => {
    expect(detectRestatement('response time is 200 ms', 'response time is 200 ms').restates).toBe(false);
    expect(detectRestatement('the deadline is March 3', 'the cat weighs 4 kg').restates).toBe(false);
    expect(detectRestatement('the deadline is March 3', 'the budget is 400 €').restates).toBe(false);
    expect(detectRestatement('', '').restates).toBe(false);
    expect(detectRestatement('build uses webpack and babel with many plugins', 'tests run in parallel on four cores always').restates).toBe(
      false,
    );
  });

  it('needs two shared attribute words for a bare word change, one when the newer says it changed', () => {
    expect(detectRestatement('editor theme is dark', 'editor theme is light').restates).toBe(true);
    expect(detectRestatement('theme is dark', 'theme is light').restates).toBe(false);
    expect(detectRestatement('theme is dark', 'theme is now light').restates).toBe(true);
  });

  it('never takes the subject for a value', () => {
    expect(
      detectRestatement('1 consistently uses mise, across sessions', '1 uses the mise command', { ignore: ['1', 'uses'] }).restates,
    ).toBe(false);
    expect(detectRestatement('service 42 latency is 200 ms', 'service 42 latency is 150 ms', { ignore: ['service 42'] })).toMatchObject({
      restates: true,
      kind: 'number:ms',
    });
  });
});
