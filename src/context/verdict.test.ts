import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invoke } from '../app/operation.js';
import { suggest } from '../app/instincts.js';
import type { ProjectInfo } from '../core/project.js';
import { giveFeedback, observe } from '../learn/instincts.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { promptInjection } from './inject.js';
import { sessionStartContext } from './session-start.js';

const project: ProjectInfo = { fingerprint: 'fp-shop', name: 'shop', root: '/w/shop', remote: null };

/** What the user said of an instinct decides what agents are told of it, even when decay left nothing to lower. */
describe("the user's verdict in what agents see", () => {
  let store: TestStore;
  beforeEach(() => {
    // Half a year after the sessions: decay has every instinct at its floor, so "wrong" lowers nothing.
    store = testStore('2025-06-01T00:00:00.000Z');
    const rule = (pattern: string, task: string, command: string) =>
      observe(store, {
        pattern,
        trigger: `when you need to ${task} in shop`,
        action: `Use the project's task \`${command}\`.`,
        project: 'fp-shop',
        occurrences: 12,
      });
    rule('pref:shop/test=npm-run-test', 'run the tests', 'npm run test');
    rule('pref:shop/lint=npm-run-lint', 'lint', 'npm run lint');
    store.setNow('2026-01-01T00:00:00.000Z');
  });
  afterEach(() => store.cleanup());

  const start = () => sessionStartContext(store, { project, stack: [] }).text;
  const prompt = (text: string) => promptInjection(store, { project, prompt: text, sessionId: 's1' });

  it('"wrong" takes an instinct out of session start, the prompt hook and suggest; "strong" puts it back, confirmed', async () => {
    expect(start()).toContain('npm run test');
    expect(await prompt('run the tests please')).toContain('npm run test');
    giveFeedback(store, 'pref:shop/test=npm-run-test', 'wrong');
    expect(start()).not.toContain('npm run test');
    expect(start()).toContain('npm run lint');
    expect(await prompt('run the tests please')).not.toContain('npm run test');
    expect(invoke(suggest, { store, env: {} }, { project: 'fp-shop' }).map((v) => v.pattern)).toEqual(['pref:shop/lint=npm-run-lint']);
    giveFeedback(store, 'pref:shop/test=npm-run-test', 'strong');
    expect(await prompt('run the tests please')).toMatch(/npm run test.*confirmed by the user/);
  });

  it('"weak" keeps an instinct but never calls it confirmed', async () => {
    giveFeedback(store, 'pref:shop/lint=npm-run-lint', 'weak');
    const text = await prompt('lint the code');
    expect(text).toContain('npm run lint');
    expect(text).not.toContain('confirmed by the user');
  });
});
