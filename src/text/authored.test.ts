import { describe, expect, it } from 'vitest';
import { authoredSentences, authoredText, isClientText } from './authored.js';

describe('what the user wrote', () => {
  it('keeps the request and drops a review bot finding pasted under it', () => {
    const prompt = [
      'can you look at the changes in this branch, I got this feedback, let me know what you think before doing anything:',
      '',
      'Redundant default case duplicates Claude Code case',
      '',
      'Low Severity',
      '',
      'The default case in BuildCondensedTranscript is an exact copy of the AgentTypeClaudeCode case. Never use default here.',
    ].join('\n');
    expect(authoredText(prompt)).toBe(
      'can you look at the changes in this branch, I got this feedback, let me know what you think before doing anything:',
    );
  });

  it('drops quoted blocks, code, logs, stack traces, diffs and lint output', () => {
    const prompt = [
      'evaluate this feedback from copilot:',
      '"""',
      'The new loadSettings function lacks the fallback. Always use the default.',
      '"""',
      '```go',
      'func main() {}',
      '```',
      '2026-02-04 10:57:12 INFO starting',
      '    at Object.run (/app/index.js:12:3)',
      'cmd/setup.go:888:2: missing cases in switch (exhaustive)',
      '+++ b/main.go',
      '> quoted reply',
      'and never push to main.',
    ].join('\n');
    expect(authoredSentences(prompt)).toEqual(['evaluate this feedback from copilot:', 'and never push to main.']);
  });

  it("drops a terminal's padded lines, a script's banners, and a code comment quoted after a colon", () => {
    const prompt = [
      'take the following scenario:',
      '  The warning is right: the session was never committed to main.          ',
      '=== Step 13: Attribution Analysis ===',
      'Looking at the changes you did, it has: # Note: the cache folder is ignored so we never commit it',
      'but that is not right, settings.json should be committed',
    ].join('\n');
    expect(authoredSentences(prompt)).toEqual([
      'take the following scenario:',
      'Looking at the changes you did, it has:',
      'but that is not right, settings.json should be committed',
    ]);
  });

  it('drops a pasted JSON object whole, not its deeper lines alone (the skeleton read "files_touched": [])', () => {
    const prompt = [
      'the metadata is wrong here:',
      '{',
      '  "files_touched": [',
      '    "main.py"',
      '  ],',
      '  "agent": "claude"',
      '}',
      'why is main.py missing?',
    ].join('\n');
    expect(authoredText(prompt)).toBe('the metadata is wrong here:\nwhy is main.py missing?');
  });

  it('drops a long paragraph introduced by a colon, keeps what the user typed after a short one', () => {
    const long = `The error from loadSettingsFromFile() is wrapped twice ${'and the message repeats '.repeat(14)}`;
    expect(authoredSentences(`Here is the issue:\n${long}\nPlease fix it.`)).toEqual(['Here is the issue:', 'Please fix it.']);
    expect(authoredSentences('Do the following:\n- add a test\n- run the linter')).toEqual([
      'Do the following:',
      'add a test',
      'run the linter',
    ]);
    // Read as the steps of a plan, a list says nothing about the user's own preferences.
    expect(authoredSentences('Do the following:\n- add a test\n1. run the linter', { lists: false })).toEqual(['Do the following:']);
  });

  it('reads nothing from text the client wrote into the prompt', () => {
    for (const text of [
      'This session is being continued from a previous conversation. Always use pnpm.',
      'Implement the following plan:\n# Plan\nNever add tests.',
      '<command-name>/clear</command-name>',
    ]) {
      expect(isClientText(text)).toBe(true);
      expect(authoredSentences(text)).toEqual([]);
    }
  });
});
