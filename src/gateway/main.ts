/**
 * The gateway process: `homunculus agent serve [--port N] [--home DIR] [--json]`, reached
 * from bin.ts without the command-line framework. It serves on 127.0.0.1 until SIGINT or
 * SIGTERM, then answers 'no' to every held confirmation, lets requests in flight finish (30 s
 * at most; a second Ctrl-C stops at once), closes every connection and the
 * store, removes its state file, and exits: it never leaves a process behind.
 */
import { join } from 'node:path';
import { clearGatewayState, readGatewayState, writeGatewayState } from '../agent/gateway-state.js';
import { loadToolSettings } from '../agent/tool-config.js';
import { loadConfig } from '../core/config.js';
import { missingTokenReason } from '../agent/gateway-token.js';
import { builtinRegistry } from '../agent/tools/builtin.js';
import { toolAvailable } from '../agent/tools/mqtt.js';
import { UsageError } from '../core/errors.js';
import { portFlag, flagsMain } from '../core/flags.js';
import { acquireLock, lockHolder } from '../core/lock.js';
import { type HomePaths, homePaths, resolveHome } from '../core/paths.js';
import { openAgent } from '../app/agent-brain.js';
import { openScheduler } from '../app/agent-schedule.js';
import { openStore } from '../store/store.js';
import { startTelegram } from '../telegram/main.js';
import { GRACE_MS, LOOPBACK, assertLoopback, startGateway } from './server.js';
import { counted } from '../core/text.js';

const USAGE = `Usage: homunculus agent serve [--port <n>] [--home <dir>] [--json]

Serves the personal agent's HTTP gateway on http://${LOOPBACK}:<port> (never another address):
GET /health, GET /api/v1/status, POST /api/v1/chat {message, session?} and
POST /api/v1/confirm {id, answer: "yes"|"no"}. Every /api route needs
Authorization: Bearer <token> (\`homunculus agent token\` makes one). When config.json has
agent.telegram, the Telegram bot runs beside it on the same agent. Ctrl-C stops both.

Options:
  --port <n>    port on ${LOOPBACK}; 0 picks a free one (default: config.json agent.gateway.port, else 7423)
  --host <a>    only ${LOOPBACK} is served; any other address is refused
  --home <dir>  data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)
  --json        print {"url", "port", "pid"} as one JSON line
  -h, --help    display this help
`;

async function serve(f: Record<string, string | true>): Promise<void> {
  assertLoopback(typeof f.host === 'string' ? f.host : LOOPBACK);
  const paths = homePaths(resolveHome(typeof f.home === 'string' ? f.home : undefined));
  const settings = loadToolSettings(loadConfig(paths.config));
  const port = typeof f.port === 'string' ? portFlag(f.port) : settings.gateway.port;
  const missing = missingTokenReason(paths.agentToken);
  if (missing) throw new UsageError(`Nobody could use the gateway: ${missing}.`, 'Then serve again.');
  const release = oneGatewayPerHome(paths);
  try {
    await serveLocked(f, paths, { port, settings });
  } finally {
    release();
  }
}

/**
 * One gateway per home: a second would run every scheduled job twice and take the first one's
 * gateway.json. Held by a lock whose process is checked, so a killed gateway does not block the next.
 */
function oneGatewayPerHome(paths: HomePaths): () => void {
  const lock = join(paths.locks, 'gateway.lock');
  const release = acquireLock(lock, { staleMs: Number.MAX_SAFE_INTEGER });
  if (release) return release;
  const other = readGatewayState(paths.gatewayState);
  const pid = lockHolder(lock, { staleMs: Number.MAX_SAFE_INTEGER }) ?? other?.pid;
  throw new UsageError(
    `A gateway already serves this home${pid ? ` (process ${pid}${other?.url ? ` on ${other.url}` : ''})` : ''}: a second would run every scheduled job twice.`,
    `Use that one, or stop it first${pid ? ` (kill ${pid})` : ''}; a gateway for another home needs --home.`,
  );
}

async function serveLocked(
  f: Record<string, string | true>,
  paths: HomePaths,
  { port, settings }: { port: number; settings: ReturnType<typeof loadToolSettings> },
): Promise<void> {
  const registry = builtinRegistry();
  const store = openStore({ home: paths.home });
  let handle: Awaited<ReturnType<typeof startGateway>>;
  let telegram: Awaited<ReturnType<typeof startTelegram>>;
  let scheduler: ReturnType<typeof openScheduler>['scheduler'];
  // The agents themselves (one worker thread each): models, router, budget, prompt and tools, on this store.
  const agent = openAgent({ store, env: process.env });
  try {
    handle = await startGateway({
      runner: agent.runner,
      tokenPath: paths.agentToken,
      port,
      rate: settings.gateway.rate,
      // Only the tools the agent is offered: the MQTT ones need agent.mqtt.
      tools: () =>
        registry
          .list()
          .map((t) => t.name)
          .filter((name) => toolAvailable(name, settings)),
    });
    // The Telegram bot on the same agent, when config.json has agent.telegram.
    telegram = await startTelegram({ store, env: process.env }, agent).catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    // The scheduler (jobs, heartbeat, notifications: to Telegram when it runs, else the log);
    // not awaited, so a signal during its start-up still stops everything.
    ({ scheduler } = openScheduler({ store, env: process.env }, agent.runner, {
      notifier: telegram?.notifier,
      onFailure: (f) => void process.stderr.write(`${new Date().toISOString()} ${f.source}: ${f.text}\n`),
    }));
    void scheduler.start();
  } catch (err) {
    await agent.close();
    store.close();
    throw err;
  }
  writeGatewayState(paths.gatewayState, { pid: process.pid, port: handle.port, url: handle.url, started: new Date().toISOString() });
  try {
    if (f.json) process.stdout.write(`${JSON.stringify({ url: handle.url, port: handle.port, pid: process.pid })}\n`);
    else {
      const jobs = store.schedule.jobs().filter((j) => j.enabled).length;
      process.stdout.write(
        [
          `Gateway on ${handle.url} (token: the one \`homunculus agent token\` showed). Ctrl-C stops it.`,
          `Telegram: ${telegram ? 'the bot is running' : 'not configured (agent.telegram in config.json)'}.`,
          `Scheduler: ${counted(jobs, 'job')} enabled (homunculus agent schedule list).`,
        ].join('\n') + '\n',
      );
    }
    await firstSignal();
    const busy = handle.inFlight();
    if (busy && !f.json)
      process.stdout.write(
        `Stopping: finishing ${counted(busy, 'request')} in flight (up to ${GRACE_MS / 1000} s; Ctrl-C again stops at once).\n`,
      );
    // Each part stops even when one before it failed: a server left open keeps the process alive.
    await stopEach([() => scheduler.stop(), () => telegram?.stop(), () => handle.close(), () => agent.close()]);
    if (!f.json) process.stdout.write('Gateway stopped.\n');
  } finally {
    clearGatewayState(paths.gatewayState);
    store.close();
  }
}

/**
 * The first SIGINT or SIGTERM; both listeners then go, so the next signal of either kind stops
 * the process at once (a SIGINT after a SIGTERM must not land on a spent listener).
 */
function firstSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
}

/** Runs every step in order; a failed one is reported and the next still runs. */
async function stopEach(steps: readonly (() => Promise<unknown> | undefined)[]): Promise<void> {
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      process.stderr.write(`homunculus: while stopping: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

export function main(args: readonly string[]): Promise<number> {
  return flagsMain(args, { command: 'agent serve', booleans: ['help', 'json'], values: ['port', 'host', 'home'] }, USAGE, serve);
}
