/**
 * What the MCP server may write, through the official client and the built binary: only
 * the project's rule files, by name, never the store, .git or a file a link leads to.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';
import { type Connected, call, callError, connectStdio } from '../test-support/mcp.js';

let dir: ReturnType<typeof tempDir>;
let repo: string;
let store: string;
let mcp: Connected;

const fingerprint = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(async () => {
  dir = tempDir();
  repo = join(dir.path, 'repo');
  store = join(dir.path, 'store');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'packages', 'api'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/widget.git\n');
  mkdirSync(join(dir.path, 'elsewhere'));
  writeFileSync(join(dir.path, 'elsewhere', 'CLAUDE.md'), '# not this project\n');
  expect(cli(store, ['observe', 'pref:pkg=pnpm', '--count', '12', '--explain', 'use pnpm']).status).toBe(0);
  expect(cli(store, ['consolidate']).status).toBe(0);
  mcp = await connectStdio(store, repo);
});
afterAll(async () => {
  await mcp.close();
  dir.cleanup();
});

describe('inject_claude_md writes only rule files of the project', () => {
  it('says it writes files, and which tools delete or log', async () => {
    const { tools } = await mcp.client.listTools();
    const annotations = (name: string) => tools.find((t) => t.name === name)?.annotations;
    expect(annotations('inject_claude_md')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(annotations('alias_pattern')).toMatchObject({ destructiveHint: true });
    expect(annotations('suggest')).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('refuses the store, .git and any file that is not a rule file, and changes nothing', async () => {
    const db = join(store, 'homunculus.db');
    const before = { db: fingerprint(db), git: fingerprint(join(repo, '.git', 'config')) };
    const attempts = [db, '../store/homunculus.db', '.git/config', '.git/CLAUDE.md', 'package.json', '/etc/passwd', 'src/../CLAUDE.md'];
    for (const target of attempts) expect(await callError(mcp.client, 'inject_claude_md', { target }), target).toMatch(/not a rule file/);
    expect(fingerprint(db)).toBe(before.db);
    expect(fingerprint(join(repo, '.git', 'config'))).toBe(before.git);
    expect(await call(mcp.client, 'stats')).toMatchObject({ total: 1 });
  });

  it('refuses a rule file that is a link into the store, into .git or out of the project', async () => {
    const db = join(store, 'homunculus.db');
    const before = fingerprint(db);
    symlinkSync(db, join(repo, 'CLAUDE.md'));
    symlinkSync(join(repo, '.git', 'config'), join(repo, 'AGENTS.md'));
    symlinkSync(join(dir.path, 'elsewhere', 'CLAUDE.md'), join(repo, 'GEMINI.md'));
    symlinkSync(join(repo, '.git'), join(repo, 'docs'));
    expect(await callError(mcp.client, 'inject_claude_md', { target: 'CLAUDE.md' })).toMatch(/outside the project|not a rule file/);
    expect(await callError(mcp.client, 'inject_claude_md', { target: 'AGENTS.md' })).toMatch(/not a rule file/);
    expect(await callError(mcp.client, 'inject_claude_md', { target: 'GEMINI.md' })).toMatch(/outside the project/);
    expect(await callError(mcp.client, 'inject_claude_md', { target: 'docs/CLAUDE.md' })).toMatch(/\.git/);
    expect(fingerprint(db)).toBe(before);
    expect(readFileSync(join(dir.path, 'elsewhere', 'CLAUDE.md'), 'utf8')).toBe('# not this project\n');
  });

  it('writes a rule file anywhere in the project, in the format its name implies', async () => {
    expect(await call(mcp.client, 'inject_claude_md', { target: 'packages/api/AGENTS.md' })).toEqual({
      target: 'packages/api/AGENTS.md',
      rule_count: 1,
      changed: true,
    });
    const agents = readFileSync(join(repo, 'packages', 'api', 'AGENTS.md'), 'utf8');
    expect(agents).toContain('## Learned rules');
    expect(agents).toContain('`pref:pkg=pnpm`');
    expect(await call(mcp.client, 'inject_claude_md', { target: 'packages/api/AGENTS.md' })).toMatchObject({ changed: false });
    expect(await call(mcp.client, 'inject_claude_md', { target: '.cursorrules' })).toMatchObject({ changed: true });
    expect(readFileSync(join(repo, '.cursorrules'), 'utf8')).toContain('# Learned rules (Homunculus)');
    expect(await callError(mcp.client, 'inject_claude_md', { target: 'missing/CLAUDE.md' })).toMatch(/does not exist/);
  });
});

describe('the command line writes no store file and nothing in .git', () => {
  it('refuses export-rules --inject and export --out into the home or .git', () => {
    const db = join(store, 'homunculus.db');
    const before = fingerprint(db);
    const refused = [
      ['export-rules', '--inject', db],
      ['export-rules', '--inject', join(repo, '.git', 'config')],
      ['export-rules', '--inject', join(repo, 'CLAUDE.md')],
      ['export', '--out', db],
      ['export', '--out', join(store, 'config.json')],
      ['export', '--out', join(repo, '.git', 'instincts.tar.gz')],
    ];
    for (const args of refused) {
      const r = cli(store, args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/Refusing to write/);
    }
    expect(fingerprint(db)).toBe(before);
    expect(cli(store, ['export', '--out', join(store, 'exports', 'team.tar.gz')]).status).toBe(0);
    expect(cli(store, ['export-rules', '--inject', join(repo, 'NOTES.md')]).status).toBe(0);
  });
});
