/**
 * What the real Claude Code reads of the block `export-rules --inject` writes into CLAUDE.md:
 * the rules in words, never their internal keys (those ride in comments it drops), while
 * `import-claude-md`-style readers still find every key.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { learnedKeys } from '../core/rule-markers.js';
import { agentBin, agentVersion } from '../test-support/agents.js';
import { cli, tempDir } from '../test-support/cli.js';
import { startMessagesStub } from '../test-support/messages-stub.js';
import { hasAgent } from '../test-support/shared.js';

const KEY = 'pref:pkg=pnpm';
const bin = agentBin('claude');
const scratch = tempDir('homunculus-rule-files-');
afterAll(() => scratch.cleanup());

describe.runIf(hasAgent(bin, `claude ${agentVersion('claude')} reading CLAUDE.md`))('CLAUDE.md as Claude Code reads it', () => {
  it('gives the exported rule in words and none of its keys, which the block still holds', async () => {
    const home = join(scratch.path, 'home');
    const project = join(home, 'shop');
    const data = join(home, '.homunculus');
    mkdirSync(project, { recursive: true });
    spawnSync('git', ['init', '-q'], { cwd: project });
    expect(cli(data, ['observe', KEY, '--count', '12', '--explain', 'this shop installs with pnpm, never npm']).status).toBe(0);
    expect(cli(data, ['consolidate']).status).toBe(0);
    const exported = cli(data, ['export-rules', '--inject', join(project, 'CLAUDE.md'), '--project', '']);
    expect(exported.status, exported.stderr).toBe(0);
    const file = readFileSync(join(project, 'CLAUDE.md'), 'utf8');
    expect(learnedKeys(file)).toEqual([KEY]);

    const stub = await startMessagesStub(() => ({ text: 'ok' }));
    try {
      const child = spawn(bin as string, ['-p', 'hello', '--output-format', 'json'], {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
        env: {
          ...process.env,
          HOME: home,
          ANTHROPIC_BASE_URL: stub.baseUrl,
          ANTHROPIC_API_KEY: 'sk-ant-test-key',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        },
      });
      let out = '';
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const status = await new Promise((done) => child.on('close', done));
      expect(status, out.slice(-2000)).toBe(0);
      const sent = stub.requests.map((r) => r.raw).join('\n');
      // Booleans: a failure prints Claude Code's whole request otherwise.
      expect(sent.includes('this shop installs with pnpm, never npm'), 'the rule in words').toBe(true);
      expect(sent.includes(KEY), 'its key').toBe(false);
      expect(sent.includes('written by homunculus'), "the block's own note").toBe(false);
    } finally {
      await stub.close();
    }
  }, 150_000);
});
