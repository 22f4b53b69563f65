import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../core/paths.js';
import { type LoopHarness, loopHarness, stubModel } from '../../test-support/agent-loop.js';
import { type OllamaStub, startOllamaStub } from '../../test-support/ollama-stub.js';
import { type TestStore, testStore } from '../../test-support/store.js';
import type { AgentJob } from '../../store/schedule.js';
import { readAudit } from '../audit.js';
import type { Notification, Notifier } from '../notifier.js';
import type { AgentRunner, TurnRequest } from '../runner.js';
import { quietHoursSchema } from './config.js';
import { nextRunAfter } from './cron.js';
import { LogNotifier, NotificationQueue } from './notifications.js';
import { loadAgentConfig } from '../config.js';
import { Scheduler } from './scheduler.js';

/** A runner that answers each message with "done: <message>" and remembers what it was asked. */
function echoRunner(): AgentRunner & { asked: string[] } {
  const asked: string[] = [];
  const result = (r: TurnRequest) => ({
    session: r.session,
    text: `done: ${r.message}`,
    toolCalls: [],
    model: 'stub',
    route: 'local' as const,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  });
  return {
    asked,
    turn: (r) => (asked.push(r.message), Promise.resolve(result(r))),
    confirm: () => Promise.reject(new Error('nothing to confirm')),
  };
}

/** A notifier that collects what it delivers; it fails while `down` is true. */
function collector(): Notifier & { got: Notification[]; down: boolean } {
  const c = {
    got: [] as Notification[],
    down: false,
    notify: (n: Notification) => (c.down ? Promise.reject(new Error('offline')) : (c.got.push(n), Promise.resolve())),
  };
  return c;
}

const QUIET = quietHoursSchema.parse({ start: '22:00', end: '07:00', timeZone: 'Europe/Paris' });

let store: TestStore;
beforeEach(() => (store = testStore('2026-01-10T12:00:00.000Z')));
afterEach(() => store.cleanup());

const queue = (notifier: Notifier, perHour = 10) =>
  new NotificationQueue({ repo: store.schedule, notifier, clock: store.clock, quietHours: QUIET, limits: { perHour } });

function scheduler(
  runner: AgentRunner,
  notifier: Notifier,
  heartbeat = { enabled: false, every: '30m' },
  onFailure?: (f: Notification) => void,
): Scheduler {
  const paths = homePaths(store.paths.home);
  return new Scheduler({
    repo: store.schedule,
    runner,
    queue: queue(notifier),
    clock: store.clock,
    heartbeat,
    workspace: paths.workspace,
    auditLog: paths.audit,
    tickMs: 60_000,
    ...(onFailure ? { onFailure } : {}),
  });
}

function addJob(name: string, missed: AgentJob['missed'], nextRun: string, action: AgentJob['action'] = 'message'): AgentJob {
  return store.schedule.addJob({
    name,
    cron: '0 9 * * *',
    time_zone: 'Europe/Paris',
    action,
    message: action === 'message' ? `run ${name}` : '',
    missed,
    enabled: true,
    created_at: '2026-01-01T00:00:00.000Z',
    next_run: nextRun,
  });
}

const auditActions = () =>
  readAudit(homePaths(store.paths.home).audit).lines.map((l) => {
    const e = JSON.parse(l) as { action: string; subject?: string };
    return `${e.action} ${e.subject ?? ''}`.trim();
  });

describe('notifications', () => {
  it('holds one during quiet hours (in SQLite, across a restart) and delivers it once they end', async () => {
    store.setNow('2026-01-10T22:30:00.000Z'); // 23:30 in Paris
    const first = collector();
    expect(await queue(first).send({ source: 'job', text: 'night news' })).toBe('held');
    expect(first.got).toEqual([]);
    // A new queue on the same store (a restarted process) still holds it, and still waits.
    const after = collector();
    expect(await queue(after).flush()).toBe(0);
    store.setNow('2026-01-11T06:00:00.000Z'); // 07:00 in Paris: quiet hours over
    expect(await queue(after).flush()).toBe(1);
    expect(after.got).toEqual([{ source: 'job', text: 'night news' }]);
    expect(store.schedule.held()).toEqual([]);
  });

  it('sends at most perHour an hour, holding the rest until the hour has passed', async () => {
    const n = collector();
    const q = queue(n, 2);
    for (const text of ['a', 'b', 'c']) await q.send({ source: 's', text });
    expect(n.got.map((g) => g.text)).toEqual(['a', 'b']);
    expect(q.blocked()).toMatch(/rate limit: 2 sent/);
    store.setNow('2026-01-10T12:59:00.000Z');
    expect(await q.flush()).toBe(0);
    store.setNow('2026-01-10T13:00:01.000Z');
    expect(await q.flush()).toBe(1);
    expect(n.got.map((g) => g.text)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a notification the notifier failed to deliver, and sends it in order later', async () => {
    const n = collector();
    n.down = true;
    const q = queue(n);
    expect(await q.send({ source: 's', text: 'first' })).toBe('held');
    n.down = false;
    expect(await q.send({ source: 's', text: 'second' })).toBe('held'); // never overtakes an older one
    expect(await q.flush()).toBe(2);
    expect(n.got.map((g) => g.text)).toEqual(['first', 'second']);
  });
});

describe('Scheduler', () => {
  it('on start runs a missed run-once job once and skips a missed skip job; both logged', async () => {
    const runner = echoRunner();
    const n = collector();
    addJob('once', 'run-once', '2026-01-09T08:00:00.000Z');
    addJob('skip', 'skip', '2026-01-09T08:00:00.000Z');
    addJob('later', 'run-once', '2026-01-11T08:00:00.000Z');
    const s = scheduler(runner, n);
    await s.start();
    await s.stop();
    expect(runner.asked).toEqual(['run once']);
    expect(n.got).toEqual([{ source: 'once', text: 'done: run once' }]);
    const next = nextRunAfter('0 9 * * *', 'Europe/Paris', store.clock.now())?.toISOString();
    expect(next).toBe('2026-01-11T08:00:00.000Z');
    expect(store.schedule.job('once')).toMatchObject({ last_run: '2026-01-10T12:00:00.000Z', next_run: next });
    expect(store.schedule.job('skip')).toMatchObject({ last_run: null, next_run: next });
    expect(auditActions()).toEqual(['schedule_missed once: run-once', 'schedule_run once', 'schedule_missed skip: skip']);
  });

  it('stop() cancels a run in progress and waits for it; the cut run is not recorded, so the next start finds it missed', async () => {
    let asked = 0;
    const hanging: AgentRunner = {
      turn: (r) =>
        new Promise((_ok, fail) => {
          asked++;
          r.signal?.addEventListener('abort', () => fail(new Error('cancelled')));
        }),
      confirm: () => Promise.reject(new Error('nothing to confirm')),
    };
    addJob('slow', 'run-once', '2026-01-09T08:00:00.000Z');
    const s = scheduler(hanging, collector());
    const started = s.start();
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toBe(1);
    await s.stop();
    await started;
    expect(s.running).toBe(false);
    expect(store.schedule.job('slow')).toMatchObject({ last_run: null, next_run: '2026-01-09T08:00:00.000Z' });
    expect(auditActions()).toEqual(['schedule_missed slow: run-once']);
  });

  it('runs a job when it is due on a tick, then not again until its next time', async () => {
    const runner = echoRunner();
    addJob('daily', 'skip', '2026-01-11T08:00:00.000Z');
    const s = scheduler(runner, collector());
    await s.start();
    await s.tick();
    expect(runner.asked).toEqual([]);
    store.setNow('2026-01-11T08:00:00.000Z');
    await s.tick();
    await s.tick();
    expect(runner.asked).toEqual(['run daily']);
    expect(store.schedule.job('daily')?.next_run).toBe('2026-01-12T08:00:00.000Z');
    await s.stop();
    expect(s.running).toBe(false);
    store.setNow('2026-01-12T08:00:00.000Z');
    await s.tick(); // stopped: nothing runs any more
    expect(runner.asked).toEqual(['run daily']);
  });

  it('tells of a failed job at once, even in quiet hours when its notification waits, and audits the run as failed', async () => {
    store.setNow('2026-01-10T22:30:00.000Z'); // 23:30 in Paris
    const failing: AgentRunner = { ...echoRunner(), turn: () => Promise.reject(new Error('model down')) };
    const told: Notification[] = [];
    const n = collector();
    const job = addJob('news', 'skip', '2026-01-11T08:00:00.000Z');
    const results = await scheduler(failing, n, undefined, (f) => told.push(f)).run(job, 'due');
    expect(results).toEqual([{ source: 'news', text: 'The job failed: model down', failed: true }]);
    expect(told).toEqual(results);
    expect(n.got).toEqual([]);
    const runs = readAudit(homePaths(store.paths.home).audit).lines.map((l) => JSON.parse(l) as { action: string; ok: boolean });
    expect(runs.filter((e) => e.action === 'schedule_run').map((e) => e.ok)).toEqual([false]);
  });
});

describe('a heartbeat job, the log notifier and the config', () => {
  it('runs the tasks of HEARTBEAT.md when a job says heartbeat, each marked for the local route', async () => {
    const workspace = homePaths(store.paths.home).workspace;
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'HEARTBEAT.md'), '- Check the mail\n- Tidy notes/\n');
    const runner = echoRunner();
    const job = addJob('beat', 'skip', '2026-01-11T08:00:00.000Z', 'heartbeat');
    const results = await scheduler(runner, collector()).run(job, 'manual', false);
    expect(runner.asked).toEqual(['[heartbeat] Check the mail', '[heartbeat] Tidy notes/']);
    expect(results.map((r) => r.source)).toEqual(['beat: Check the mail', 'beat: Tidy notes/']);
  });

  it('without Telegram, logs each notification to the audit log (its hash) and prints its text', async () => {
    const lines: string[] = [];
    await new LogNotifier(homePaths(store.paths.home).audit, (l) => lines.push(l)).notify({ source: 'news', text: 'Hello' });
    expect(lines).toEqual(['[news] Hello\n']);
    expect(auditActions()).toEqual(['notification news']);
  });

  it('validates the scheduler keys of the agent config, naming the field', () => {
    const config = loadAgentConfig({});
    expect(config.heartbeat).toEqual({ enabled: true, every: '30m' });
    expect(config.notifications).toEqual({ perHour: 10 });
    expect(() => loadAgentConfig({ agent: { heartbeat: { every: '10s' } } })).toThrow(/agent\.heartbeat\.every must be an interval/);
    expect(() => loadAgentConfig({ agent: { quietHours: { start: '22h', end: '07:00' } } })).toThrow(
      /agent\.quietHours\.start must be a time/,
    );
  });
});

describe('heartbeat through the Ollama stub', () => {
  let ollama: OllamaStub;
  let agent: LoopHarness;
  beforeEach(async () => {
    ollama = await startOllamaStub((req) => ({ text: `checked: ${String(req.messages.at(-1)?.content)}` }));
    agent = loopHarness({ local: stubModel('ollama', ollama.baseUrl), remote: stubModel('anthropic', 'http://127.0.0.1:9') });
  });
  afterEach(async () => {
    agent.cleanup();
    await ollama.close();
  });

  it('sends each task of HEARTBEAT.md to the local model on its interval, results as notifications', async () => {
    const paths = homePaths(agent.home);
    writeFileSync(join(paths.workspace, 'HEARTBEAT.md'), '# Heartbeat\n\n- Check the mail\n- Summarise notes/\n');
    const n = collector();
    agent.store.setNow('2026-11-26T12:00:00.000Z');
    const s = new Scheduler({
      repo: agent.store.schedule,
      runner: agent.loop,
      queue: new NotificationQueue({ repo: agent.store.schedule, notifier: n, clock: agent.store.clock, limits: { perHour: 10 } }),
      clock: agent.store.clock,
      heartbeat: { enabled: true, every: '30m' },
      workspace: paths.workspace,
      auditLog: paths.audit,
      tickMs: 60_000,
    });
    await s.start();
    await s.tick();
    expect(ollama.requests).toHaveLength(0); // not due before its interval
    agent.store.setNow('2026-11-26T12:30:00.000Z');
    await s.tick();
    await s.stop();
    // Two tasks, each one local call, though a remote model is configured: the router's heartbeat row.
    expect(ollama.requests.map((r) => r.messages.at(-1)?.content)).toEqual(['[heartbeat] Check the mail', '[heartbeat] Summarise notes/']);
    expect(n.got).toEqual([
      { source: 'heartbeat: Check the mail', text: 'checked: [heartbeat] Check the mail' },
      { source: 'heartbeat: Summarise notes/', text: 'checked: [heartbeat] Summarise notes/' },
    ]);
  });
});
