/** `homunculus agent init` and `agent audit` through the built binary, on a temporary home. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAudit } from '../agent/audit.js';
import { homePaths } from '../core/paths.js';
import { cli, tempDir } from '../test-support/cli.js';

describe('homunculus agent', () => {
  let dir: ReturnType<typeof tempDir>;
  let home: string;
  beforeEach(() => {
    dir = tempDir('homunculus-agent-cli-');
    home = join(dir.path, 'home');
  });
  afterEach(() => dir.cleanup());

  it('init scaffolds the workspace, says what it created, and never overwrites a file', () => {
    const first = cli(home, ['agent', 'init']);
    expect(first.status, first.stderr).toBe(0);
    const workspace = join(home, 'workspace');
    expect(first.stdout).toContain(`Created in ${workspace}:`);
    for (const item of [
      'AGENTS.md',
      'agents/default/SOUL.md',
      'agents/coder/SOUL.md',
      'agents/home/SOUL.md',
      'agents/researcher/SOUL.md',
      'agents/planner/SOUL.md',
      'skills/',
      'HEARTBEAT.md',
    ])
      expect(first.stdout).toContain(`  + ${item}`);
    expect(first.stdout).toMatch(/sandbox: /);
    // As root, commands drop to nobody, who cannot write a workspace root owns: init says so.
    expect(first.stdout.includes('commands can read it but not write it')).toBe(process.getuid?.() === 0);
    writeFileSync(join(workspace, 'HEARTBEAT.md'), 'my own checks');
    const again = cli(home, ['agent', 'init', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({
      workspace,
      created: [],
      existing: [
        'AGENTS.md',
        'agents/default/SOUL.md',
        'agents/coder/SOUL.md',
        'agents/home/SOUL.md',
        'agents/researcher/SOUL.md',
        'agents/planner/SOUL.md',
        'skills',
        'HEARTBEAT.md',
      ],
    });
    expect(readFileSync(join(workspace, 'HEARTBEAT.md'), 'utf8')).toBe('my own checks');
  });

  it('audit lists the log, and --verify names the line that was changed (exit 1)', () => {
    const log = homePaths(home).audit;
    expect(cli(home, ['agent', 'audit']).stdout).toContain('The audit log is empty');
    for (const tool of ['echo', 'workspace_list', 'shell_exec'])
      appendAudit(log, { action: 'tool_exec', session: 'cli-test', subject: tool, input: tool, output: 'ok', durationMs: 2 });
    const ok = cli(home, ['agent', 'audit', '--verify']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('3 entries');
    expect(ok.stdout).toMatch(/workspace_list\s+yes\s+cli-test/);
    expect(ok.stdout).toContain('✓ verified: 3 entries');
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[1] = (lines[1] as string).replace('workspace_list', 'workspace_read');
    writeFileSync(log, lines.join('\n'));
    const bad = cli(home, ['agent', 'audit', '--verify']);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('✗ line 2 was changed');
    const json = cli(home, ['agent', 'audit', '--verify', '--json', '--limit', '1']);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 3, entries: [{ seq: 3 }], verify: { ok: false, problems: [{ line: 2 }] } });
  });

  it('audit names a line that is not an entry instead of crashing, and --verify fails on it (exit 1)', () => {
    const log = homePaths(home).audit;
    appendAudit(log, { action: 'tool_exec', session: 'cli-test', subject: 'echo', input: 'a', output: 'ok', durationMs: 2 });
    appendFileSync(log, '{"bad":1}\nnot json\n');
    const list = cli(home, ['agent', 'audit']);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/echo\s+yes\s+cli-test/);
    expect(list.stdout).toContain('! line 2 is not an audit entry');
    expect(list.stdout).toContain('! line 3 is not JSON');
    const last = cli(home, ['agent', 'audit', '--limit', '1']);
    expect(last.stdout).toContain('the last 1:');
    expect(last.stdout).toContain('! line 3 is not JSON');
    const verify = cli(home, ['agent', 'audit', '--verify']);
    expect(verify.status, verify.stderr).toBe(1);
    expect(verify.stdout).toContain('✗ line 2 is not an audit entry');
    const json = JSON.parse(cli(home, ['agent', 'audit', '--json']).stdout) as { entries: unknown[]; skipped: unknown[] };
    expect(json.entries).toHaveLength(1);
    expect(json.skipped).toEqual([
      { line: 2, problem: 'line 2 is not an audit entry' },
      { line: 3, problem: 'line 3 is not JSON' },
    ]);
  });

  it('says the fix for a bad flag, and lists its commands in --help', () => {
    const bad = cli(home, ['agent', 'audit', '--limit', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 10000');
    expect(cli(home, ['agent', '--help']).stdout).toMatch(/init[\s\S]*audit/);
    expect(cli(home, ['--help']).stdout).toMatch(/Personal agent:\s+agent/);
  });
});
