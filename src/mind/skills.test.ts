/**
 * Running the mind's skills: in the real bubblewrap sandbox when it is installed (no fakes),
 * and as a plain subprocess when the caller asks for none.
 */
import { scratchDir } from '../test-support/cli.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasBwrap } from '../test-support/shared.js';
import { initInstance, instancePaths } from './instance.js';
import { acceptSkill, interpreter, listSkills, runSkill, type SkillOptions } from './skills.js';

/** A Homunculus home holding a fresh instance (with the chat skill) in mind/. */
function setup() {
  const home = scratchDir('mind-skills-');
  const paths = instancePaths(initInstance(join(home, 'mind'), 2026).root);
  const write = (name: string, main: string, file = 'main.mjs') => {
    mkdirSync(join(paths.skills, name), { recursive: true });
    writeFileSync(join(paths.skills, name, file), main);
  };
  return { home, skills: paths.skills, write };
}

const HELP = "if (process.argv.includes('--help')) { console.log('a skill: does a thing'); process.exit(0); }\n";
const LOOP = 'while (true) {}';

/** The runs every mode must get right: stdin in, stdout out, a loop killed at the timeout, --help to be accepted. */
function common(mode: Omit<SkillOptions, 'home'>, sandboxed: boolean) {
  it('runs the chat skill, which echoes its stdin', async () => {
    const { home, skills } = setup();
    const run = await runSkill(skills, 'chat', [], 'Hello there!\nHow are you?', { home, ...mode });
    expect(run).toEqual({ ok: true, stdout: 'Hello there!\nHow are you?\n', stderr: '', sandboxed });
  });

  it('kills a skill that loops forever at the timeout, and says it failed', async () => {
    const { home, skills, write } = setup();
    write('spin', LOOP);
    const started = Date.now();
    const run = await runSkill(skills, 'spin', [], '', { home, ...mode, timeoutMs: 1500 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(run.ok).toBe(false);
    expect(run.stderr).toContain('timed out after 1500 ms');
  });

  it('survives a skill that exits without reading its stdin', async () => {
    const { home, skills, write } = setup();
    write('deaf', "console.log('done');");
    const run = await runSkill(skills, 'deaf', [], 'x'.repeat(4 * 1024 * 1024), { home, ...mode });
    expect(run).toMatchObject({ ok: true, stdout: 'done\n', sandboxed });
  });

  it('accepts a created skill that answers --help; rejects and removes one that does not', async () => {
    const { home, skills, write } = setup();
    write('weather', `${HELP}console.log('sunny');`);
    write('broken', 'process.exit(3)');
    write('mute', 'while :; do :; done', 'main.sh');
    expect(await acceptSkill(skills, 'weather', { home, ...mode })).toBeUndefined();
    expect(await acceptSkill(skills, 'broken', { home, ...mode })).toMatch(/broken did not answer --help .*; it was removed/);
    expect(await acceptSkill(skills, 'mute', { home, ...mode, timeoutMs: 1000 })).toMatch(
      /mute did not answer --help \(timed out after 1000 ms/,
    );
    expect(existsSync(join(skills, 'broken'))).toBe(false);
    expect(listSkills(skills)).toEqual(['chat', 'weather']);
  });
}

describe.runIf(hasBwrap('mind skills in the sandbox'))('a skill in the sandbox', () => {
  common({}, true);

  it('has no network: a server on the host loopback is not reachable', async () => {
    const server = createServer((s) => s.end('hello from the host\n'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    try {
      const { home, skills, write } = setup();
      write(
        'net',
        `import { connect } from 'node:net';
const s = connect(${port}, '127.0.0.1');
s.on('data', (d) => { console.log('CONNECTED ' + d); process.exit(0); });
s.on('error', (e) => { console.error('refused: ' + e.code); process.exit(1); });`,
      );
      const run = await runSkill(skills, 'net', [], '', { home, timeoutMs: 5000 });
      expect(run.stdout).not.toContain('CONNECTED');
      expect(run).toMatchObject({ ok: false, sandboxed: true });
      expect(run.stderr).toContain('refused:');
    } finally {
      server.close();
    }
  });

  it("gets fetch's own error (no network), not an out-of-memory one under the address-space limit", async () => {
    const { home, skills, write } = setup();
    write(
      'fetcher',
      "fetch('http://127.0.0.1:9/').then(() => console.log('fetched'), (e) => { console.error('fetch: ' + e.message); process.exitCode = 1; });",
    );
    const run = await runSkill(skills, 'fetcher', [], '', { home, timeoutMs: 10_000 });
    expect(run).toMatchObject({ ok: false, sandboxed: true });
    expect(run.stderr).toMatch(/^fetch: fetch failed/);
    expect(run.stderr).not.toMatch(/Out of memory/);
  });

  it('cannot see the Homunculus home, nor write its own folder; its /tmp is writable', async () => {
    const { home, skills, write } = setup();
    writeFileSync(join(home, 'secret.txt'), 'HOME-SECRET-42');
    write(
      'peek',
      `import { readFileSync, writeFileSync } from 'node:fs';
const tryIt = (what, f) => { try { f(); console.log(what + ': yes'); } catch (e) { console.log(what + ': ' + e.code); } };
tryIt('read secret', () => console.log(readFileSync(${JSON.stringify(join(home, 'secret.txt'))}, 'utf8')));
tryIt('write own folder', () => writeFileSync('main.mjs', 'rewritten'));
tryIt('write tmp', () => writeFileSync('/tmp/scratch', 'ok'));`,
    );
    const run = await runSkill(skills, 'peek', [], '', { home });
    expect(run.stdout).not.toContain('HOME-SECRET-42');
    expect(run.stdout).toMatch(/read secret: ENOENT\nwrite own folder: (EROFS|EACCES)\nwrite tmp: yes\n/);
    expect(run.sandboxed).toBe(true);
  });
});

describe('a skill as a plain subprocess', () => {
  common({ sandbox: false }, false);
});

describe('interpreter', () => {
  it('runs node as the one running us, unless the sandbox hides it; others by name', () => {
    const hidden = ['/home/u/.homunculus', '/home/u'];
    expect(interpreter('node', true, '/usr/bin/node', hidden)).toBe('/usr/bin/node');
    expect(interpreter('node', true, '/home/u/.nvm/versions/node/v20/bin/node', hidden)).toBe('node');
    expect(interpreter('node', false, '/home/u/.nvm/versions/node/v20/bin/node', hidden)).toBe('/home/u/.nvm/versions/node/v20/bin/node');
    expect(interpreter('python3', true, '/usr/bin/node', hidden)).toBe('python3');
  });
});
