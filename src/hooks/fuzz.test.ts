/**
 * Bad input: every hook of every agent, fed malformed JSON, wrong types, missing fields,
 * huge and binary payloads, answers with valid output and leaves nothing half-written.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { rawDatabase } from '../store/testing.js';
import { cli, tempDir } from '../test-support/cli.js';
import { AGENTS, HOOKS } from '../capture/agents.js';
import { runHook } from './run.js';
import { MAX_PAYLOAD_BYTES } from '../capture/payload.js';

const tool = {
  session_id: 's',
  cwd: '/tmp',
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'make' },
  tool_use_id: 't',
};

const PAYLOADS: [string, string | Buffer][] = [
  ['empty', ''],
  ['whitespace', ' \n\t '],
  ['not json', 'hello there'],
  ['cut json', '{"session_id": "s", "tool_name": "Ba'],
  ['array', '[1, 2, 3]'],
  ['null', 'null'],
  ['number', '42'],
  ['string', '"PostToolUse"'],
  ['nested nonsense', '{"a": {"b": {"c": [null, {}, []]}}}'],
  ['missing fields', '{}'],
  [
    'wrong types',
    JSON.stringify({
      session_id: 42,
      cwd: { x: 1 },
      hook_event_name: [],
      tool_name: 7,
      tool_input: 'str',
      tool_response: 5,
      tool_use_id: null,
      prompt: {},
      timestamp: 'yesterday',
    }),
  ],
  ['tool_input array', JSON.stringify({ ...tool, tool_input: ['rm', '-rf'] })],
  ['prompt number', JSON.stringify({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: 12345 })],
  ['huge strings', JSON.stringify({ ...tool, tool_input: { command: 'x'.repeat(2_000_000) }, prompt: 'y'.repeat(2_000_000) })],
  ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  [
    'control characters',
    `{"session_id": "s\u0000\u0001", "tool_name": "Bash\u0007", "cwd": "/tmp", "tool_input": {"command": "\u001b[31mred"}, "tool_use_id": "t2"}`,
  ],
  ['binary garbage', randomBytes(64 * 1024)],
  ['utf-16 bom', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')])],
];

function validOutput(stdout: string, agent: string): boolean {
  if (stdout.trim() === '') return agent === 'claude-code' || agent === 'codex';
  const value: unknown = JSON.parse(stdout);
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

describe('fuzzing every hook in process', () => {
  const dir = tempDir('hom-fuzz-');
  afterAll(() => dir.cleanup());
  const env = { HOMUNCULUS_NO_LEARN: '1' } as NodeJS.ProcessEnv;

  it('answers every payload with valid output, whatever the hook and agent', async () => {
    const home = join(dir.path, 'home');
    for (const [name, payload] of PAYLOADS) {
      const raw = typeof payload === 'string' ? payload : { text: payload.toString('utf8'), bytes: payload.length, truncated: false };
      for (const hook of [...HOOKS, 'PostToolUse', 'nonsense']) {
        for (const agent of AGENTS) {
          const outcome = await runHook(hook, raw, { home, env, agent });
          expect(outcome.status, `${name} ${hook} ${agent}`).not.toBe('failed');
          expect(
            validOutput(outcome.stdout, agent) || (hook === 'nonsense' && outcome.stdout === ''),
            `${name} ${hook} ${agent}: ${outcome.stdout}`,
          ).toBe(true);
        }
      }
    }
    // Nothing half-written: no temporary spool files, a sound database.
    const spool = join(home, 'spool');
    expect(existsSync(spool) ? readdirSync(spool).filter((n) => n.endsWith('.tmp')) : []).toEqual([]);
    const store = openStore({ home, readonly: true });
    try {
      expect(rawDatabase(store).pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }
  });

  it('salvages the small fields of a payload too big to parse whole, and records the call', async () => {
    const home = join(dir.path, 'big');
    const big = JSON.stringify({ ...tool, tool_use_id: 'big-1', tool_response: { stdout: 'z'.repeat(MAX_PAYLOAD_BYTES + 1000) } });
    const outcome = await runHook('observe', { text: big.slice(0, MAX_PAYLOAD_BYTES), bytes: big.length, truncated: true }, { home, env });
    expect(outcome.status).toBe('spooled');
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(/is over the \d+-byte cap: read as cut, salvaged/);
  });

  it('logs JSON that is not an object as such, not as broken JSON', async () => {
    const home = join(dir.path, 'not-object');
    for (const text of ['[]', 'null', '"str"']) await runHook('prompt', { text, bytes: text.length, truncated: false }, { home, env });
    const log = readFileSync(join(home, 'logs', 'hooks.log'), 'utf8');
    expect(log.match(/is JSON but not an object: ignored/g)).toHaveLength(3);
    expect(log).not.toMatch(/not complete JSON/);
  });

  it('logs text with nothing readable in it as such, not as an empty payload', async () => {
    const home = join(dir.path, 'garbage');
    await runHook('prompt', { text: 'garbage\n', bytes: 8, truncated: false }, { home, env });
    const log = readFileSync(join(home, 'logs', 'hooks.log'), 'utf8');
    expect(log).toMatch(/payload of 8 bytes is not complete JSON: nothing in it could be read, ignored/);
    expect(log).not.toMatch(/: empty/);
  });

  it('reports a corrupt database in the log and still answers', async () => {
    const home = join(dir.path, 'corrupt');
    await runHook('observe', JSON.stringify(tool), { home, env });
    writeFileSync(join(home, 'homunculus.db'), 'this is not sqlite, just text padding '.repeat(10));
    for (const hook of ['start', 'prompt', 'stop', 'recall'] as const) {
      const outcome = await runHook(hook, JSON.stringify({ ...tool, prompt: 'hello world', hook_event_name: '' }), { home, env });
      expect(outcome.status).toBe('failed');
      expect(outcome.stdout).toBe('');
    }
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(/not a readable SQLite database/);
    // The spooled observation waits, untouched, for a healthy store.
    expect(readdirSync(join(home, 'spool')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
  });

  it('skips everything when HOMUNCULUS_OBSERVER is set', async () => {
    const home = join(dir.path, 'observer');
    for (const hook of HOOKS) {
      const outcome = await runHook(hook, JSON.stringify(tool), { home, env: { ...env, HOMUNCULUS_OBSERVER: '1' } });
      expect(outcome.status).toBe('skipped');
    }
    expect(existsSync(home)).toBe(false);
  });
});

describe('fuzzing the hook process', () => {
  const dir = tempDir('hom-fuzzp-');
  afterAll(() => dir.cleanup());

  it.each([
    ['a 20 MB payload', 'observe', Buffer.from(JSON.stringify({ ...tool, tool_response: { stdout: 'q'.repeat(20 * 1024 * 1024) } }))],
    ['binary garbage', 'start', randomBytes(256 * 1024)],
    ['malformed JSON', 'prompt', Buffer.from('{"prompt": "unterminated')],
    ['no input at all', 'stop', Buffer.alloc(0)],
  ])('exits 0 with valid output on %s', (_name, hook, input) => {
    const home = join(dir.path, `h-${hook}`);
    const r = cli(home, ['hook', hook], { input, env: { HOMUNCULUS_NO_LEARN: '1' } });
    expect(r.status).toBe(0);
    expect(validOutput(r.stdout, 'claude-code')).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('exits 0 when the home cannot be created, and with an unknown event or agent', () => {
    const blocked = join(dir.path, 'file-not-dir');
    writeFileSync(blocked, 'x');
    for (const args of [['hook', 'stop'], ['hook', 'observe'], ['hook', 'whatever'], ['hook', 'start', '--agent', 'nope'], ['hook']]) {
      const r = cli(join(blocked, 'home'), args, { input: JSON.stringify(tool) });
      expect(r.status, args.join(' ')).toBe(0);
      expect(validOutput(r.stdout, 'claude-code')).toBe(true);
    }
  });

  it('answers in time when another process holds the database lock, and loses nothing it observed', () => {
    const home = join(dir.path, 'locked');
    cli(home, ['init']);
    // Another process's long write, held from outside the store's own locking.
    const holder = openStore({ home });
    rawDatabase(holder).exec('BEGIN EXCLUSIVE');
    const spooled = () => readdirSync(join(home, 'spool')).filter((n) => n.endsWith('.json'));
    try {
      const started = Date.now();
      const r = cli(home, ['hook', 'prompt'], {
        input: JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'UserPromptSubmit', prompt: 'run the tests' }),
      });
      expect(r.status).toBe(0);
      expect(validOutput(r.stdout, 'claude-code')).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
      // The prompt waits in the spool; the observe hook does not touch the database at all.
      expect(spooled()).toHaveLength(1);
      const o = cli(home, ['hook', 'observe'], { input: JSON.stringify(tool) });
      expect(o.status).toBe(0);
      expect(spooled()).toHaveLength(2);
    } finally {
      rawDatabase(holder).exec('ROLLBACK');
      holder.close();
    }
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(/prompt \(claude-code\): the database stayed locked .* spooled/);
    // The next hook, the lock gone, drains both into the store.
    cli(home, ['hook', 'start'], {
      input: JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'SessionStart', source: 'startup' }),
    });
    const store = openStore({ home, readonly: true });
    try {
      const kinds = store.observations.forSession('s').map((x) => x.event);
      expect(kinds).toEqual(expect.arrayContaining(['prompt', 'session_start', 'tool']));
      expect(spooled()).toHaveLength(0);
    } finally {
      store.close();
    }
  });
});
