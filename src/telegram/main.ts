/**
 * `homunculus agent telegram [--home DIR] [--json]`: the Telegram bot on its own, reached from
 * bin.ts like `agent serve`. It long-polls until SIGINT or SIGTERM, then stops polling
 * (confirming the last update to Telegram), answers no to every held confirmation, closes the
 * store and exits. A 409 from Telegram means another process polls the same token: it stops
 * with a message saying so. `startTelegram` is also how `agent serve` runs the bot beside the gateway.
 */
import { loadTelegramSettings } from '../agent/telegram.js';
import { openAgent } from '../app/agent-brain.js';
import { loadConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { flagsMain } from '../core/flags.js';
import { homePaths, resolveHome } from '../core/paths.js';
import { reportError } from '../core/report.js';
import { openStore } from '../store/store.js';
import type { AppContext } from '../app/operation.js';
import { type OpenedAgent, TelegramBot, telegramAgent } from './bot.js';

const USAGE = `Usage: homunculus agent telegram [--home <dir>] [--json]

Runs the personal agent's Telegram bot (long polling) until Ctrl-C. Configure it in
config.json: {"agent": {"telegram": {"tokenEnv": "TELEGRAM_BOT_TOKEN", "allowed_user_ids": [123456789]}}}
and export the token in the variable tokenEnv names. Only one process may poll a token.

Options:
  --home <dir>  data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)
  --json        print {"bot", "pid"} as one JSON line once polling runs
  -h, --help    display this help
`;

/** The bot over the opened agent, polling, when config.json has agent.telegram; undefined when it has not. */
export async function startTelegram(ctx: AppContext, opened: OpenedAgent): Promise<TelegramBot | undefined> {
  const paths = homePaths(ctx.store.paths.home);
  const settings = loadTelegramSettings(loadConfig(paths.config), ctx.env);
  if (!settings) return undefined;
  const bot = new TelegramBot({ settings, agent: telegramAgent(ctx, opened), auditLog: paths.audit });
  await bot.start();
  // Polling can end later too (another poller took the token): say so, whoever started the bot.
  bot.done.catch((err: unknown) => void reportError(err, false));
  return bot;
}

/** Until a signal (true), or until polling ends by itself (false: startTelegram reported why). */
function untilStopped(bot: TelegramBot): Promise<boolean> {
  return new Promise<boolean>((stop) => {
    process.once('SIGINT', () => stop(true));
    process.once('SIGTERM', () => stop(true));
    bot.done.then(
      () => stop(true),
      () => stop(false),
    );
  });
}

/** The exit code: 0 after a signal, 1 when polling failed. */
async function run(f: Record<string, string | true>): Promise<number> {
  const home = resolveHome(typeof f.home === 'string' ? f.home : undefined);
  if (!loadTelegramSettings(loadConfig(homePaths(home).config), process.env))
    throw new UsageError(
      'Telegram is not configured: config.json has no agent.telegram section.',
      'Add {"agent": {"telegram": {"tokenEnv": "TELEGRAM_BOT_TOKEN", "allowed_user_ids": [<your user id>]}}} and export the token.',
    );
  const store = openStore({ home });
  let bot: TelegramBot | undefined;
  try {
    const ctx = { store, env: process.env };
    bot = await startTelegram(ctx, openAgent(ctx));
    if (!bot) return 1;
    const name = bot.bot.botInfo.username;
    if (f.json) process.stdout.write(`${JSON.stringify({ bot: name, pid: process.pid })}\n`);
    else process.stdout.write(`Telegram bot @${name} is polling. Ctrl-C stops it.\n`);
    if (!(await untilStopped(bot))) return 1;
    if (!f.json) process.stdout.write('Telegram bot stopped.\n');
    return 0;
  } finally {
    await bot?.stop();
    store.close();
  }
}

export function main(args: readonly string[]): Promise<number> {
  return flagsMain(args, { command: 'agent telegram', booleans: ['help', 'json'], values: ['home'] }, USAGE, run);
}
