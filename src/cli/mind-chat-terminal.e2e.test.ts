/**
 * `mind chat` at a real terminal (a pty, from python3): Ctrl-C abandons the turn waiting for the
 * model, even one typed together with its Enter, the chat goes on, and Ctrl-C at the prompt ends it.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, tempDir } from '../test-support/cli.js';
import { PYTHON, hasPython } from '../test-support/shared.js';
import { readMemories } from '../mind/files.js';

/** Runs `node BIN mind chat` in a pty, writing each [seconds to wait, keys] in turn; returns what the terminal showed. */
const DRIVER = `
import json, os, pty, select, sys, time
steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], [sys.argv[2], sys.argv[3], 'mind', 'chat'])
out = b''
def pump(t):
    global out
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try: d = os.read(fd, 65536)
            except OSError: return
            if not d: return
            out += d
for wait, keys in steps:
    pump(wait)
    os.write(fd, keys.encode())
pump(8)
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf8', 'replace'))
sys.stdout.write('\\n[exit %d]' % os.waitstatus_to_exitcode(status))
`;

function terminal(env: NodeJS.ProcessEnv, steps: [number, string][]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(PYTHON, ['-c', DRIVER, JSON.stringify(steps), process.execPath, BIN], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', fail);
    child.on('close', () => done(out));
  });
}

describe('mind chat at a terminal', () => {
  const stops: (() => void)[] = [];
  afterEach(() => stops.splice(0).forEach((s) => s()));

  it.runIf(hasPython('mind chat at a terminal (cli/mind-chat-terminal.e2e.test.ts)'))(
    'Ctrl-C abandons the turn the model keeps waiting, typed with its Enter or after it; at the prompt it ends the chat',
    async () => {
      // A model server that takes every request and never answers.
      const hung = createServer((req) => req.resume());
      await new Promise<void>((ready) => hung.listen(0, '127.0.0.1', ready));
      stops.push(() => hung.close());
      const dir = tempDir();
      stops.push(() => dir.cleanup());
      const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
      writeFileSync(join(dir.path, 'config.json'), JSON.stringify({ agent: { local: { provider: 'ollama', model: 'x', baseUrl: url } } }));
      expect(cli(dir.path, ['mind', 'init']).status).toBe(0);
      const shown = await terminal(cliEnv(dir.path, { HOMUNCULUS_EMBEDDING: 'none' }), [
        [2, 'hello there\r\u0003'],
        [2, 'and again\r'],
        [1, '\u0003'],
        [2, '\u0003'],
      ]);
      expect(shown.match(/\(no answer: Cancelled: the model was not waited for\.\)/g)).toHaveLength(2);
      // Cancelled turns are the person's choice, not a failure of the chat.
      expect(shown).toMatch(/\[exit 0\]$/);
      const said = readMemories(join(dir.path, 'mind', 'data')).filter((m) => m.author === 'external');
      expect(said.map((m) => m.description)).toEqual(['hello there', 'and again']);
    },
    30_000,
  );
});
