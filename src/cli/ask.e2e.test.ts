import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFact } from '../graph/add-fact.js';
import { openStore } from '../store/store.js';
import { cli, tempDir } from '../test-support/cli.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  addFact(store, {
    source: { name: 'webapp', type: 'project' },
    target: { name: 'pnpm' },
    relation: 'uses',
    description: 'The webapp installs its packages with pnpm, never npm',
  });
  store.close();
});
afterEach(() => home.cleanup());

describe('homunculus ask', () => {
  it('answers without a model with the numbered sources, as text and as JSON', () => {
    const text = cli(home.path, ['ask', 'which package manager does the webapp use?']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^No model is configured/);
    expect(text.stdout).toMatch(/^\[1\] webapp uses pnpm \(fact \d+, \d{4}-\d\d-\d\d\): The webapp installs its packages with pnpm/m);
    const json = cli(home.path, ['ask', 'which package manager does the webapp use?', '--json']);
    const res = JSON.parse(json.stdout) as { answer: null; sources: { n: number; title: string }[] };
    expect(res.answer).toBeNull();
    expect(res.sources[0]).toMatchObject({ n: 1, title: 'webapp uses pnpm' });
  });

  it('takes the question unquoted, as several words, like context', () => {
    const words = cli(home.path, ['ask', 'which', 'package', 'manager', 'does', 'the', 'webapp', 'use?', '--json']);
    expect(words.status).toBe(0);
    const res = JSON.parse(words.stdout) as { sources: { title: string }[] };
    expect(res.sources[0]).toMatchObject({ title: 'webapp uses pnpm' });
  });

  it('refuses an empty question and a bad project, naming the argument', () => {
    const empty = cli(home.path, ['ask', '  ']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/<question> is empty: ask a question/);
    const project = cli(home.path, ['ask', 'what?', '--project', 'webapp']);
    expect(project.status).toBe(2);
    expect(project.stderr).toMatch(/Unknown project "webapp"\.[^]*no session has been recorded yet/);
  });
});
