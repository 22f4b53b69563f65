/** `homunculus mind init|about` through the built binary. */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stubModel } from '../test-support/agent-loop.js';
import { BIN, cli, cliEnv, runNode, tempDir } from '../test-support/cli.js';
import { type OllamaStub, startOllamaStub } from '../test-support/ollama-stub.js';

const memory = (author: string, day: string) =>
  `${JSON.stringify({ timestamp: `${day}T10:00:00Z`, author, weight: 0.5, situation: 'test', description: `${author} on ${day}` })}\n`;

/** The stub tests need no encoder: recall is then the recent memories (recall.test.ts covers the rest). */
const NO_ENCODER = { HOMUNCULUS_EMBEDDING: 'none' };

const homes: { cleanup: () => void }[] = [];
const newHome = (): string => {
  const dir = tempDir();
  homes.push(dir);
  return dir.path;
};
const stubs: OllamaStub[] = [];
afterEach(async () => {
  homes.splice(0).forEach((h) => h.cleanup());
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

/** An instance whose agent.local is a loopback Ollama stub answering `answers` in turn. */
async function withStub(answers: string[]): Promise<{ home: string; stub: OllamaStub }> {
  const home = newHome();
  cli(home, ['mind', 'init']);
  const stub = await startOllamaStub((req) => ({ text: answers[stub.requests.indexOf(req)] ?? '' }));
  stubs.push(stub);
  writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', stub.baseUrl) } }));
  return { home, stub };
}

const trigger = (home: string, loop: string) => runNode([BIN, 'mind', 'trigger', loop], cliEnv(home, NO_ENCODER));
const EVOLVE = JSON.stringify({ soul: 'I have grown.', values: [{ name: 'patience', weight: 0.6, status: 'active' }] });

describe('homunculus mind', () => {
  it('inits an instance, then about shows it, with memory filters', () => {
    const home = newHome();
    const init = cli(home, ['mind', 'init', '--json']);
    expect(init.status, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout).commit).toMatch(/^[0-9a-f]{40}$/);
    const logs = join(home, 'mind', 'data', 'memory', '2026');
    mkdirSync(logs, { recursive: true });
    appendFileSync(join(logs, '2026-02-14.jsonl'), memory('self', '2026-02-14') + memory('kernel', '2026-02-14'));
    appendFileSync(join(logs, '2026-02-15.jsonl'), memory('external', '2026-02-15'));

    const about = cli(home, ['mind', 'about']);
    expect(about.status, about.stderr).toBe(0);
    expect(about.stdout).toMatch(/Skills: chat/);
    expect(about.stdout).toMatch(/Memories: self 1, kernel 1, goal 0, external 1/);
    expect(about.stdout).not.toMatch(/self on/);

    const bySelf = JSON.parse(cli(home, ['mind', 'about', '--author', 'self', '--json']).stdout);
    expect(bySelf.memories.map((m: { description: string }) => m.description)).toEqual(['self on 2026-02-14']);
    const byDate = JSON.parse(cli(home, ['mind', 'about', '--date', '2026-02-15', '--json']).stdout);
    expect(byDate.memories.map((m: { author: string }) => m.author)).toEqual(['external']);
    expect(cli(home, ['mind', 'about', '--memories']).stdout).toMatch(/kernel on 2026-02-14/);

    // Commits are explicit: the new memories are committed once; then there is nothing to commit.
    expect(cli(home, ['mind', 'commit', '-m', 'three memories']).stdout).toMatch(/^Committed data\/: [0-9a-f]{12}/);
    expect(cli(home, ['mind', 'commit']).stdout).toMatch(/Nothing to commit/);
    const log = execFileSync('git', ['log', '--format=%s'], { cwd: join(home, 'mind', 'data'), encoding: 'utf8' });
    expect(log.split('\n').filter(Boolean)).toEqual(['three memories', 'mind init']);
    // A values.json gone is said where the values are shown, with the fix.
    rmSync(join(home, 'mind', 'data', 'values.json'));
    expect(cli(home, ['mind', 'about']).stdout).toMatch(/Values:\n {2}none: data\/values\.json is missing \(homunculus mind init/);
  });

  it('refuses bad input with exit 2 and the fix, and asks for init first', () => {
    const home = newHome();
    const none = cli(home, ['mind', 'about']);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/homunculus mind init/);
    cli(home, ['mind', 'init']);
    const author = cli(home, ['mind', 'about', '--author', 'god']);
    expect(author.status).toBe(2);
    expect(author.stderr).toMatch(/--author must be one of self, kernel, goal, external/);
    const date = cli(home, ['mind', 'about', '--date', '2026-02-31']);
    expect(date.status).toBe(2);
    expect(date.stderr).toMatch(/--date must be a date YYYY-MM-DD/);
    expect(cli(home, ['mind', '--help']).stdout).toMatch(/init[\s\S]*about/);
  });

  it('trigger reflect runs the loop on the local model and evolves the mind', async () => {
    const { home, stub } = await withStub(['review', 'questions', 'prediction', EVOLVE]);
    const r = await trigger(home, 'reflect');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/review → ask → predict → evolve\n {2}wrote soul\.md, values\.json\n/);
    expect(stub.requests).toHaveLength(4);
    expect(stub.requests[0]?.messages[0]?.content).toBe(readFileSync(join(home, 'mind', 'prompts', 'reflect-review', 'system.md'), 'utf8'));
    expect(readFileSync(join(home, 'mind', 'data', 'soul.md'), 'utf8')).toBe('I have grown.');
  });

  it('trigger: an answer the loop cannot use fails with exit 1 and says so; about shows each memory on one line', async () => {
    const { home } = await withStub(['a situation', 'I have no candidates, sorry.']);
    const r = await trigger(home, 'action');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /model → candidates\n {2}failed: the CANDIDATES answer was not valid \(no JSON object in the answer\); nothing was done/,
    );
    const about = cli(home, ['mind', 'about', '--limit', '5']);
    // --limit alone shows memories; a multi-line description stays on its line.
    expect(about.stdout).toMatch(
      /\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}kernel, weight 1 {2}action loop: The CANDIDATES answer was not valid/,
    );
    const explore = cli(home, ['mind', 'trigger', 'explore', '--situation', 'hi']);
    expect(explore.status).toBe(2);
    expect(explore.stderr).toMatch(/--situation is for the action loop only/);
  });

  it('trigger explore: the kernel refuses what the model may not write', async () => {
    const { home } = await withStub(['a question', 'prediction', EVOLVE]);
    const r = await trigger(home, 'explore');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/refused soul\.md: The explore loop may not write soul/);
    expect(readFileSync(join(home, 'mind', 'data', 'soul.md'), 'utf8')).not.toBe('I have grown.');
    const bad = cli(home, ['mind', 'trigger', 'dream']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/<loop> must be action, explore or reflect/);
  });

  it('trigger action runs the chat skill the model chose and records the outcome', async () => {
    const candidates = JSON.stringify({
      candidates: [{ action: 'greet', skill: 'chat', values: ['curiosity'], goals: [], indirection: 0 }],
    });
    const record = JSON.stringify({ memories: [{ author: 'self', weight: 0.5, situation: 'hi', description: 'greeted' }] });
    const { home, stub } = await withStub(['a greeting', candidates, 'a smile', 'greet', 'Hello!', record]);
    const r = await runNode([BIN, 'mind', 'trigger', 'action', '--situation', 'the user says hi'], cliEnv(home, NO_ENCODER));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/model → candidates → predict → decide → act → record[\s\S]*wrote memory/);
    expect(stub.requests.at(-1)?.messages.at(-1)?.content).toContain('Outcome: Hello!');
    const about = JSON.parse(cli(home, ['mind', 'about', '--author', 'kernel', '--json']).stdout);
    expect(about.memories[0].description).toMatch(/^chose "greet": B = 0\.350/);
  });

  /** Answers by the step its prompt is (recognised by the prompt's opening words). */
  const BY_PROMPT: [string, string][] = [
    ['Propose up to five', JSON.stringify({ candidates: [{ action: 'greet', skill: 'chat', values: [], goals: [], indirection: 0 }] })],
    ['Choose one action', 'greet'],
    ['standard input of the skill', 'Hello!'],
    [
      'Write a memory of this action',
      JSON.stringify({ memories: [{ author: 'self', weight: 0.5, situation: 's', description: 'acted' }] }),
    ],
    [
      'Write a memory of this exploration',
      JSON.stringify({ memories: [{ author: 'self', weight: 0.5, situation: 's', description: 'explored' }] }),
    ],
  ];
  /** `fails(n)`: request n is answered 404 "model not found", as Ollama answers for a model it lacks. */
  async function scriptedHome(fails: (n: number) => boolean = () => false): Promise<{ home: string; stub: OllamaStub }> {
    const home = newHome();
    cli(home, ['mind', 'init']);
    const stub = await startOllamaStub((req) => {
      if (fails(stub.requests.indexOf(req))) return { status: 404, error: 'model "llama-stub" not found, try pulling it first' };
      const prompt = String(req.messages.at(-1)?.content ?? '');
      return { text: BY_PROMPT.find(([mark]) => prompt.includes(mark))?.[1] ?? 'ok' };
    });
    stubs.push(stub);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', stub.baseUrl) } }));
    return { home, stub };
  }

  it("chat: each line runs the action loop and prints the chat skill's reply; /exit stops", async () => {
    const { home } = await scriptedHome();
    const r = await runNode([BIN, 'mind', 'chat'], cliEnv(home, NO_ENCODER), 'hi\nhow are you?\n/exit\nnever read\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('Hello!\nHello!\n');
    const about = JSON.parse(cli(home, ['mind', 'about', '--author', 'self', '--json']).stdout);
    expect(about.memories.filter((m: { description: string }) => m.description === 'acted')).toHaveLength(2);
    // --json: one JSON line per turn.
    const json = await runNode([BIN, '--json', 'mind', 'chat'], cliEnv(home, NO_ENCODER), 'hi\n');
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).reply),
    ).toEqual(['Hello!']);
  });

  it('chat: a refused line is said and the chat still ends well', async () => {
    const { home } = await scriptedHome();
    const r = await runNode([BIN, 'mind', 'chat'], cliEnv(home, NO_ENCODER), `${'x'.repeat(10_001)}\nhi\n/exit\n`);
    expect(r.stderr).toMatch(/your line must be at most 10,000 characters/);
    expect(r.stdout).toBe('Hello!\n');
    expect(r.status).toBe(0);
  });

  it('chat: a turn where no skill answered but the model did not fail says what it did, and the chat ends well', async () => {
    const { home } = await scriptedHome();
    rmSync(join(home, 'mind', 'skills', 'chat'), { recursive: true });
    const r = await runNode([BIN, 'mind', 'chat'], cliEnv(home, NO_ENCODER), 'hi\n/exit\n');
    expect(r.stdout).toMatch(/^\(no reply this turn: the skill chat does not exist and the model wrote no files for it/);
    expect(r.status, r.stderr).toBe(0);
  });

  it('chat --json: /help and unknown commands answer in JSON too', async () => {
    const { home } = await scriptedHome();
    const json = await runNode([BIN, '--json', 'mind', 'chat'], cliEnv(home, NO_ENCODER), '/help\n/nope\nhi\n/exit\n');
    expect(json.status, json.stderr).toBe(0);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { help: expect.stringMatching(/\/exit/) },
      { error: 'Unknown command /nope', code: 'usage' },
      { reply: 'Hello!' },
    ]);
  });

  it('run: alternates action and explore cycles, then stops after --cycles', async () => {
    const { home } = await scriptedHome();
    const r = await runNode([BIN, 'mind', 'run', '--cycles', '2', '--interval', '0'], cliEnv(home, NO_ENCODER));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/The action loop ran[\s\S]*outcome: Hello![\s\S]*The explore loop ran[\s\S]*Stopped after 2 cycles\./);
    expect(cli(home, ['mind', 'run', '--interval', '-1']).stderr).toMatch(/--interval/);
  });

  it('run and chat: a model failure ends that cycle, named with the model and the fix, and the next one runs', async () => {
    const { home } = await scriptedHome((n) => n === 0);
    const r = await runNode([BIN, 'mind', 'run', '--cycles', '2', '--interval', '0'], cliEnv(home, NO_ENCODER));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^The action loop could not run: The model ollama:\S+ at http:\/\/127\.0\.0\.1:\d+ failed: .*not found/m);
    expect(r.stdout).toMatch(/The explore loop ran[\s\S]*Stopped after 2 cycles, 1 of them failed\./);
    // Every cycle failed: a script running it sees it.
    const none = await runNode(
      [BIN, 'mind', 'run', '--cycles', '1', '--interval', '0'],
      cliEnv((await scriptedHome(() => true)).home, NO_ENCODER),
    );
    expect(none.status).toBe(1);
    expect(none.stdout).toMatch(/Stopped after 1 cycle, 1 of them failed\./);
    const kernel = JSON.parse(cli(home, ['mind', 'about', '--memories', '--author', 'kernel', '--json']).stdout);
    expect(kernel.memories.map((m: { description: string }) => m.description)).toContainEqual(
      expect.stringMatching(/^The action cycle stopped: The model ollama/),
    );

    const chat = await scriptedHome((n) => n === 0);
    const long = 'x'.repeat(10_001);
    const c = await runNode([BIN, 'mind', 'chat'], cliEnv(chat.home, NO_ENCODER), `hi\n${long}\nhow are you?\n`);
    // Each line is a turn of its own: a failed model call or a refused line does not end the chat.
    expect(c.stdout).toMatch(/^\(no answer: The model ollama:\S+ .* failed: .*not found.*\)\nHello!\n$/);
    expect(c.stderr).toMatch(/homunculus: your line must be at most 10,000 characters/);
    expect(c.status).toBe(1);
  });

  it('run: Ctrl-C lets the cycle under way finish, then stops cleanly', async () => {
    const { home } = await scriptedHome();
    const child = spawn(process.execPath, [BIN, 'mind', 'run', '--interval', '600'], { env: cliEnv(home, NO_ENCODER) });
    let stdout = '';
    const exited = new Promise<number | null>((done) => child.on('close', done));
    await new Promise<void>((ready) =>
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('The action loop ran')) ready();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/Stopped after 1 cycle\.$/m);
  });
});
