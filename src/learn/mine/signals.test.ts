import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { qualityGate } from '../gate.js';
import { MAX_SIGNALS_PER_SESSION, contentSlug, extractSignals, sessionSignals, signalCandidate, statedObject } from './signals.js';

const signals = (text: string): string[] => extractSignals(text).map((s) => `${s.type}: ${s.signal}`);

describe('extractSignals (signal tracker)', () => {
  it('reads English preferences and corrections', () => {
    expect(signals('Use pnpm, not npm.')).toEqual(['explicit: use pnpm not npm']);
    expect(signals('no, use pnpm instead of npm')).toEqual(['correction: use pnpm not npm']);
    // Where or how politely it was said is no part of the rule: one key however it is worded.
    for (const said of [
      'no, use pnpm not npm in this repo',
      'no, use pnpm not npm here please',
      'no, use pnpm instead of npm for this project',
    ])
      expect(signals(said)).toEqual(['correction: use pnpm not npm']);
    expect(signals('Please always run `mise run fmt` before committing')).toEqual([
      'explicit: always run `mise run fmt` before committing',
    ]);
    expect(signals("Don't use default exports")).toEqual(['correction: never use default exports']);
    expect(signals('I prefer vitest over jest')).toEqual(['explicit: use vitest not jest']);
    expect(signals('I told you to use the strong types')).toEqual([]);
    expect(signals('stop adding comments to every line')).toEqual(['correction: never adding comments to every line']);
    expect(signals('We follow TDD here')).toEqual(['principle: principle tdd']);
    // What to use instead is the rule, not a clause left behind.
    expect(signals("don't use print for logging, use the logger")).toEqual(['correction: use logger not print for logging']);
    expect(signals('never call fetch directly; use the api client')).toEqual(['correction: use api client not call fetch directly']);
  });

  it('passes the quality gate with everyday code words (print, the logger), across languages', () => {
    const [signal] = extractSignals("don't use print for logging, use the logger");
    const candidate = signalCandidate({ ...signal!, sessionId: 's', ts: '2026-02-01T00:00:00Z' }, 'invoice-parser');
    expect(candidate).toMatchObject({ key: 'pref:use-logger-not-print-logging', action: 'Use logger, not print for logging.' });
    expect(qualityGate(candidate).pass).toBe(true);
  });

  it('reads French preferences and corrections', () => {
    expect(signals('Toujours utiliser des exports nommés')).toEqual(['explicit: always utiliser des exports nommés']);
    // Said after a task in the same sentence.
    expect(signals('refactor add in src/math.js, and always run pnpm lint after editing')).toEqual([
      'explicit: always run pnpm lint after editing',
    ]);
    expect(signals('fix the cart; never touch the lockfile')).toEqual(['correction: never touch the lockfile']);
    expect(signals('refactor add in src/math.js and always run pnpm lint after editing')).toEqual([
      'explicit: always run pnpm lint after editing',
    ]);
    expect(signals('please rename mul in lib/calc.ts; also never use npm, use pnpm')).toEqual(['correction: use pnpm not npm']);
    expect(signals('I always forget, can you run the tests')).toEqual([]);
    expect(signals('Non, pas de default exports')).toEqual(['correction: never default exports']);
    expect(signals('Je préfère Drizzle à Prisma')).toEqual(['explicit: use drizzle not prisma']);
    expect(signals('utilise pnpm et pas npm')).toEqual(['explicit: use pnpm not npm']);
    expect(signals("arrête d'utiliser npm")).toEqual(['correction: never utiliser npm']);
    expect(signals('On applique le principe SSOT')).toEqual(['principle: principle ssot']);
  });

  it('skips code blocks, descriptions of behaviour and long pasted prompts', () => {
    expect(signals('Look:\n```\n// always use npm here\nnever();\n```\nthanks')).toEqual([]);
    expect(signals('User edits made before the first prompt are never captured.')).toEqual([]);
    expect(signals(`Implement the plan.\n${'Context line. '.repeat(150)}\nAlways use pnpm.`)).toEqual([]);
    expect(signals('- Never call the API directly')).toEqual([]);
  });

  it('normalises case and spacing so the same signal groups', () => {
    expect(signals('USE   PNPM,   NOT NPM!')).toEqual(signals('use pnpm, not npm'));
  });
});

describe('sessionSignals', () => {
  it('deduplicates per session and keeps at most 10', () => {
    const prompts = Array.from({ length: 14 }, (_, i) => ({ prompt: `Always use tool${i}. Always use tool${i}.` }));
    const found = sessionSignals(steps([{ prompt: 'Use pnpm, not npm' }, { prompt: 'use pnpm not npm' }, ...prompts]));
    expect(found).toHaveLength(MAX_SIGNALS_PER_SESSION);
    expect(found.filter((s) => s.signal === 'use pnpm not npm')).toHaveLength(1);
  });
});

describe('signalCandidate', () => {
  it('turns "use X, not Y" into a global preference that contradicts the reverse', () => {
    const [signal] = sessionSignals(steps([{ prompt: 'use pnpm, not npm' }]));
    const c = signal && signalCandidate(signal, 'demo');
    expect(c).toMatchObject({
      key: 'pref:use-pnpm-not-npm',
      category: 'preference',
      project: '',
      action: 'Use pnpm, not npm.',
      contradicts: ['pref:use-npm-not-pnpm'],
    });
    expect(c && qualityGate(c).pass).toBe(true);
  });

  it('files one preference under one key however it is worded, and the told-you-before correction with it', () => {
    const keyOf = (prompt: string) => {
      const [signal] = sessionSignals(steps([{ prompt }]));
      return signal && signalCandidate(signal, 'webshop');
    };
    for (const said of ['no, use pnpm test, not npm test', 'use pnpm, not npm', 'I told you before: use pnpm, never npm'])
      expect(keyOf(said), said).toMatchObject({ key: 'pref:use-pnpm-not-npm', contradicts: ['pref:use-npm-not-pnpm'] });
    expect(keyOf('I told you before: use pnpm, never npm')?.facts).toMatchObject({ type: 'correction' });
    for (const said of ['use uv run pytest, not plain pytest', 'no, use uv run pytest not pytest'])
      expect(keyOf(said), said).toMatchObject({
        key: 'pref:use-uv-run-not-pytest',
        action: expect.stringMatching(/^Use uv run pytest, not /),
      });
    // Nothing shared: the whole of each side.
    expect(keyOf('prefer vitest over jest')?.key).toBe('pref:use-vitest-not-jest');
  });

  it('splits "always X before Y" into trigger and action; vague signals fail the gate', () => {
    const [always] = sessionSignals(steps([{ prompt: 'always run `mise run fmt` before committing' }]));
    expect(always && signalCandidate(always, 'demo')).toMatchObject({
      trigger: 'before committing',
      action: 'Always run `mise run fmt`.',
      contradicts: ['pref:never-run-mise-run-fmt-committing'],
    });
    const [vague] = sessionSignals(steps([{ prompt: "no don't set it, let's see if it keeps happening" }]));
    const candidate = vague && signalCandidate(vague, 'demo');
    expect(candidate && qualityGate(candidate).reasons[0]).toMatch(/not specific/);
  });

  it('takes what a "never" names in plain words for its subject ("the e2e suite"), never a vague one ("the code")', () => {
    const candidate = (prompt: string) => {
      const [signal] = sessionSignals(steps([{ prompt }]));
      return signal && signalCandidate(signal, 'api');
    };
    const e2e = candidate("don't run the e2e suite unless I ask");
    expect(e2e).toMatchObject({
      trigger: 'when about to run the e2e suite',
      action: 'Never run the e2e suite unless I ask.',
      subjects: ['e2e suite'],
    });
    expect(e2e && qualityGate(e2e).pass).toBe(true);
    expect(statedObject('touch the migrations folder')).toBe('migrations folder');
    expect(statedObject('run the tests before committing')).toBeUndefined();
    const vague = candidate('never touch the code');
    expect(vague && qualityGate(vague).pass).toBe(false);
  });

  it('keeps negatives in the key', () => {
    expect(contentSlug('never stash anything')).toBe('stash');
    expect(contentSlug('`mise run fmt` before committing')).toBe('mise-run-fmt-committing');
  });

  it('leaves contraction fragments, elisions and courtesy out of the key', () => {
    expect(contentSlug("please don't commit the .env file.")).toBe('commit-env-file');
    expect(contentSlug("n'utilise pas l'API de prod")).toBe('api-prod');
    expect(contentSlug('run `npm test:ci` on src/app.ts')).toBe('run-npm-test-ci-src-app-ts');
  });
});
