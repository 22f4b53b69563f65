import { describe, expect, it } from 'vitest';
import { MAX_SIGNALS_PER_SESSION, detectSignals, normalizeSignal, sessionSignals } from './signals.js';

describe('preference and decision signals', () => {
  it('detects English preferences with their polarity', () => {
    const s = detectSignals('Always use named exports. Never commit directly to main! I prefer pnpm over npm.');
    expect(s.map((x) => [x.type, x.polarity])).toEqual([
      ['explicit', 'for'],
      ['explicit', 'against'],
      ['explicit', 'for'],
    ]);
    expect(s[0]?.normalized).toBe('always use named exports');
  });

  it('detects French preferences, corrections and decisions', () => {
    const s = detectSignals(
      "Je préfère Drizzle à Prisma. Non, pas de default exports. On part sur Vitest pour les tests. N'utilise jamais de any.",
    );
    expect(s.map((x) => x.type)).toEqual(['explicit', 'correction', 'decision', 'explicit']);
    expect(s[2]?.object).toBe('Vitest');
    expect(s[3]?.polarity).toBe('against');
  });

  it('detects principles and English decisions and corrections', () => {
    const s = detectSignals(
      "We follow the SSOT principle here. Let's go with Drizzle for the ORM. No, I told you to keep the tests small.",
    );
    expect(s.map((x) => x.type)).toEqual(['principle', 'decision', 'correction']);
    expect(s[1]?.object).toBe('Drizzle');
  });

  it('ignores code blocks, quotes, headings, and prose without a signal', () => {
    expect(
      detectSignals('```\n// always do this\nnever();\n```\n> always quoted\n# Always a heading\nPlease fix the failing test.'),
    ).toEqual([]);
    expect(detectSignals('')).toEqual([]);
  });

  it('reads no correction in a sentence about nothing, and no rule in a report of what was or is', () => {
    expect(detectSignals('No prompt context is shown to the user. No initial_attribution in metadata.')).toEqual([]);
    expect(detectSignals('The session was never committed to main. It is always slow on CI.')).toEqual([]);
    expect(detectSignals("But now wondering: If I branch off main, then don't commit but stash.")).toEqual([]);
    expect(detectSignals('No, use pnpm. no, use the staging bucket. We never push to main.').map((x) => x.type)).toEqual([
      'correction',
      'correction',
      'explicit',
    ]);
  });

  it('keeps no correction that steers the moment: out of it, nothing says what "those changes" were', () => {
    // Five the dev sessions' users typed; only the one that says it holds beyond the moment is a preference.
    const typed = [
      "no don't set it, let's see if it keeps happening",
      'no, ignore this part, back to the changes we did for `go run`:',
      "no revert those changes, I think it's correct if it's part of the commit.",
      'no wait, so this branch adds agent to logging, and so far we only added it in the hooks related logs',
      'no, we removed the session commands on purpose',
      'Non, pas comme ça.',
    ];
    expect(typed.flatMap((t) => detectSignals(t)).map((x) => x.text)).toEqual(['no, we removed the session commands on purpose']);
    expect(detectSignals('No, never amend that commit.').map((x) => x.type)).toEqual(['correction']);
  });

  it('strips neutral lead-ins and caps a session at 10 signals', () => {
    expect(normalizeSignal('I think that   ALWAYS use tabs!')).toBe('always use tabs');
    // The preference a correction names, without the "no" that made it one.
    expect(normalizeSignal('No, use pnpm not npm, also for lint.')).toBe('use pnpm not npm, also for lint');
    expect(normalizeSignal('nope: please use pytest')).toBe('use pytest');
    const prompts = Array.from({ length: 15 }, (_, i) => `Always run check number ${i} before pushing.`);
    expect(sessionSignals([...prompts, prompts[0] as string])).toHaveLength(MAX_SIGNALS_PER_SESSION);
  });

  it('keeps descriptions, questions, long explanations and pasted summaries out', () => {
    expect(detectSignals('If a user edits a file the agent never touched, those edits are lost.')).toEqual([]);
    expect(detectSignals('Should we always run the linter before pushing?')).toEqual([]);
    expect(detectSignals(`Consider a helper ${'x '.repeat(60)}so tests can reference the single source of truth.`)).toEqual([]);
    expect(detectSignals('This session is being continued from a previous conversation. Always use named exports.')).toEqual([]);
    expect(detectSignals('Please never push to main.')).toHaveLength(1);
    // A question typed without its mark, and a file name that ends in "go" before "with".
    expect(detectSignals("why exactly didn't you do the proposed Create cmd/agent/transcript.go with the wrapper functions")).toEqual([]);
    expect(detectSignals('I moved the helper into transcript.go with the wrapper functions.')).toEqual([]);
    expect(detectSignals("Let's go with Drizzle for the database.")).toMatchObject([{ type: 'decision', object: 'Drizzle' }]);
  });
});
