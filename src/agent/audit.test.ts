import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runNode, tempDir } from '../test-support/cli.js';
import { appendAudit, isoMicro, parseEntry, readAudit, shortHash, verifyAudit } from './audit.js';

describe('the audit log', () => {
  let dir: ReturnType<typeof tempDir>;
  let log: string;
  beforeEach(() => {
    dir = tempDir('homunculus-audit-');
    log = join(dir.path, 'logs', 'agent-audit.jsonl');
  });
  afterEach(() => dir.cleanup());

  const write = (n: number): void => {
    for (let i = 1; i <= n; i++)
      appendAudit(log, {
        action: i % 2 ? 'tool_exec' : 'completion',
        session: 's1',
        subject: 'echo',
        input: { text: `secret input ${i}` },
        output: `output ${i}`,
        tokens: { input: 10 * i, output: i },
        durationMs: 1.5 * i,
      });
  };
  const lines = (): string[] => readFileSync(log, 'utf8').trimEnd().split('\n');
  const save = (ls: readonly string[]): void => writeFileSync(log, `${ls.join('\n')}\n`);

  it('writes one chained JSON line per action, storing hashes of inputs and outputs, never the text', () => {
    write(3);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain('secret input');
    const entries = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(entries[0]).toMatchObject({ action: 'tool_exec', session: 's1', subject: 'echo', ok: true, tokens: { input: 10, output: 1 } });
    expect(entries[0]?.input_sha).toBe(shortHash({ text: 'secret input 1' }));
    expect(entries[0]?.output_sha).toMatch(/^[0-9a-f]{16}$/);
    expect(entries[1]?.prev).toBe(entries[0]?.hash);
    expect(entries[0]?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(verifyAudit(log)).toEqual({ ok: true, entries: 3, problems: [] });
  });

  it('keeps microseconds', () => {
    expect(isoMicro(Date.UTC(2026, 10, 26, 7, 14, 44, 123) + 0.456)).toBe('2026-11-26T07:14:44.123456Z');
  });

  it('reads a line as an entry, or says why it is not one', () => {
    write(1);
    expect(parseEntry(lines()[0] as string)).toMatchObject({ seq: 1, action: 'tool_exec' });
    expect(parseEntry('{"bad":1}')).toBe('is not an audit entry');
    expect(parseEntry('[]')).toBe('is not an audit entry');
    expect(parseEntry('null')).toBe('is not an audit entry');
    expect(parseEntry('xx')).toBe('is not JSON');
  });

  it('names a changed line', () => {
    write(5);
    const ls = lines();
    ls[2] = (ls[2] as string).replace('"session":"s1"', '"session":"s2"');
    save(ls);
    expect(verifyAudit(log)).toMatchObject({ ok: false, problems: [{ line: 3, problem: expect.stringContaining('was changed') }] });
    ls[2] = '{not json';
    save(ls);
    expect(verifyAudit(log).problems[0]).toMatchObject({ line: 3, problem: expect.stringContaining('not JSON') });
  });

  it('names where a line was removed, in the middle and at the end', () => {
    write(5);
    const ls = lines();
    save([...ls.slice(0, 1), ...ls.slice(2)]);
    expect(verifyAudit(log).problems[0]).toMatchObject({ line: 2, problem: expect.stringContaining('removed') });
    save(ls.slice(0, 4));
    expect(verifyAudit(log).problems[0]).toMatchObject({ line: 5, problem: expect.stringContaining('last line was removed') });
  });

  it('names an inserted line, even one with a valid hash of its own', () => {
    write(4);
    const ls = lines();
    save([...ls.slice(0, 2), ls[1] as string, ...ls.slice(2)]);
    expect(verifyAudit(log).problems[0]).toMatchObject({ line: 3, problem: expect.stringContaining('inserted') });
    // A forged entry 3 chained to entry 2: the real entry 3 no longer follows it.
    const forged = JSON.parse(ls[2] as string) as Record<string, unknown>;
    save([...ls.slice(0, 2), JSON.stringify({ ...forged, session: 'forged' }), ...ls.slice(2)]);
    expect(verifyAudit(log).problems[0]?.line).toBe(3);
  });

  it('notices a log whose head file is gone, and continues the chain after a reopen', () => {
    write(2);
    writeFileSync(`${log}.head`, 'garbage');
    expect(verifyAudit(log).problems[0]?.problem).toContain('head file');
    write(1);
    expect(verifyAudit(log).ok).toBe(true);
    expect(readAudit(log).lines).toHaveLength(3);
  });

  it('stays one valid chain when processes append at once (the lock)', async () => {
    const script = join(dir.path, 'append.mjs');
    // The build of this module (the test setup builds dist/ when src/ is newer).
    const module = join(REPO_ROOT, 'dist', 'agent', 'audit.js');
    writeFileSync(
      script,
      `const { appendAudit } = await import(${JSON.stringify(module)});
       for (let i = 0; i < 25; i++) appendAudit(${JSON.stringify(log)}, { action: 'tool_exec', session: process.argv[2], input: i, output: i, durationMs: 1 });`,
    );
    const results = await Promise.all(['a', 'b', 'c'].map((s) => runNode([script, s], process.env)));
    for (const r of results) expect(r.status, r.stderr).toBe(0);
    expect(verifyAudit(log)).toEqual({ ok: true, entries: 75, problems: [] });
  });
});
