/** Usage, help, JSON and bad input through the CLI's run(argv), in process. */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diskVerdict } from '../app/doctor.js';
import { openStore } from '../store/store.js';
import { rawDatabase } from '../store/testing.js';
import { cli, tempDir } from '../test-support/cli.js';
import { runCli, runCliJson } from '../test-support/run-cli.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => (home = tempDir()));
afterEach(() => home.cleanup());

const COMMANDS = [
  'init',
  'status',
  'observe',
  'list',
  'get',
  'search',
  'feedback',
  'evolve',
  'stats',
  'alias',
  'doctor',
  'import-files',
  'export',
  'import',
  'consolidate',
  'export-rules',
  'mcp',
];

describe('help and usage', () => {
  it('has --help for the program and every command', async () => {
    const top = await runCli(home.path, ['--help']);
    expect(top.status).toBe(0);
    for (const command of COMMANDS) {
      expect(top.stdout).toContain(command);
      const help = await runCli(home.path, [command, '--help']);
      expect(help.status, command).toBe(0);
      expect(help.stdout).toMatch(/Usage: homunculus/);
    }
  });

  it('says its version, as the package has it', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await runCli(home.path, [flag])).toMatchObject({ status: 0, stdout: `${version}\n` });
    for (const args of [
      ['--version', '--json'],
      ['--json', '-V'],
    ])
      expect(JSON.parse((await runCli(home.path, args)).stdout)).toEqual({ version });
  });

  it('exits 2 with a hint on usage errors', async () => {
    const cases: [string[], RegExp][] = [
      [['observe'], /missing required argument/],
      [['frobnicate'], /Unknown command "frobnicate"/],
      [['list', '--limit', '-1'], /--limit must be a whole number from 1 to 100000, got -1/],
      [['list', '--limit', 'ten'], /--limit must be a whole number/],
      [['list', '--category', 'cooking'], /--category must be one of sequence, preference, fix_pattern, combo, got "cooking"/],
      [['list', '--min-confidence', '5'], /--min-confidence is the 0-1 confidence score.*\n.*--min-evidence 5/],
      [['feedback', 'seq:x', 'meh'], /<verdict> must be one of wrong, weak, strong, got "meh"/],
      [['observe', 'not-a-key'], /does not follow the prefix:body convention/],
      [['observe', 'seq:x', '--count', '0'], /--count must be a whole number from 1 to 1000000, got 0/],
      [['search', '   '], /<query> must not be empty/],
      // An empty key names nothing: it is a usage error saying what to give, not "Not found: ".
      [['get', ''], /<pattern> must not be empty: give a pattern key such as "pref:pkg=pnpm"/],
      // A missing choice names the choices.
      [['mind', 'trigger'], /<loop> must be action, explore or reflect/],
      // A group without its subcommand shows what it takes, as a usage error.
      [['graph'], /Usage: homunculus graph \[options\] \[command\]/],
      [['status'], /HOMUNCULUS_NOW is not an ISO-8601 instant/],
    ];
    for (const [args, message] of cases) {
      const env = args[0] === 'status' ? { HOMUNCULUS_NOW: 'next tuesday' } : undefined;
      const result = await runCli(home.path, args, { env });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('reports an unknown key with exit 1 and a JSON error under --json', async () => {
    const result = await runCli(home.path, ['get', 'seq:nope', '--json']);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: 'Not found: seq:nope', code: 'not_found' });
  });

  it('says when observe files a pattern under a project no session knows (a typo shows there)', async () => {
    const fresh = tempDir();
    try {
      const r = await runCli(fresh.path, ['observe', 'pref:typo=x', '--project', 'clii']);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^Created pref:typo=x: .*\nUnknown project "clii"\. .* It was filed under "clii" as written\.\n$/);
      expect((await runCli(fresh.path, ['observe', 'pref:typo=y'])).stdout).not.toContain('Unknown project');
    } finally {
      fresh.cleanup();
    }
  });
});

describe('the store on disk', () => {
  it('init is idempotent and creates the readable layout', async () => {
    expect((await runCli(home.path, ['init'])).status).toBe(0);
    await runCliJson(home.path, ['observe', 'seq:a->b']);
    expect((await runCli(home.path, ['init'])).status).toBe(0);
    for (const p of [
      'homunculus.db',
      'convictions.md',
      'identity.json',
      'instincts/personal/seq-a-b.md',
      'sessions',
      'episodes',
      'exports',
    ]) {
      expect(existsSync(join(home.path, p)), p).toBe(true);
    }
    expect((await runCliJson<{ count: number }>(home.path, ['list'])).count).toBe(1);
    expect(JSON.parse(readFileSync(join(home.path, 'identity.json'), 'utf8'))).toMatchObject({ session_count: 0 });
  });

  it('never overwrites a corrupt database and says how to recover', async () => {
    const db = join(home.path, 'homunculus.db');
    writeFileSync(db, 'garbage'.repeat(100));
    for (const args of [['status'], ['observe', 'seq:a'], ['init']]) {
      const result = await runCli(home.path, args);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/not a readable SQLite database/);
      expect(result.stderr).toMatch(/fix: .*Move it aside/);
    }
    expect(readFileSync(db, 'utf8')).toBe('garbage'.repeat(100));
    const doctor = await runCli(home.path, ['doctor', '--json']);
    expect(doctor.status).toBe(1);
    expect(JSON.parse(doctor.stdout).checks).toContainEqual(expect.objectContaining({ name: 'database', status: 'fail' }));
  });

  it('doctor on a database damaged inside says how to save what it holds, once, in the database check', async () => {
    await runCli(home.path, ['init']);
    const store = openStore({ home: home.path });
    for (let i = 0; i < 3000; i++)
      store.observations.insert({
        source: 'claude-code',
        session_id: `s${i % 30}`,
        tool_use_id: `t${i}`,
        ts: new Date(i * 1000).toISOString(),
        input: 'x'.repeat(200),
      });
    store.close();
    const db = join(home.path, 'homunculus.db');
    const original = readFileSync(db);
    const bytes = Buffer.from(original);
    bytes.fill(0xa5, 16_384, bytes.length - 16_384);
    writeFileSync(db, bytes);
    const checks = JSON.parse((await runCli(home.path, ['doctor', '--json'])).stdout).checks as {
      name: string;
      status: string;
      fix?: string;
    }[];
    const database = checks.find((c) => c.name === 'database');
    expect(database).toMatchObject({ status: 'fail' });
    expect(database?.fix).toMatch(/\.recover.*move it aside and run .homunculus sync.: it brings back the instincts from their files/);
    expect(checks.map((c) => c.name)).not.toContain('check');
    for (const c of checks.filter((x) => x.name !== 'database' && x.status === 'fail')) expect(c.fix).toBe('See the database check above.');
    // Every command that hits a damaged page gives the same recipe, never "move it aside" (which threw away what it held).
    for (const args of [['status'], ['gc']]) {
      const r = await runCli(home.path, args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/is damaged \(SQLite: [\s\S]*fix: Nothing was changed\. Keep a copy .*\.recover \|/);
      expect(r.stderr).not.toMatch(/Move it aside/);
    }
    // Damaged a little, it still opens: the long jobs say so before they write anything (sync once wrote a learning run into it).
    const mild = Buffer.from(original);
    mild.fill(0xde, Math.floor(mild.length / 2), Math.floor(mild.length / 2) + 8_192);
    writeFileSync(db, mild);
    for (const args of [['sync', '--no-embed', '--no-progress'], ['learn']]) {
      const refused = await runCli(home.path, args);
      expect(refused.status, args.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(/is damaged \(integrity check: [\s\S]*fix: Nothing was changed/);
      // What it found, not SQLite's heading of it.
      expect(refused.stderr).not.toMatch(/\*\*\* in database/);
    }
    const said = JSON.parse((await runCli(home.path, ['doctor', '--json'])).stdout).checks as { name: string; detail: string }[];
    expect(said.find((c) => c.name === 'database')?.detail).toMatch(/^the database is damaged \(integrity check: (?!\*\*\*)\S/);
    expect(readFileSync(db).equals(mild)).toBe(true);
  });

  it('status says the verdict on a line: one marked wrong is not just faded', async () => {
    await runCliJson(home.path, ['observe', 'pref:pkg=pnpm', '--count', '6', '--explain', 'use pnpm']);
    await runCliJson(home.path, ['observe', 'pref:fmt=tabs', '--count', '6', '--explain', 'indent with tabs']);
    await runCliJson(home.path, ['promote', 'pref:fmt=tabs']);
    await runCliJson(home.path, ['feedback', 'pref:fmt=tabs', 'wrong']);
    const text = (await runCli(home.path, ['status'])).stdout;
    // Its conviction says so too: it is not given either.
    expect(text).toMatch(/^Convictions\n {2}- [^\n]*indent with tabs[^\n]* {2}\[marked wrong: not given to agents\]$/m);
    expect(text).toMatch(/pref:fmt=tabs, seen 6x\) {2}\[marked wrong: not given to agents\]$/m);
    // Listed apart, not among the faded ones that are still given.
    expect(text).toMatch(/\nMarked wrong: never given to an agent[^\n]*\n {2}\S+\n {4}0\.20 {2}[^\n]*pref:fmt=tabs/);
    expect(text).not.toMatch(/^Faded/m);
    expect(text).toMatch(/pref:pkg=pnpm, seen 6x\)$/m);
    expect((await runCli(home.path, ['get', 'pref:fmt=tabs'])).stdout).toMatch(/^ {2}marked wrong by the user: never given to an agent$/m);
    expect((await runCli(home.path, ['get', 'pref:pkg=pnpm'])).stdout).not.toMatch(/marked/);
  });

  it('get says where the hooks give an instinct, by project name, not a fingerprint', async () => {
    await runCliJson(home.path, ['observe', 'pref:pkg=pnpm', '--count', '3']);
    expect((await runCli(home.path, ['get', 'pref:pkg=pnpm'])).stdout).toMatch(/^ {2}project: {4}\(global\) {3}source/m);
    await runCliJson(home.path, ['observe', 'pref:fmt=tabs', '--count', '3', '--project', 'aaaaaaaaaaaaaaaa']);
    await runCliJson(home.path, ['observe', 'pref:fmt=tabs', '--project', 'bbbbbbbbbbbbbbbb']);
    const view = await runCliJson<{ project: string; given_in: unknown }>(home.path, ['get', 'pref:fmt=tabs']);
    expect(view.project).toBe('aaaaaaaaaaaaaaaa');
    expect(view.given_in).toEqual({
      global: false,
      projects: [
        { fingerprint: 'aaaaaaaaaaaaaaaa', name: 'aaaaaaaaaaaaaaaa' },
        { fingerprint: 'bbbbbbbbbbbbbbbb', name: 'bbbbbbbbbbbbbbbb' },
      ],
    });
    expect((await runCli(home.path, ['get', 'pref:fmt=tabs'])).stdout).toMatch(
      /^ {2}project: {4}given in aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb \(filed under aaaaaaaaaaaaaaaa\)/m,
    );
  });

  it('doctor passes on a healthy store', async () => {
    await runCli(home.path, ['init']);
    const report = await runCliJson<{ ok: boolean; checks: { name: string; status: string }[] }>(home.path, ['doctor']);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['node', 'home', 'config', 'database', 'fts5']));
  });

  it('doctor reports a config.json that is not JSON', async () => {
    await runCli(home.path, ['init']);
    writeFileSync(join(home.path, 'config.json'), '{ nope');
    const doctor = await runCli(home.path, ['doctor', '--json']);
    expect(doctor.status).toBe(1);
    expect(JSON.parse(doctor.stdout).checks).toContainEqual(expect.objectContaining({ name: 'config', status: 'fail' }));
    // Valid JSON is not enough: a section every query reads is checked, and a misspelt one named.
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ user: 5 }));
    const user = JSON.parse((await runCli(home.path, ['doctor', '--json'])).stdout) as { checks: { name: string; detail: string }[] };
    expect(user.checks).toContainEqual(
      expect.objectContaining({ name: 'config', status: 'fail', detail: expect.stringContaining('"user"') }),
    );
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ embeding: {} }));
    const typo = JSON.parse((await runCli(home.path, ['doctor', '--json'])).stdout) as { checks: { name: string }[] };
    expect(typo.checks).toContainEqual(
      expect.objectContaining({ name: 'config', status: 'warn', fix: expect.stringContaining('embedding, llm, agent, user, mcp') }),
    );
  });

  it('doctor fails a database from a newer homunculus, and a read-only one, saying the fix; judges free disk space', async () => {
    await runCli(home.path, ['init']);
    const store = openStore({ home: home.path });
    rawDatabase(store).pragma('user_version = 999');
    store.close();
    const newer = await runCli(home.path, ['doctor', '--json']);
    expect(newer.status).toBe(1);
    expect(JSON.parse(newer.stdout).checks).toContainEqual(
      expect.objectContaining({ name: 'database', status: 'fail', detail: expect.stringMatching(/schema 999 is newer/) }),
    );
    const fresh = tempDir();
    try {
      await runCli(fresh.path, ['init']);
      chmodSync(join(fresh.path, 'homunculus.db'), 0o444);
      chmodSync(fresh.path, 0o755);
      // Root ignores file modes: ask as nobody then.
      const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const readOnly = cli(fresh.path, ['doctor', '--json'], as);
      expect(readOnly.status).toBe(1);
      expect(JSON.parse(readOnly.stdout).checks).toContainEqual(
        expect.objectContaining({ name: 'database', status: 'fail', fix: expect.stringMatching(/chmod u\+w/) }),
      );
    } finally {
      chmodSync(join(fresh.path, 'homunculus.db'), 0o644);
      fresh.cleanup();
    }
    expect(diskVerdict(0, '/h')).toMatchObject({ status: 'fail', detail: 'the disk of /h is full' });
    expect(diskVerdict(10 * 1024 * 1024, '/h')).toMatchObject({ status: 'warn' });
    expect(diskVerdict(10 * 1024 ** 3, '/h')).toMatchObject({ status: 'ok' });
  });

  it('doctor says how to install the ONNX runtime when an onnx model is configured without it', async () => {
    await runCli(home.path, ['init']);
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ embedding: { provider: 'onnx', path: join(home.path, 'model') } }));
    const runtime = join(home.path, 'no-runtime');
    const doctor = await runCli(home.path, ['doctor', '--json'], { env: { HOMUNCULUS_RUNTIME: runtime } });
    expect(doctor.status).toBe(1);
    const check = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; fix: string }[] }).checks.find(
      (c) => c.name === 'embeddings',
    );
    expect(check).toMatchObject({ status: 'fail' });
    expect(check?.fix).toContain('homunculus embed --install-runtime');
    expect(check?.fix).toContain(runtime);
  });
});

describe('moving instincts in and out', () => {
  const instinctFile = (trigger: string, confidence: number, extra = '') =>
    `---\ntrigger: "${trigger}"\naction: "prefer pure functions with explicit inputs/outputs"\nconfidence: ${confidence}\ndomain: code-style\ncreated: 2026-02-01T14:30:00Z\nlast_seen: 2026-02-07T10:15:00Z\n${extra}---\n\n# Prefer Functional Style\n\n## Evidence\n\n- Observed 12 instances of functional pattern preference\n`;

  it('imports instinct files, skipping a malformed one by name', async () => {
    const dir = join(home.path, 'legacy');
    mkdirSync(dir);
    writeFileSync(join(dir, 'functional.md'), instinctFile('when writing new functions', 0.7));
    writeFileSync(join(dir, 'broken.md'), '---\ntrigger: [unclosed\n---\n');
    writeFileSync(join(dir, 'no-frontmatter.md'), '# just a note\n');
    writeFileSync(join(dir, 'bad-confidence.md'), instinctFile('x', 7));
    const result = await runCli(home.path, ['import-files', dir, '--json']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ imported: 1, raised: 0 });
    expect(report.skipped.map((s: { file: string }) => s.file.split('/').pop()).sort()).toEqual([
      'bad-confidence.md',
      'broken.md',
      'no-frontmatter.md',
    ]);
    expect(result.stderr).toMatch(/skipped .*broken\.md: invalid YAML/);
    const list = await runCliJson<{ instincts: { pattern: string; confidence: number; evidence: number; domain: string }[] }>(
      home.path,
      ['list'],
      {
        HOMUNCULUS_NOW: '2026-02-07T10:15:00Z',
      },
    );
    expect(list.instincts).toEqual([
      expect.objectContaining({ pattern: 'pref:prefer-functional-style', evidence: 12, confidence: 0.7, domain: 'code-style' }),
    ]);
    expect((await runCli(home.path, ['import-files', join(home.path, 'missing')])).status).toBe(2);
  });

  it('exports instincts only and merges them back without ever lowering', async () => {
    const env = { HOMUNCULUS_NOW: '2026-03-01T00:00:00Z' };
    for (let i = 0; i < 6; i++) await runCliJson(home.path, ['observe', 'fix:missing-import', '--explain', 'add the import'], env);
    await runCliJson(home.path, ['observe', 'seq:test->commit'], env);
    // The exports folder: anywhere else in the home is the store's, and export refuses it.
    const out = join(home.path, 'exports', 'share.tar.gz');
    expect((await runCliJson<{ instincts: number }>(home.path, ['export', '--out', out], env)).instincts).toBe(2);
    // A directory named as --out gets the archive inside it (it was "unexpected error: EISDIR").
    const into = await runCliJson<{ file: string }>(home.path, ['export', '--out', join(home.path, 'exports')], env);
    expect(into.file).toMatch(/exports\/instincts-2026-03-01T00-00-00-000Z\.tar\.gz$/);
    // A file there already is replaced only with --force: `--out notes.md` turned the user's notes into a tarball.
    const notes = join(home.path, 'exports', 'notes.md');
    writeFileSync(notes, '# my notes\n');
    const kept = await runCli(home.path, ['export', '--out', notes], { env });
    expect(kept.status).toBe(2);
    expect(kept.stderr).toMatch(/notes\.md exists already\.[\s\S]*--force/);
    expect(readFileSync(notes, 'utf8')).toBe('# my notes\n');
    expect((await runCliJson<{ instincts: number }>(home.path, ['export', '--out', notes, '--force'], env)).instincts).toBe(2);
    expect(readFileSync(notes).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    // What is there and no regular file is never replaced, --force or not: `--out /dev/full --force` made the device a gzip file.
    const pipe = join(home.path, 'exports', 'pipe.tar.gz');
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0);
    const refused = await runCli(home.path, ['export', '--out', pipe, '--force'], { env });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /pipe\.tar\.gz: it is a named pipe \(FIFO\), not a regular file, and writing would replace it[\s\S]*fix: /,
    );
    expect(lstatSync(pipe).isFIFO()).toBe(true);

    const other = tempDir();
    try {
      await runCliJson(other.path, ['observe', 'fix:missing-import', '--count', '9'], env);
      const merged = await runCliJson<{ imported: number; raised: number }>(other.path, ['import', out], env);
      expect(merged).toEqual({ imported: 1, raised: 1, unchanged: 0, skipped: [] });
      const fix = await runCliJson<{ confidence: number; evidence: number }>(other.path, ['get', 'fix:missing-import'], env);
      expect(fix.evidence).toBe(9);
      expect(fix.confidence).toBe(0.55);
      expect(await runCliJson(other.path, ['import', out], env)).toEqual({ imported: 0, raised: 0, unchanged: 2, skipped: [] });
      // No observation or session ever leaves the machine.
      const status = await runCliJson<{ observations: number }>(other.path, ['status'], env);
      expect(status.observations).toBe(0);
    } finally {
      other.cleanup();
    }

    writeFileSync(join(home.path, 'bad.tar.gz'), 'not a tarball');
    const bad = await runCli(home.path, ['import', join(home.path, 'bad.tar.gz')], { env });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/not a readable tarball|no manifest/);
    expect((await runCliJson<{ count: number }>(home.path, ['list'], env)).count).toBe(2);
  });
});

describe('export-rules', () => {
  /** One rule-level instinct (pnpm) and a project folder to inject it into. */
  const ruleAndProject = async () => {
    const env = { HOMUNCULUS_NOW: '2026-03-01T00:00:00Z' };
    await runCliJson(home.path, ['observe', 'pref:pkg=pnpm', '--count', '12', '--explain', 'use pnpm, never npm'], env);
    await runCliJson(home.path, ['consolidate'], env);
    return { env, project: tempDir() };
  };

  it('a rule marked wrong is named where it is still written, and the next export takes it out', async () => {
    const { env, project } = await ruleAndProject();
    const target = join(project.path, 'CLAUDE.md');
    writeFileSync(target, '# Shop\n\nOur own words.\n');
    expect((await runCli(home.path, ['export-rules', '--inject', target], { env })).stdout).toMatch(
      /^Updated .*CLAUDE\.md \(1 line, 1 rule\)/,
    );
    // Windsurf's file is not an agent Homunculus captures, but export-rules --inject writes it too.
    const windsurf = join(project.path, '.windsurfrules');
    expect((await runCli(home.path, ['export-rules', '--inject', windsurf], { env })).status).toBe(0);
    const marked = await runCli(home.path, ['feedback', 'pref:pkg=pnpm', 'wrong'], { env, cwd: project.path });
    expect(marked.stdout).toContain(
      'It is still written in CLAUDE.md, .windsurfrules, which the agent reads: `homunculus export-rules --inject CLAUDE.md` takes it out.',
    );
    expect((await runCli(home.path, ['export-rules', '--inject', windsurf], { env })).status).toBe(0);
    const taken = await runCli(home.path, ['export-rules', '--inject', target], { env });
    expect(taken.stdout).toMatch(/^Took the learned block out of .*CLAUDE\.md: no rule-level instinct for this project now/);
    expect(readFileSync(target, 'utf8')).toBe('# Shop\n\nOur own words.\n');
    // Asked elsewhere, or once it is out, nothing more is said.
    const again = await runCli(home.path, ['feedback', 'pref:pkg=pnpm', 'wrong'], { env, cwd: project.path });
    expect(again.stdout).not.toContain('still written');
    project.cleanup();
  });

  it('prints each format, injects idempotently, and refuses bad formats', async () => {
    const env = { HOMUNCULUS_NOW: '2026-03-01T00:00:00Z' };
    await runCliJson(home.path, ['observe', 'pref:pkg=pnpm', '--count', '12', '--explain', 'use pnpm, never npm'], env);
    expect((await runCli(home.path, ['export-rules'])).stdout).toBe('');
    await runCliJson(home.path, ['consolidate'], env);
    expect((await runCli(home.path, ['export-rules'])).stdout).toBe(
      '- use pnpm, never npm (seen 12 times)\n<!-- `pref:pkg=pnpm` (12) -->\n',
    );
    expect((await runCli(home.path, ['export-rules', '--format', 'agents-md'])).stdout).toMatch(/^# AGENTS\.md/);
    expect((await runCli(home.path, ['export-rules', '--format', 'cursorrules'])).stdout).toContain(
      'Preferences:\n- use pnpm, never npm (seen 12 times)',
    );
    expect((await runCli(home.path, ['export-rules', '--format', 'skill'])).stdout).toMatch(/^---\nname: instinct-rules\n/);
    // A project of its own: the home is the store's, and --inject refuses it.
    const project = tempDir();
    const target = join(project.path, 'AGENTS.md');
    writeFileSync(target, '# Agents\n');
    expect(await runCliJson(home.path, ['export-rules', '--format', 'agents-md', '--inject', target])).toMatchObject({
      changed: true,
      rule_count: 1,
    });
    // Without --format, AGENTS.md takes its own format (the command `feedback` names has none).
    expect(await runCliJson(home.path, ['export-rules', '--inject', target])).toMatchObject({ changed: false, format: 'agents-md' });
    expect(readFileSync(target, 'utf8')).toMatch(/^# Agents\n\n<!-- instinct:start -->/);
    // A rule reworded by hand inside the block is not lost to the next export: refused with the fix, replaced with --force.
    const edited = readFileSync(target, 'utf8').replace('never npm', 'never yarn');
    writeFileSync(target, edited);
    const refused = await runCli(home.path, ['export-rules', '--format', 'agents-md', '--inject', target]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/was edited by hand since Homunculus wrote it[\s\S]*homunculus edit <key>/);
    expect(readFileSync(target, 'utf8')).toBe(edited);
    const forced = ['export-rules', '--format', 'agents-md', '--inject', target, '--force'];
    expect(await runCliJson(home.path, forced)).toMatchObject({ changed: true });
    expect(readFileSync(target, 'utf8')).toContain('never npm');
    const bad = await runCli(home.path, ['export-rules', '--format', 'emacs']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of claude-md, agents-md/);
    expect((await runCli(home.path, ['export-rules', '--format', 'skill', '--inject', target])).status).toBe(2);
    // Not a rule file nor markdown: the block would break it.
    const pkg = join(project.path, 'package.json');
    writeFileSync(pkg, '{"name":"x"}\n');
    const intoJson = await runCli(home.path, ['export-rules', '--inject', pkg]);
    expect(intoJson.status).toBe(2);
    expect(intoJson.stderr).toContain('is not a rule file nor a markdown or text file');
    expect(readFileSync(pkg, 'utf8')).toBe('{"name":"x"}\n');
    // Another repository's rules stay out of this one's file; --project names it.
    const other = 'aaaaaaaaaaaaaaaa';
    await runCliJson(
      home.path,
      ['observe', 'pref:api=gh', '--count', '12', '--explain', 'answer PRs with gh api', '--project', other],
      env,
    );
    await runCliJson(home.path, ['consolidate'], env);
    expect((await runCli(home.path, ['export-rules'], { cwd: project.path })).stdout).not.toContain('gh api');
    expect((await runCli(home.path, ['export-rules', '--project', other])).stdout).toContain('answer PRs with gh api');
    expect((await runCli(home.path, ['export-rules', '--project', 'nope'])).stderr).toMatch(/Unknown project "nope"/);
    project.cleanup();
  });

  it('--inject into a file the disk will not let it write exits 1 with the fix; exit 2 stays for wrong arguments', async () => {
    const { env, project } = await ruleAndProject();
    const readOnly = join(project.path, 'CLAUDE.md');
    writeFileSync(readOnly, '# Mine\n');
    chmodSync(readOnly, 0o444);
    const refused = await runCli(home.path, ['export-rules', '--inject', readOnly], { env });
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringMatching(/is read-only\.\n {2}fix: Make it writable \(chmod u\+w/)]);
    const noFolder = await runCli(home.path, ['export-rules', '--inject', 'nodir/sub/AGENTS.md'], { env, cwd: project.path });
    expect([noFolder.status, noFolder.stderr]).toEqual([
      1,
      expect.stringMatching(/folder of .*nodir\/sub\/AGENTS\.md does not exist[\s\S]*mkdir -p/),
    ]);
    const aFile = join(project.path, 'notes');
    writeFileSync(aFile, 'a file\n');
    const throughFile = await runCli(home.path, ['export-rules', '--inject', join(aFile, 'CLAUDE.md')], { env });
    expect(throughFile.status).toBe(1);
    expect(throughFile.stderr).toBe(
      `homunculus: Cannot use ${join(aFile, 'CLAUDE.md')}: ${aFile} is a file, not a folder.\n  fix: Name a path in a folder that exists, or move ${aFile} aside.\n`,
    );
    project.cleanup();
  });
});
