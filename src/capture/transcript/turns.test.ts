import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { query } from '../../app/memory.js';
import { invoke } from '../../app/operation.js';
import { openStore } from '../../store/store.js';
import { tempDir } from '../../test-support/cli.js';
import { importTranscripts } from './import.js';
import { commitMessage } from '../../core/shell.js';
import { TurnCollector, turnText } from './turns.js';

let dir: { path: string; cleanup: () => void };
beforeEach(() => (dir = tempDir('hom-turns-')));
afterEach(() => dir.cleanup());

describe('turns of a session', () => {
  it('reads commit messages, plain and heredoc, and nothing from other commands', () => {
    expect(commitMessage('git add a.go && git commit -m "Read env vars in the loader"')).toBe('Read env vars in the loader');
    expect(commitMessage('git commit -m "$(cat <<\'EOF\'\nFix the loader\n\nBody.\nEOF\n)"')).toBe('Fix the loader\n\nBody.');
    expect(commitMessage('git commit --amend --no-edit')).toBeUndefined();
    expect(commitMessage('git log -m')).toBeUndefined();
  });

  it('gathers what was asked, answered, hit and committed, without what the user pasted', () => {
    const turns = new TurnCollector();
    turns.tool({
      source: 'x',
      session_id: 's',
      tool_use_id: 't0',
      ts: 'x',
      tool: 'Bash',
      input: 'ls',
      outcome: 'error',
      error: 'before any prompt',
    });
    turns.prompt(
      'why is the loader broken?\n\nI got this feedback:\n\nLoader bug\n\nLow Severity\n\nIt never reads env.',
      '2026-01-10T09:00:00Z',
      'p',
    );
    turns.tool({
      source: 'x',
      session_id: 's',
      tool_use_id: 't1',
      ts: 'x',
      tool: 'Bash',
      input: 'npm test',
      outcome: 'error',
      error: 'exit 1: FAIL loader.test.ts',
    });
    turns.tool({ source: 'x', session_id: 's', tool_use_id: 't2', ts: 'x', tool: 'Bash', input: 'git commit -m "Read env vars"' });
    turns.answer('The loader skipped env vars: it read the file first. Fixed.');
    const [turn] = turns.turns();
    expect(turnText(turn!)).toBe(
      'why is the loader broken?\n\nI got this feedback:\n\nThe loader skipped env vars: it read the file first. Fixed.\n\nError: exit 1: FAIL loader.test.ts\n\nCommit: Read env vars',
    );
  });

  it('keep the end of a long answer from a whole word on, so a search result never opens mid-word', () => {
    const turns = new TurnCollector();
    turns.prompt('why does isHandlerInstalled fail?', '2026-01-10T09:00:00.000Z', 'p');
    turns.answer(`${'The handler returns 5 instead of 0. '.repeat(120)}Fixed.`);
    const text = turnText(turns.turns()[0]!);
    expect(text).toMatch(/^why does isHandlerInstalled fail\?\n\n…(The|handler|returns|5|instead|of|0\.) /);
    expect(text.endsWith('Fixed.')).toBe(true);
  });

  it('are imported as searchable documents, so a question about the end of a session finds it', async () => {
    const base = { sessionId: 'sess-9', cwd: '/work/app', version: '2.1.30' };
    const at = (s: number): string => new Date(Date.UTC(2026, 0, 10, 9, 0, s)).toISOString();
    const say = (s: number, text: string) => ({
      ...base,
      type: 'assistant',
      timestamp: at(s),
      message: { role: 'assistant', content: [{ type: 'text', text }] },
    });
    const ask = (s: number, text: string) => ({ ...base, type: 'user', timestamp: at(s), message: { role: 'user', content: text } });
    const file = join(dir.path, 'sess-9.jsonl');
    const records = [
      ask(1, 'set up the release workflow'),
      say(2, 'Added the workflow file.'),
      ...Array.from({ length: 8 }, (_, i) => [ask(3 + i * 2, `tweak step ${i}`), say(4 + i * 2, `Tweaked step ${i}.`)]).flat(),
      ask(30, 'why does the signing step fail on tags?'),
      say(
        31,
        'The signing key was read from a variable that only exists on main; tags run without it. I moved it to an environment secret.',
      ),
    ];
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
    const store = openStore({ home: join(dir.path, 'home') });
    try {
      await importTranscripts(store, [file]);
      expect(store.documents.count('turns')).toBe(10);
      expect(store.documents.get('turns', 'sess-9#9')).toMatchObject({ thread: 'sess-9', seq: 9 });
      const found = await invoke(query, { store, env: {} }, { query: 'signing key on tags environment secret', mode: 'bm25' });
      expect(found.results[0]).toMatchObject({ collection: 'turns', id: 'sess-9#9' });
    } finally {
      store.close();
    }
  });
});
