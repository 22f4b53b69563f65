/** `homunculus agent schedule add|list|remove|run` and the scheduler inside `agent serve`, through the built binary. */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STUB_ENV, stubModel } from '../test-support/agent-loop.js';
import { BIN, cli, cliEnv, cliJson, runNode, tempDir } from '../test-support/cli.js';
import { exited } from '../test-support/dashboard.js';
import { type OllamaStub, ollamaOneToolCall, startOllamaStub } from '../test-support/ollama-stub.js';
import { openStore } from '../store/store.js';

interface Job {
  name: string;
  time_zone: string;
  next_run: string | null;
  last_run: string | null;
}

describe('homunculus agent schedule', () => {
  let dir: ReturnType<typeof tempDir>;
  let home: string;
  let ollama: OllamaStub;
  beforeEach(async () => {
    dir = tempDir('homunculus-schedule-cli-');
    home = join(dir.path, 'home');
    ollama = await startOllamaStub((req) => ({ text: `answered: ${String(req.messages.at(-1)?.content)}` }));
    expect(cli(home, ['agent', 'init']).status).toBe(0);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
  });
  afterEach(async () => {
    await ollama.close();
    dir.cleanup();
  });

  const at = (now: string) => ({ HOMUNCULUS_NOW: now, ...STUB_ENV });
  const add = (name: string, extra: string[], now = '2026-01-10T12:00:00Z') =>
    cli(home, ['agent', 'schedule', 'add', name, ...extra], { env: at(now) });

  // Each step is a process of its own (a few seconds each on a loaded machine): two tests, each with room.
  it('refuses a bad cron expression or zone, a missing message and a bad name, each with an example', () => {
    const badCron = add('x', ['--cron', '61 9 * * *', '--message', 'hi']);
    expect(badCron.status).toBe(2);
    expect(badCron.stderr).toMatch(/not valid.*minute/);
    expect(badCron.stderr).toContain('agent schedule add news --cron "0 8 * * *"');
    const badZone = add('x', ['--cron', '0 9 * * *', '--time-zone', 'Mars/Base', '--message', 'hi']);
    expect(badZone.status).toBe(2);
    expect(badZone.stderr).toMatch(/not an IANA time zone/);
    expect(add('x', ['--cron', '0 9 * * *']).stderr).toContain(
      'homunculus: --message is missing: give the message the agent is asked each run (--message "Summarise the news"), or --heartbeat',
    );
    expect(add('x', ['--cron', '0 9 * * *', '--message', 'hi', '--heartbeat']).stderr).toContain('--heartbeat cannot go with --message');
    const badName = add('bad name!', ['--cron', '0 9 * * *', '--message', 'hi']);
    expect(badName.stderr).toContain('The job name must be 1-64 letters');
    expect(badName.stderr).not.toContain('--name');
    const badMissed = add('x', ['--cron', '0 9 * * *', '--message', 'hi', '--missed', 'bogus']);
    expect(badMissed.status).toBe(2);
    expect(badMissed.stderr).toContain('homunculus: --missed must be one of run-once, skip, got "bogus"');
    const sixFields = add('x', ['--cron', '0 0 8 * * *', '--message', 'hi']);
    expect(sixFields.status).toBe(2);
    expect(sixFields.stderr).toMatch(/not valid \(it has 6 fields\)\. Use five fields/);
    expect(cliJson<Job[]>(home, ['agent', 'schedule', 'list'])).toEqual([]);
  }, 120_000);

  it('adds, lists, runs now, disables, enables and removes a job', async () => {
    const job = JSON.parse(
      add('news', ['--cron', '0 9 * * *', '--time-zone', 'Europe/Paris', '--message', 'the news', '--json']).stdout,
    ) as Job;
    expect(job).toMatchObject({ name: 'news', time_zone: 'Europe/Paris', next_run: '2026-01-11T08:00:00.000Z', last_run: null });
    expect(add('news', ['--cron', '0 9 * * *', '--message', 'again']).stderr).toMatch(/exists already/);
    expect(cliJson<Job[]>(home, ['agent', 'schedule', 'list']).map((j) => j.name)).toEqual(['news']);
    // agent status shows the scheduler too.
    expect(cliJson<{ schedule: unknown }>(home, ['agent', 'status']).schedule).toEqual({
      jobs: 1,
      next: { name: 'news', at: '2026-01-11T08:00:00.000Z' },
      held: 0,
    });

    const ran = await runNode([BIN, 'agent', 'schedule', 'run', 'news', '--json'], cliEnv(home, at('2026-01-10T12:30:00Z')));
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ job: 'news', results: [{ source: 'news', text: 'answered: the news' }] });
    expect(cliJson<Job[]>(home, ['agent', 'schedule', 'list'])[0]?.last_run).toBe('2026-01-10T12:30:00.000Z');

    // Off: kept, not due; on again: due as before.
    expect(cli(home, ['agent', 'schedule', 'disable', 'news']).stdout).toContain('Disabled news.');
    expect(cliJson<Job[]>(home, ['agent', 'schedule', 'list'])[0]).toMatchObject({ name: 'news', enabled: false, next_run: null });
    expect(cli(home, ['agent', 'schedule', 'list']).stdout).toMatch(/news .* disabled +message: the news/);
    expect(cliJson<{ schedule: { next: unknown } }>(home, ['agent', 'status']).schedule.next).toBeNull();
    expect(cli(home, ['agent', 'schedule', 'enable', 'news'], { env: at('2026-01-10T13:00:00Z') }).stdout).toContain(
      'Enabled news. Next run: 2026-01-11T08:00:00.000Z.',
    );
    expect(cliJson<{ schedule: { next: { name: string } } }>(home, ['agent', 'status']).schedule.next.name).toBe('news');
    expect(cliJson<Job[]>(home, ['agent', 'schedule', 'list'])[0]?.next_run).toBe('2026-01-11T08:00:00.000Z');
    expect(cli(home, ['agent', 'schedule', 'disable', 'nope']).stderr).toContain('agent schedule list');
    expect(cli(home, ['agent', 'schedule', 'remove', 'news']).stdout).toContain('Removed news.');
    // A job that is not there is not found (exit 1, code not_found), as elsewhere, not a usage error.
    const gone = cli(home, ['agent', 'schedule', 'remove', 'news']);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain('agent schedule list');
    const nosuch = cli(home, ['agent', 'schedule', 'run', 'nosuch', '--json']);
    expect(nosuch.status).toBe(1);
    expect(JSON.parse(nosuch.stdout)).toMatchObject({ error: 'Not found: no scheduled job is named "nosuch"', code: 'not_found' });
  }, 120_000);

  it('exits 1 when the job run now fails, saying why, and the audit log records it as failed', async () => {
    await ollama.close();
    ollama = await startOllamaStub(() => ({ status: 500, error: 'model crashed' }));
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
    expect(add('news', ['--cron', '0 9 * * *', '--message', 'the news']).status).toBe(0);
    const ran = await runNode([BIN, 'agent', 'schedule', 'run', 'news'], cliEnv(home, at('2026-01-10T12:30:00Z')));
    expect(ran.status, ran.stderr).toBe(1);
    expect(ran.stdout).toMatch(/^\[news\] The job failed: .*model crashed/);
    const audit = cliJson<{ entries: { action: string; ok: boolean }[] }>(home, ['agent', 'audit', '--limit', '10']);
    expect(audit.entries.find((e) => e.action === 'schedule_run')?.ok).toBe(false);
  }, 60_000);

  it("a job whose tool call needs a yes fails (nobody was there), tells the model so, and its message is not learned as the user's words", async () => {
    await ollama.close();
    ollama = await startOllamaStub(
      ollamaOneToolCall({ name: 'workspace_write', input: { path: 'notes/a.md', content: 'hi' } }, 'Could not write.'),
    );
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
    expect(add('writer', ['--cron', '0 9 * * *', '--message', 'please write the file']).status).toBe(0);
    const ran = await runNode([BIN, 'agent', 'schedule', 'run', 'writer'], cliEnv(home, at('2026-01-10T12:30:00Z')));
    expect(ran.status, ran.stderr).toBe(1);
    expect(ran.stdout).toContain('[workspace_write needs a yes and nobody was there to give it: not run]');
    const told = ollama.requests.at(-1)?.messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(told).toContain('a scheduled run, with nobody there to say yes');
    expect(told).not.toContain('declined by the person');
    const store = openStore({ home });
    try {
      const events = store.observations.forSession('scheduler/writer').map((o) => o.event);
      expect(events).not.toContain('prompt');
    } finally {
      store.close();
    }
  }, 60_000);

  it('says there is nothing to do when a heartbeat job runs with no tasks in HEARTBEAT.md', async () => {
    expect(add('beat', ['--cron', '*/30 8-20 * * *', '--heartbeat']).status).toBe(0);
    const ran = await runNode([BIN, 'agent', 'schedule', 'run', 'beat'], cliEnv(home, at('2026-01-10T12:30:00Z')));
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^Nothing to do: workspace\/HEARTBEAT\.md has no tasks/);
    expect(ollama.requests).toHaveLength(0);
  }, 60_000);

  it('agent serve settles missed runs by policy (logged), delivers the result, and exits 0 on SIGTERM with nothing left running', async () => {
    expect(add('morning', ['--cron', '0 9 * * *', '--time-zone', 'Europe/Paris', '--message', 'morning check']).status).toBe(0);
    expect(
      add('evening', ['--cron', '0 18 * * *', '--time-zone', 'Europe/Paris', '--message', 'evening check', '--missed', 'skip']).status,
    ).toBe(0);
    expect(cli(home, ['agent', 'token']).status).toBe(0);
    // Two days later: both runs were missed while nothing served.
    const child = spawn(process.execPath, [BIN, 'agent', 'serve', '--port', '0', '--json'], {
      env: cliEnv(home, at('2026-01-12T12:00:00Z')),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    for (let i = 0; i < 400 && !out.includes('[morning]'); i++) await new Promise((r) => setTimeout(r, 50));
    const code = exited(child);
    child.kill('SIGTERM');
    expect(await code).toBe(0);
    expect(out).toContain('[morning] answered: morning check');
    expect(out).not.toContain('evening check');
    expect(ollama.requests).toHaveLength(1);
    const jobs = cliJson<Job[]>(home, ['agent', 'schedule', 'list']);
    expect(jobs.map((j) => [j.name, j.last_run, j.next_run])).toEqual([
      ['evening', null, '2026-01-12T17:00:00.000Z'],
      ['morning', '2026-01-12T12:00:00.000Z', '2026-01-13T08:00:00.000Z'],
    ]);
    const audit = cliJson<{ entries: { action: string; subject?: string }[] }>(home, ['agent', 'audit', '--limit', '100']);
    const actions = audit.entries.map((e) => `${e.action} ${e.subject ?? ''}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'schedule_missed morning: run-once',
        'schedule_run morning',
        'notification morning',
        'schedule_missed evening: skip',
      ]),
    );
    expect(actions).not.toContain('schedule_run evening');
  }, 60_000);
});
