/** The hook process as agents run it: what it loads, and how bin.ts reaches it. */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, tempDir } from '../test-support/cli.js';

const dir = tempDir('hom-hookproc-');
afterAll(() => dir.cleanup());

const tool = JSON.stringify({
  session_id: 's',
  cwd: dir.path,
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'make' },
  tool_use_id: 't',
});

/** The better-sqlite3 files a hook process had loaded when it exited. */
function sqliteLoaded(hook: string, home: string): string[] {
  const probe = join(dir.path, 'probe.cjs');
  const out = join(dir.path, `${hook}-loaded.json`);
  writeFileSync(
    probe,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('better-sqlite3')))));`,
  );
  const r = spawnSync(process.execPath, ['--require', probe, BIN, 'hook', hook], {
    input: tool,
    env: cliEnv(home, { HOMUNCULUS_NO_LEARN: '1' }),
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as string[];
}

describe('the hook process', () => {
  it('observe never loads SQLite (it only spools); the other hooks do', () => {
    const home = join(dir.path, 'home');
    expect(sqliteLoaded('observe', home)).toEqual([]);
    expect(readdirSync(join(home, 'spool')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
    expect(sqliteLoaded('stop', home).length).toBeGreaterThan(0);
    expect(readdirSync(join(home, 'spool'))).toEqual([]);
  });

  it('is reached after global options too, and documented in the command line help', () => {
    const home = join(dir.path, 'elsewhere');
    const r = cli(join(dir.path, 'unused'), ['--home', home, 'hook', 'observe'], { input: tool });
    expect(r.status).toBe(0);
    expect(readdirSync(join(home, 'spool'))).toHaveLength(1);
    expect(cli(home, ['hook', '--help']).stdout).toMatch(/^Usage: homunculus hook EVENT/);
    expect(cli(home, ['help', 'hook']).stdout).toContain('Usage: homunculus hook EVENT');
  });
});
