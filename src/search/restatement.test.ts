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

  it('tells differently numbered things apart, unless the number is all that changed', () => {
    const two = (older: string, newer: string) => detectRestatement(older, newer);
    expect(two('the build of module 0 takes 10 seconds', 'the build of module 1 takes 11 seconds')).toMatchObject({
      restates: false,
      reason: 'module 0 and module 1 are two things',
    });
    expect(two('room 4 has 12 chairs', 'room 5 has 10 chairs').restates).toBe(false);
    expect(two('ticket 42 is due March 3', 'ticket 43 is due March 5').restates).toBe(false);
    // The same numbered thing, another value: an update.
    expect(two('the build of module 0 takes 10 seconds', 'the build of module 0 takes 13 seconds')).toMatchObject({ restates: true });
    // Only the numbered name changed: that is the value ("node 18" to "node 20"); a day of a month is a date.
    expect(two('the project uses node 18', 'the project now uses node 20').restates).toBe(true);
    expect(two('Deploy freeze starts December 18', 'Deploy freeze now starts December 20')).toMatchObject({ restates: true, kind: 'date' });
    // A hyphenated number names a thing too, and what a text is about, numbered otherwise, is another thing.
    expect(two('Server web-1 has 16 GB of RAM', 'Server web-2 has 32 GB of RAM')).toMatchObject({
      restates: false,
      reason: 'web 1 and web 2 are two things',
    });
    expect(two('note 1: the build step 1 takes 1 minutes', 'note 14: the build step 14 takes 1 minutes').restates).toBe(false);
    expect(two('Server web-1 has 16 GB of RAM', 'Server web-1 now has 32 GB of RAM').restates).toBe(true);
  });

  it('takes a newer text that names its own earlier value as the update of that value only', () => {
    const moved = 'worried about the launch being moved from November 15 to November 22, how do I meet the new deadline?';
    expect(detectRestatement('worried I will not meet the new April 25 deadline', moved)).toMatchObject({ restates: false });
    expect(detectRestatement('worried about the launch on November 15 and its deadline', moved)).toMatchObject({
      restates: true,
      kind: 'date',
    });
  });
});
