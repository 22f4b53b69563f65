/** Correcting memory from the command line: edit, forget, promote, unpromote and graph invalidate through the built binary. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { cli, tempDir } from '../test-support/cli.js';

const KEY = 'pref:webapp/test=npm-test';
let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
  expect(cli(home.path, ['observe', KEY, '--count', '3']).status).toBe(0);
});
afterEach(() => home.cleanup());

const json = (args: string[]) => {
  const r = cli(home.path, ['--json', ...args]);
  return { status: r.status, body: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
};
const sources = () => {
  const store = openStore({ home: home.path });
  try {
    const id = store.instincts.get(KEY)?.id;
    return id === undefined
      ? store.instincts.forgottenEvents(KEY).map((e) => [e.kind, e.source])
      : store.instincts.events(id).map((e) => [e.kind, e.source]);
  } finally {
    store.close();
  }
};

describe('correcting memory from the command line', () => {
  it('edits, promotes, un-promotes and forgets, each logged as the cli', () => {
    const edited = cli(home.path, ['edit', KEY, '--trigger', 'when you run the tests in webapp', '--action', 'Use `npm test`.']);
    expect(edited.status).toBe(0);
    expect(edited.stdout).toBe(
      `Edited ${KEY} (the history keeps the old text):\n  trigger: webapp/test=npm-test  ->  when you run the tests in webapp\n  action: webapp/test=npm-test  ->  Use \`npm test\`.\n  title: webapp/test=npm-test  ->  when you run the tests in webapp\n`,
    );
    expect(json(['edit', KEY, '--action', 'Use `npm test`.']).body).toMatchObject({ changed: [] });
    const promoted = cli(home.path, ['promote', KEY]);
    expect(promoted.stdout).toMatch(
      /^Promoted pref:webapp\/test=npm-test to a conviction in .*convictions\.md: when you run the tests in webapp: Use `npm test`\.\n {2}\(before the rule would have: /,
    );
    expect(cli(home.path, ['promote', KEY]).stderr).toMatch(/already a conviction/);
    expect(json(['unpromote', KEY]).body).toEqual({ pattern: KEY, title: 'when you run the tests in webapp', rule: 'Use `npm test`.' });
    const forgot = cli(home.path, ['forget', KEY]);
    expect(forgot.stdout).toBe(`Forgot ${KEY} (3 observations): "when you run the tests in webapp: Use \`npm test\`."\n`);
    expect(sources()).toEqual([
      ['create', ''],
      ['edit', 'cli'],
      ['promote', 'cli'],
      ['unpromote', 'cli'],
      ['forget', 'cli'],
    ]);
    expect(cli(home.path, ['get', KEY]).status).toBe(1);
  });

  it('refuses to forget by a key merged into another, naming it, and says when get and feedback followed the merge', () => {
    const OLD = 'pref:webapp/test=npm-run-test';
    expect(cli(home.path, ['observe', OLD]).status).toBe(0);
    expect(cli(home.path, ['alias', OLD, KEY]).status).toBe(0);
    const refused = cli(home.path, ['forget', OLD]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(`${OLD} was merged into ${KEY}; forget that key to forget it.`);
    expect(json(['get', KEY]).body).toMatchObject({ pattern: KEY, evidence: 4 });
    const got = cli(home.path, ['get', OLD]).stdout.split('\n');
    expect(got[0]).toBe(`${OLD} was merged into ${KEY}; showing ${KEY}.`);
    expect(got[1]).toMatch(/^pref:webapp\/test=npm-test {2}\(/);
    const marked = cli(home.path, ['feedback', OLD, 'strong']).stdout.split('\n');
    expect(marked[0]).toBe(`${OLD} was merged into ${KEY}: the feedback applied to ${KEY}.`);
    expect(marked[1]).toMatch(/^pref:webapp\/test=npm-test: strong, confidence /);
  });

  it('says in list and list --json which rules are convictions and which are marked wrong', () => {
    const WRONG = 'pref:webapp/lint=eslint';
    expect(cli(home.path, ['observe', WRONG]).status).toBe(0);
    expect(cli(home.path, ['promote', KEY]).status).toBe(0);
    expect(cli(home.path, ['feedback', WRONG, 'wrong']).status).toBe(0);
    const rows = cli(home.path, ['list']).stdout.split('\n');
    expect(rows[0]).toMatch(/ PATTERN +STATUS$/);
    expect(rows.find((r) => r.includes(KEY))).toMatch(/ conviction$/);
    expect(rows.find((r) => r.includes(WRONG))).toMatch(/ marked wrong: not given to agents$/);
    const listed = json(['list']).body.instincts as { pattern: string; status: string[] }[];
    expect(Object.fromEntries(listed.map((v) => [v.pattern, v.status]))).toEqual({
      [KEY]: ['conviction'],
      [WRONG]: ['marked wrong: not given to agents'],
    });
  });

  it('refuses bad input with the flag names and the usage exit code, and says what it does in --help', () => {
    const empty = cli(home.path, ['edit', KEY, '--trigger', ' ']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/--trigger must not be empty/);
    expect(cli(home.path, ['edit', KEY]).stderr).toMatch(
      /^homunculus: none of --trigger, --action and --title was given: give a new trigger, a new action, a title, or some of them\.$/m,
    );
    const missing = json(['forget', 'pref:nope']);
    expect(missing.status).toBe(1);
    expect(missing.body).toMatchObject({ code: 'not_found', error: 'Not found: pref:nope' });
    expect(json(['unpromote', KEY]).body).toMatchObject({ code: 'usage', error: `"${KEY}" is not a conviction.` });
    expect(cli(home.path, ['edit', '--help']).stdout).toMatch(/--trigger <text>.*\n.*--action <text>/s);
    expect(cli(home.path, ['forget', '--help']).stdout).toMatch(/the history keeps what it was/);
    expect(cli(home.path, ['graph', 'invalidate', '--help']).stdout).toMatch(/Retract a fact/);
    expect(cli(home.path, ['--help']).stdout).toMatch(/edit .*\n(?:.*\n)*\s+forget .*\n(?:.*\n)*\s+promote .*\n\s+unpromote/);
    expect(sources()).toEqual([['create', '']]);
  });

  it('retracts a fact with graph invalidate', () => {
    const added = json(['graph', 'add', 'webapp', 'uses', 'jest', '--description', 'webapp tests with jest', '--target-type', 'library']);
    const id = (added.body.fact as { id: number }).id;
    const r = cli(home.path, ['graph', 'invalidate', String(id)]);
    expect(r.stdout).toMatch(new RegExp(`^Retracted #${id} \\(valid until .*\\): webapp uses jest: webapp tests with jest\\n$`));
    const shown = json(['graph', 'show', String(id)]).body;
    expect(shown).toMatchObject({ expired_reason: 'retracted', metadata: { closed_by: 'cli' } });
    const again = json(['graph', 'invalidate', String(id)]);
    expect(again.status).toBe(1);
    expect(again.body).toMatchObject({ code: 'fact_closed' });
  });
});
