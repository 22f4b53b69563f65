import { describe, expect, it } from 'vitest';
import { formatOutput, withinOutput } from './output.js';

describe('output formats', () => {
  it('answers each agent in its own format', () => {
    expect(JSON.parse(formatOutput('claude-code', 'start', 'SessionStart', 'ctx'))).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: '[HOMUNCULUS MEMORY]\nctx' },
    });
    expect(JSON.parse(formatOutput('claude-code', 'recall', 'PostToolUseFailure', 'ctx')).hookSpecificOutput.hookEventName).toBe(
      'PostToolUse',
    );
    expect(formatOutput('claude-code', 'observe', 'PostToolUse', '')).toBe('');
    expect(formatOutput('gemini', 'observe', 'AfterTool', '')).toBe('{}');
    expect(JSON.parse(formatOutput('cursor', 'start', 'sessionStart', 'ctx'))).toEqual({ additional_context: '[HOMUNCULUS MEMORY]\nctx' });
    expect(JSON.parse(formatOutput('cursor', 'prompt', 'beforeSubmitPrompt', 'ctx'))).toEqual({ continue: true });
    expect(JSON.parse(formatOutput('claude-code', 'start', '', 'x'.repeat(20_000))).hookSpecificOutput.additionalContext).toHaveLength(
      10_000,
    );
  });

  it('joins blocks first ones first, leaving out a later one that would not fit whole', () => {
    expect(withinOutput(['start', '', 'prompt'])).toBe('start\n\nprompt');
    expect(withinOutput(['a'.repeat(9_000), 'b'.repeat(2_000)])).toBe('a'.repeat(9_000));
    expect(withinOutput(['', 'b'.repeat(2_000)])).toBe('b'.repeat(2_000));
  });
});
