/**
 * Secrets through the built binary, end to end: three sessions run a command holding a
 * secret through the hooks, a transcript holding others is imported by sync, then learn,
 * sync and export run. No byte of the home directory (the database with its full-text
 * indexes, sessions/, the readable view, logs) nor of the export's contents holds a secret.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../test-support/cli.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const AWS_SECRET = ['wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY'].join('');
const GHP = ['ghp_', 'Q9w8E7r6T5y4U3i2O1p0A9s8D7f6G5h4J3k2'].join('');
const PROMPT_PW = ['Sup3r', 'S3cret!pw'].join('');
const DOCKER_PW = ['dockerPw', '-7731x'].join('');
const TITLE_TOKEN = ['xoxb-', '112233445566-', '998877665544-', 'QwErTyUiOpAsDfGhJkLzXcVb'].join('');

/** What must never be found, whole or as the words a full-text index keeps (lower-cased). */
const NEEDLES = [AWS_SECRET, 'wJalrXUtnFEMI', 'bPxRfiCYEXAMPLEKEY', GHP, PROMPT_PW, 'Sup3rS3cret', DOCKER_PW, TITLE_TOKEN];

let dir: ReturnType<typeof tempDir>;
let home: string;
let agentHome: string;
beforeAll(() => {
  dir = tempDir('hom-secrets-');
  home = join(dir.path, 'homunculus');
  agentHome = join(dir.path, 'user');
  mkdirSync(join(dir.path, 'proj'), { recursive: true });
});
afterAll(() => dir.cleanup());

const env = () => ({ HOME: agentHome, HOMUNCULUS_NO_LEARN: '1', HOMUNCULUS_NOW: '2026-02-05T12:00:00Z' });

function hook(name: string, payload: Record<string, unknown>): void {
  const r = cli(home, ['hook', name], { input: JSON.stringify(payload), env: env() });
  expect(r.status).toBe(0);
}

/** One live session through the hooks, as Claude Code sends them. */
function liveSession(n: number): void {
  const base = { session_id: `live-${n}`, cwd: join(dir.path, 'proj'), timestamp: `2026-02-0${n}T10:00:00.000Z` };
  const bash = (id: string, command: string) => ({
    ...base,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_use_id: `${id}-${n}`,
    tool_input: { command, description: 'deploy' },
    tool_response: { stdout: 'ok', stderr: '', exit_code: 0 },
  });
  hook('start', { ...base, hook_event_name: 'SessionStart', source: 'startup' });
  hook('prompt', { ...base, hook_event_name: 'UserPromptSubmit', prompt: `deploy it; my password is ${PROMPT_PW}` });
  hook('observe', bash('aws', `aws configure set aws_secret_access_key ${AWS_SECRET} && make deploy`));
  hook('observe', bash('script', `./${GHP}.sh --verbose`));
  hook('observe', bash('docker', `docker login -u me -p ${DOCKER_PW} registry.example.com && make push`));
  hook('stop', { ...base, hook_event_name: 'SessionEnd', reason: 'exit' });
}

/** A Claude Code transcript for sync to import: a titled session whose prompt and command hold secrets. */
function writeTranscript(): void {
  const folder = join(agentHome, '.claude', 'projects', 'proj');
  mkdirSync(folder, { recursive: true });
  const rec = (o: Record<string, unknown>) =>
    JSON.stringify({ sessionId: 'imported-1', cwd: join(dir.path, 'proj'), timestamp: '2026-02-04T10:00:00.000Z', ...o });
  const lines = [
    JSON.stringify({ type: 'summary', summary: `Rotate Slack token ${TITLE_TOKEN}` }),
    rec({ type: 'user', message: { role: 'user', content: `the password is ${PROMPT_PW}, set it` } }),
    rec({
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 'tu-1', name: 'Bash', input: { command: `./${GHP}.sh && make deploy` } }] },
    }),
    rec({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'tu-1', content: 'done' }] } }),
  ];
  writeFileSync(join(folder, 'imported-1.jsonl'), `${lines.join('\n')}\n`);
}

/** Every file under a directory, recursively. */
function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The secrets found in some bytes, ignoring case (full-text indexes keep lower-cased words). */
const found = (bytes: Buffer): string[] => {
  const text = bytes.toString('latin1').toLowerCase();
  return NEEDLES.filter((n) => text.includes(n.toLowerCase()));
};

describe('secrets end to end through the binary', () => {
  it('never stores or exports a secret the hooks or a transcript carried', () => {
    for (const n of [1, 2, 3]) liveSession(n);
    writeTranscript();
    expect(cli(home, ['learn', '--json'], { env: env() }).status).toBe(0);
    const sync = cli(home, ['sync', '--json'], { env: env() });
    expect(sync.status).toBe(0);
    const out = join(home, 'exports', 'share.tar.gz');
    const exported = cli(home, ['export', '--out', out, '--json'], { env: env() });
    expect(exported.status).toBe(0);
    expect(JSON.parse(exported.stdout).instincts).toBeGreaterThan(0);

    const leaks = files(home).flatMap((f) => found(readFileSync(f)).map((n) => `${f}: ${n}`));
    expect(leaks).toEqual([]);
    // The export is compressed: look inside it, and check that no example left with it.
    const archive = gunzipSync(readFileSync(out));
    expect(found(archive)).toEqual([]);
    expect(archive.toString('utf8')).not.toContain('"examples"');
    expect(readdirSync(join(home, 'sessions'), { recursive: true }).length).toBeGreaterThan(0);
  });
});
