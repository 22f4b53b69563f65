import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';
import { runCli, runCliJson } from '../test-support/run-cli.js';
import { writeTinyOnnxModel } from '../test-support/tiny-onnx.js';
import { hasOnnxRuntime } from '../test-support/shared.js';
import { MIRRORED_COLLECTIONS } from '../search/documents.js';

const NO_EMBED = { HOMUNCULUS_EMBEDDING: 'none' };

interface QueryJson {
  results: { id: string; score: number; collection: string; text: string; ts: string | null; speaker?: string | null; explain?: unknown }[];
  notes: string[];
}

describe('memory import, query and embed through the binary', () => {
  let home: ReturnType<typeof tempDir>;
  beforeAll(() => {
    home = tempDir();
  });
  afterAll(() => home.cleanup());

  it('memory import names the lines that repeat an id of the same file', async () => {
    const file = join(home.path, 'repeats.jsonl');
    const line = (id: string, text: string, collection?: string) => JSON.stringify({ id, text, ...(collection ? { collection } : {}) });
    writeFileSync(file, [line('r1', 'first'), line('r2', 'other'), line('r1', 'second'), line('r1', 'elsewhere', 'notes')].join('\n'));
    const r = await runCli(home.path, ['memory', 'import', file], { env: NO_EMBED });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('repeats.jsonl:3: id "r1" repeats line 1 (memories); the later line was kept');
    expect(r.stderr).not.toMatch(/repeats\.jsonl:4/);
    expect(r.stdout).toMatch(/; 1 repeated id \(listed above\)/);
  });

  it('memory add --help names only collections it accepts', async () => {
    const help = (await runCli(home.path, ['memory', 'add', '--help'])).stdout;
    const line = help.split('\n').find((l) => l.includes('--collection')) ?? '';
    expect(line).toMatch(/memories/);
    for (const refused of MIRRORED_COLLECTIONS) expect(line).not.toContain(refused);
  });

  it('imports good lines, reports bad ones with line numbers, and exits 1', async () => {
    const file = join(home.path, 'memories.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({
          id: 'm1',
          text: 'The staging database lives on host db-2',
          ts: '2026-01-05',
          project: 'api',
          metadata: { source: 'notes' },
        }),
        '{not json',
        JSON.stringify({ id: 'm2' }),
        JSON.stringify({ id: 'm3', text: 'bad date', ts: 'yesterday' }),
        '',
        JSON.stringify({ id: 'f1', text: 'Deploys happen on Fridays after the standup', collection: 'notes', ts: '2026-02-01T09:00:00Z' }),
        JSON.stringify({ id: 'i1', text: 'sneaky', collection: 'instincts' }),
        JSON.stringify({ id: 7, text: '東京タワーの写真を共有した' }),
      ].join('\n'),
    );
    const r = await runCli(home.path, ['memory', 'import', file, '--json'], { env: NO_EMBED });
    expect(r.status).toBe(1);
    const summary = JSON.parse(r.stdout) as { inserted: number; lines: number; bad: { line: number; error: string }[] };
    expect(summary).toMatchObject({ inserted: 3, lines: 8 });
    expect(summary.bad.map((b) => b.line)).toEqual([2, 3, 4, 7]);
    expect(r.stderr).toContain('memories.jsonl:2: not valid JSON');
    expect(r.stderr).toContain('memories.jsonl:3: text must be a non-empty string');
    expect(r.stderr).toContain('memories.jsonl:4: ts must be an ISO-8601');
    expect(r.stderr).toContain('memories.jsonl:7: collection "instincts" is indexed from its own records');
    // Importing the same file again changes nothing.
    const again = JSON.parse((await runCli(home.path, ['memory', 'import', file, '--json'], { env: NO_EMBED })).stdout) as {
      inserted: number;
      unchanged: number;
    };
    expect(again).toMatchObject({ inserted: 0, unchanged: 3 });
  });

  it('answers query --json with results best first under the ids given at import', async () => {
    const res = await runCliJson<QueryJson>(home.path, ['query', 'where is the staging database'], NO_EMBED);
    expect(res.results[0]).toMatchObject({ id: 'm1', collection: 'memories', ts: '2026-01-05T00:00:00.000Z' });
    expect(res.results[0]?.text).toContain('db-2');
    const scores = res.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect((await runCliJson<QueryJson>(home.path, ['query', '東京タワー'], NO_EMBED)).results.map((r) => r.id)).toEqual(['7']);
    const facts = await runCliJson<QueryJson>(
      home.path,
      ['query', 'deploys staging', '--collection', 'notes', '--since', '2026-01-15'],
      NO_EMBED,
    );
    expect(facts.results.map((r) => r.id)).toEqual(['f1']);
    expect((await runCliJson<QueryJson>(home.path, ['query', 'staging', '--project', 'other'], NO_EMBED)).results).toEqual([]);
  });

  it('gives first the learned rules a question names, as the prompt hook would', async () => {
    const observed = await runCli(home.path, ['observe', 'pref:test=npm-test', '--explain', 'Run the tests with npm test', '--count', '5']);
    expect(observed.status).toBe(0);
    const r = await runCli(home.path, ['query', 'how do we run the tests', '--mode', 'bm25'], { env: NO_EMBED, cwd: home.path });
    expect(r.stdout).toMatch(/^Learned rules this names:\n- .*npm test/);
    const json = await runCliJson<QueryJson & { learned: string[] }>(
      home.path,
      ['query', 'how do we run the tests', '--mode', 'bm25'],
      NO_EMBED,
    );
    expect(json.learned.join('\n')).toContain('npm test');
    // A search of other collections, or a question about something else, gets none.
    const notes = await runCliJson<{ learned: string[] }>(home.path, ['query', 'run the tests', '--collection', 'notes'], NO_EMBED);
    expect(notes.learned).toEqual([]);
    expect((await runCliJson<{ learned: string[] }>(home.path, ['query', 'staging database'], NO_EMBED)).learned).toEqual([]);
  });

  it('explains the ranking in text mode', async () => {
    const r = await runCli(home.path, ['query', 'staging database host', '--explain', '--mode', 'bm25'], { env: NO_EMBED });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1\. \d\.\d{3} {2}memories\/m1 2026-01-05/);
    expect(r.stdout).toMatch(/lists: bm25 #1 \(/);
    expect(r.stdout).toMatch(/modifiers: none/);
  });

  it('says a memory a later one restated is history, and its factor under --explain', async () => {
    for (const [id, text] of [
      ['p95-jan', 'Checkout p95 latency is 240 ms'],
      ['p95-mar', 'Checkout p95 latency is now 180 ms'],
    ] as const)
      expect((await runCli(home.path, ['memory', 'add', text, '--id', id], { env: NO_EMBED })).status).toBe(0);
    const r = await runCli(home.path, ['query', 'checkout p95 latency', '--explain', '--mode', 'bm25'], { env: NO_EMBED });
    expect(r.stdout).toMatch(/1\. \d\.\d{3} {2}memories\/p95-mar\n/);
    expect(r.stdout).toMatch(
      /2\. \d\.\d{3} {2}memories\/p95-jan {2}\[superseded by p95-mar\]\n[\s\S]*modifiers: superseded 0\.50 = 0\.500/,
    );
  });

  it('rejects bad arguments with exit 2 and a hint', async () => {
    const fifo = join(home.path, 'pipe.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const cases: [string[], RegExp][] = [
      [['query', 'x', '--since', 'last tuesday'], /--since must be an ISO-8601 date/],
      [['query', 'x', '--since', '2026-02-01', '--until', '2026-01-01'], /since is later than until/],
      [['query', 'x', '--mode', 'fuzzy'], /--mode must be one of hybrid, bm25, vector/],
      [['query', 'x', '--limit', '0'], /--limit must be a whole number/],
      // A list of none said "No instincts match." over a store full of them.
      [['list', '--limit', '0'], /--limit must be a whole number from 1/],
      [['search', 'x', '--limit', '0'], /--limit must be a whole number from 1/],
      [['query', 'x', '--min-score', '-1'], /--min-score must be a number/],
      [['query', 'x', '--collection', 'Bad Name'], /--collection must be lower-case/],
      [['query', '   '], /<text> is empty: give some words to search for/],
      [['memory', 'add', 'text', '--ts', 'soon'], /ts must be an ISO-8601/],
      [['memory', 'add', 'text', '--metadata', '[1]'], /metadata must be a JSON object/],
      [['memory', 'import', join(home.path, 'missing.jsonl')], /No such file/],
      [['memory', 'import', home.path], /is a folder, not a file[\s\S]*one JSONL file/],
      [['memory', 'import', fifo], /is a named pipe \(FIFO\), not a regular file[\s\S]*fix: .*one JSONL file/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(home.path, args, { env: NO_EMBED });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('takes a 1 MB query with NUL bytes on stdin', async () => {
    // Standard input needs a real process.
    const r = cli(home.path, ['query', '-', '--json'], {
      env: NO_EMBED,
      input: `staging\u0000 database ${'padding '.repeat(130_000)}`,
    });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as QueryJson).results[0]?.id).toBe('m1');
  });

  it('adds and deletes single memories', async () => {
    const added = await runCliJson<{ id: string; inserted: number }>(
      home.path,
      ['memory', 'add', 'The VPN config is in vault under net/vpn', '--id', 'vpn'],
      NO_EMBED,
    );
    expect(added).toMatchObject({ id: 'vpn', inserted: 1 });
    expect((await runCliJson<QueryJson>(home.path, ['query', 'vpn config'], NO_EMBED)).results[0]?.id).toBe('vpn');
    expect((await runCliJson<{ deleted: number }>(home.path, ['memory', 'delete', 'vpn'], NO_EMBED)).deleted).toBe(1);
    expect((await runCliJson<QueryJson>(home.path, ['query', 'vpn config'], NO_EMBED)).results).toEqual([]);
    const again = await runCli(home.path, ['memory', 'delete', 'vpn'], { env: NO_EMBED });
    expect(again.status).toBe(1);
    expect(again.stdout).toBe('Deleted 0 of 1. Not in memories: "vpn".\n');
    // Its default is said once.
    expect((await runCli(home.path, ['memory', 'delete', '--help'])).stdout).toMatch(
      /^ {2}--collection <name> +collection \(default: "memories"\)$/m,
    );
  });

  it('keeps who said a memory and prefers the speaker a query names', async () => {
    const say = async (id: string, text: string, speaker: string) =>
      await runCliJson(home.path, ['memory', 'add', text, '--id', id, '--speaker', speaker, '--thread', 'chat-1'], NO_EMBED);
    await say('t1', 'Sam, how did the marathon training go?', 'Lee');
    await say('t2', 'The marathon training went great, I ran 30 km on Sunday.', 'Sam');
    const res = await runCliJson<QueryJson>(
      home.path,
      ['query', 'How did Sam do with marathon training?', '--collection', 'memories'],
      NO_EMBED,
    );
    expect(res.results.slice(0, 2).map((r) => [r.id, r.speaker])).toEqual([
      ['t2', 'Sam'],
      ['t1', 'Lee'],
    ]);
    const text = (await runCli(home.path, ['query', 'How did Sam do with marathon training?', '--explain'], { env: NO_EMBED })).stdout;
    expect(text).toMatch(/memories\/t1 \(Lee\)[\s\S]*x speaker 0\.50/);
    // "I" is the store's owner, named in config.json; a bad "user" section is an error that says the fix.
    const asked = ['query', 'What did I ask about the marathon training?', '--collection', 'memories', '--explain'];
    const samScaled = /memories\/t2 \(Sam\)\n.*\n.*\n.*x speaker 0\.50/;
    expect((await runCli(home.path, asked, { env: NO_EMBED })).stdout).not.toMatch(samScaled);
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ user: { names: ['Lee'] } }));
    expect((await runCli(home.path, asked, { env: NO_EMBED })).stdout).toMatch(samScaled);
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ user: { names: 'Lee' } }));
    const wrong = await runCli(home.path, asked, { env: NO_EMBED });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toMatch(/config\.json "user" is not valid[\s\S]*"names": \["Ada"/);
    writeFileSync(join(home.path, 'config.json'), '{}');
    const bad = await runCli(home.path, ['memory', 'add', 'text', '--speaker', ' '], { env: NO_EMBED });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/speaker must be a non-empty name/);
  });
});

describe.runIf(hasOnnxRuntime('embed after a model change (cli/search.e2e.test.ts)'))('embed after a model change', () => {
  it('memory add embeds only the memory it stores, leaving the backlog to embed', async () => {
    const home = tempDir();
    try {
      const model = writeTinyOnnxModel(home.path, 'model-a', 8);
      writeFileSync(join(home.path, 'config.json'), JSON.stringify({ embedding: { provider: 'onnx', path: model.path } }));
      const file = join(home.path, 'backlog.jsonl');
      writeFileSync(
        file,
        ['cat kitten pet', 'stock market price', 'rain storm weather'].map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n'),
      );
      expect((await runCliJson<{ embedded: number }>(home.path, ['memory', 'import', file, '--no-embed'])).embedded).toBe(0);
      expect((await runCliJson<{ embedded: number }>(home.path, ['memory', 'add', 'the staging DB lives on db-2'])).embedded).toBe(1);
      expect(await runCliJson<{ current: number; missing: number }>(home.path, ['embed', '--status'])).toMatchObject({
        current: 1,
        missing: 3,
      });
    } finally {
      home.cleanup();
    }
  });

  it('re-embeds every document with the new model and reports it', async () => {
    const home = tempDir();
    try {
      const a = writeTinyOnnxModel(home.path, 'model-a', 8);
      const b = writeTinyOnnxModel(home.path, 'model-b', 16);
      const config = (path: string) =>
        writeFileSync(join(home.path, 'config.json'), JSON.stringify({ embedding: { provider: 'onnx', path } }));
      config(a.path);
      const file = join(home.path, 'pets.jsonl');
      writeFileSync(
        file,
        ['cat kitten pet', 'stock market price', 'rain storm weather'].map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n'),
      );
      expect((await runCliJson<{ embedded: number }>(home.path, ['memory', 'import', file])).embedded).toBe(3);
      expect(await runCliJson<{ current: number; missing: number }>(home.path, ['embed', '--status'])).toMatchObject({
        current: 3,
        missing: 0,
      });
      config(b.path);
      const status = await runCli(home.path, ['embed', '--status']);
      expect(status.stdout).toMatch(/vectors on record are from onnx\/model-a: run `homunculus embed`/);
      const hybrid = await runCliJson<QueryJson>(home.path, ['query', 'kitten']);
      expect(hybrid.notes.join(' ')).toMatch(/embedding model changed/);
      const run = await runCliJson<{
        model_changed: boolean;
        embedded: number;
        removed_stale: number;
        model: { model: string; dims: number };
      }>(home.path, ['embed']);
      // The query above already re-embedded its one lexical hit (one vector per document: it replaced the old one).
      expect(run).toMatchObject({ model_changed: true, removed_stale: 2, model: { model: 'model-b', dims: 16 } });
      expect(run.embedded).toBe(2);
      expect(await runCliJson<{ current: number; stale: number }>(home.path, ['embed', '--status'])).toMatchObject({
        current: 3,
        stale: 0,
      });
      const vector = await runCliJson<QueryJson>(home.path, ['query', 'kitten', '--mode', 'vector']);
      expect(vector.results[0]?.id).toBe('d0');
      expect((await runCli(home.path, ['embed', '--help'])).stdout).toMatch(/provider": "ollama"/);
    } finally {
      home.cleanup();
    }
  });
});
