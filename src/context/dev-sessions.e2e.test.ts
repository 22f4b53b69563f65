/**
 * Acceptance: the 116 dev sessions through the real `sync`, then the installed hooks fed real
 * payloads, as a new user would run them: what the agent sees at session start and with a
 * prompt is plain words for the project it is in, or nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';
import { TRANSCRIPTS, hasShared } from '../test-support/shared.js';

const ready = hasShared('what the hooks inject after syncing the dev sessions');
/** Just after the last dev session: what was learned has not faded. */
const NOW = '2026-02-16T09:00:00Z';
const CLI = '/Users/alex/workspace/cli';
const OTHER = '/Users/paul/src/entireio/cli-completion-updater';
const KEY = /\b(?:pref|fix|seq|combo):[\w/.=+-]+/;

let dir: ReturnType<typeof tempDir>;
const home = (): string => `${dir.path}/home`;

function hook(event: string, payload: Record<string, unknown>, now = NOW): string {
  const input = JSON.stringify({ session_id: 'acceptance-1', transcript_path: '/nonexistent.jsonl', ...payload });
  const r = cli(home(), ['hook', event], { input, env: { HOMUNCULUS_NOW: now, HOMUNCULUS_NO_LEARN: '1' } });
  expect(r.status).toBe(0);
  return r.stdout.trim()
    ? (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    : '';
}
let prompts = 0;
/** A prompt in a session of its own, with no start: what the prompt alone gets. */
const prompt = (cwd: string, text: string, now = NOW, session = `prompt-${++prompts}`): string =>
  hook('user-prompt-submit', { hook_event_name: 'UserPromptSubmit', cwd, prompt: text, session_id: session }, now);
const bullets = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('- '));

describe.skipIf(!ready)('after syncing the dev sessions', () => {
  beforeAll(() => {
    dir = tempDir();
    const r = cli(home(), ['sync', '--no-embed', '--no-progress', TRANSCRIPTS], { env: { HOMUNCULUS_NOW: NOW, HOME: dir.path } });
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);
  afterAll(() => dir?.cleanup());

  it('session start names what to do in this project in plain words, without keys or other projects', () => {
    const start = hook('session-start', { hook_event_name: 'SessionStart', cwd: CLI, source: 'startup' });
    expect(start).toMatch(
      /- When you need to lint, (?:format code or run the tests|run the tests or format code) in cli: Use the project's task `mise run lint`/,
    );
    // wrapcheck was filed under the worktree where it first reached three sessions, but cli's sessions showed it too: given here, in cli's words.
    expect(start).toMatch(/^- When writing code that `mise run lint` checks in cli: Satisfy golangci-lint errcheck .* Also: .*wrapcheck/m);
    expect(start).toMatch(/^Last session \(2026-02-1\d\): /m);
    expect(start).not.toMatch(KEY);
    expect(start).not.toMatch(/cli-completion-updater|improve-status-cmd-output/);
  });

  it('a prompt does not give again what its session start gave', () => {
    const start = hook('session-start', { hook_event_name: 'SessionStart', cwd: CLI, source: 'startup', session_id: 'started' });
    expect(start).toContain('`mise run lint`');
    expect(prompt(CLI, 'run the tests and lint for the cli')).toContain('`mise run lint`');
    const after = prompt(CLI, 'run the tests and lint for the cli', NOW, 'started');
    expect(after).not.toContain("Use the project's task `mise run lint`");
    for (const line of bullets(after)) expect(start).not.toContain(line);
    // What the start did not give, the prompt still does, once.
    const docs = 'update the architecture docs under docs/architecture for this change';
    expect(start).not.toContain('`docs/architecture/`');
    expect(prompt(CLI, docs, NOW, 'started')).toContain('`docs/architecture/`');
    expect(prompt(CLI, docs, NOW, 'started')).not.toContain('`docs/architecture/`');
  });

  it('a prompt gets what matches it, for this project only, and an unrelated prompt gets nothing', () => {
    const tests = prompt(CLI, 'run the tests and lint for the cli');
    expect(tests).toContain('`mise run lint`');
    expect(tests).not.toMatch(KEY);
    expect(tests).not.toMatch(/## Last session|## Related projects/);
    const conflicts = prompt(CLI, 'fix the merge conflicts with main');
    expect(conflicts).toMatch(/Run `git fetch origin`, then merge \(or rebase on\) `origin\/main`/);
    expect(prompt(CLI, 'what is the capital of France?')).toBe('');
    // A verb that only asks something done is no match; feedback handed over gets the rule for weighing it.
    expect(prompt(CLI, 'can you fix it?')).toBe('');
    expect(prompt(CLI, 'create a pr')).not.toContain('linear-server');
    expect(prompt(CLI, 'eval this feedback: missing nil check in hooks.go')).toContain('Check each item of the review feedback');
    expect(prompt(CLI, 'these helper functions also lack unit tests')).not.toContain('`mise run test`');
    // Another repository of the same user: nothing learned in cli follows it there, nor what the user said in cli.
    expect(prompt(OTHER, 'fix the merge conflicts with main')).not.toMatch(/origin\/main|mise run/);
    const asked = 'should the skip-push-sessions setting use true/false or on/off?';
    expect(prompt(OTHER, asked)).toBe('');
    expect(prompt(CLI, asked)).toMatch(
      /^## Said in earlier sessions of this project\n- For cli, the user decided: let's use true\/false and not on\/off for the skip-push-sessions .*\(2026-01-12\)$/m,
    );
    // A correction was about its moment ("no, revert those changes"): a later prompt does not get it back.
    expect(prompt(CLI, 'no revert those changes, I think it is part of the commit')).not.toContain('The user corrected');
  });

  it('months later the rules still come when a prompt matches them, saying when they were last seen', () => {
    const tests = prompt(CLI, 'run the tests and lint for the cli', '2026-11-26T09:00:00Z');
    expect(tests).toMatch(/`mise run lint`.*`mise run test`.*last seen Feb 2026\)/);
    // The integration tests asked for by name: the rule for them, and not "do not run them unless asked".
    const integration = prompt(CLI, 'run the integration tests', '2026-11-26T09:00:00Z');
    expect(integration).toContain('`mise run test:integration`');
    expect(integration).not.toContain('unless the user asks');
  });
});
