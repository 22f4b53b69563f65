/**
 * The Telegram surface (grammY, long polling): seed 001's request lifecycle for each message,
 * each step in the audit log. 1-2: only allowed users are answered (anyone else gets nothing
 * and an audit entry); 3: the chat's session, renewed after an idle spell; 4: the agent;
 * 5-8: skills, prompt, routing and the loop, inside the runner (which audits each completion
 * and tool run); 9: the reply, split at 4,096 characters; 10-11: the route and the usage.
 * A dangerous tool call is put to the person as Yes / No buttons that expire; nothing runs
 * without a press of Yes, and an unanswered call is answered no.
 */
import { randomBytes } from 'node:crypto';
import { Bot, type Context, GrammyError, InlineKeyboard } from 'grammy';
import { type AuditRecord, appendAudit } from '../agent/audit.js';
import type { BudgetReport } from '../agent/budget.js';
import { PendingBook } from '../agent/pending.js';
import { SessionModes, modeCommand } from '../agent/router.js';
import { loadAgentConfig } from '../agent/config.js';
import { loadConfig } from '../core/config.js';
import type { AppContext } from '../app/operation.js';
import { type AgentRunner, ConfirmationWaiting, type TurnResult } from '../agent/runner.js';
import { ChatSessions, chatPrefix, type TelegramSettings, isAllowedUser, splitMessage } from '../agent/telegram.js';
import { agentBudget, agentConfirm, agentTurn, agentTurnInput } from '../app/agent-brain.js';
import { HomunculusError, UsageError } from '../core/errors.js';
import { TelegramNotifier } from './notifier.js';
import { HELP, agentsText, budgetText, confirmMessages, statusText } from './replies.js';

/** What the bot needs of the agent; `telegramAgent` builds it from what openAgent returns. */
export interface TelegramAgent {
  runner: AgentRunner;
  /** Ends a session that went idle (its history is dropped), when the runner can. */
  endSession?(session: string): void;
  /** The session whose id starts with `prefix` spoken in last, and when (ms): a chat goes on after a restart. */
  lastSession?(prefix: string): { session: string; last: number } | undefined;
  budget(): BudgetReport;
  agents(): string[];
  models: { local: string; remote?: string };
}

/** What openAgent returns, as far as Telegram cares (one loop, or the team of several agents). */
export interface OpenedAgent {
  loop: AgentRunner & { end?(session: string): void };
  personas?: readonly { name: string }[];
}

/** The Telegram view of the opened agent, through the application's operations. */
export function telegramAgent(ctx: AppContext, opened: OpenedAgent): TelegramAgent {
  const config = loadAgentConfig(loadConfig(ctx.store.paths.config));
  const { loop } = opened;
  return {
    runner: loop,
    ...(loop.end ? { endSession: (session: string) => loop.end?.(session) } : {}),
    lastSession: (prefix) => {
      const row = ctx.store.conversations.latest(prefix);
      return row ? { session: row.session, last: Date.parse(row.updated_at) } : undefined;
    },
    budget: () => agentBudget.run(ctx, {}),
    agents: () => opened.personas?.map((p) => p.name) ?? ['default'],
    models: { local: config.local.model, ...(config.remote ? { remote: config.remote.model } : {}) },
  };
}

export interface TelegramBotOptions {
  settings: TelegramSettings;
  agent: TelegramAgent;
  auditLog: string;
  now?: () => number;
  /** How often unanswered confirmations are checked for expiry. */
  sweepMs?: number;
}

/** How long stop() waits for Telegram to confirm the last update. */
const CONFIRM_MS = 5_000;

/** A 401 or 409 from Telegram as an error that says what to do. */
export function explainTelegramError(err: unknown): unknown {
  if (!(err instanceof GrammyError)) return err;
  if (err.error_code === 409)
    return new HomunculusError('telegram_conflict', 'Another poller is already using this bot token (Telegram answered 409 Conflict).', {
      hint: 'Only one process may poll a token: stop the other `homunculus agent telegram` or `agent serve` (or the other program using this bot), then start again.',
    });
  if (err.error_code === 401)
    return new HomunculusError('telegram_token', 'Telegram refused the bot token (401 Unauthorized).', {
      hint: 'Check the token in the environment variable agent.telegram.tokenEnv names (from @BotFather).',
    });
  return err;
}

/** One bot over one token: `start` polls until `stop` (or a 409 / 401, which `done` rejects with the fix). */
export class TelegramBot {
  readonly bot: Bot;
  readonly notifier: TelegramNotifier;
  /** Settles when polling ends. */
  done: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly started: number;
  private readonly sessions: ChatSessions;
  private readonly book: PendingBook;
  // Buttons carry a short key (callback data is limited to 64 bytes), mapped to the confirmation, its chat and message.
  // The key is random: a counter restarts with the process, and an old question's Yes would approve a new one.
  private readonly buttons = new Map<string, { id: string; chatId: number; messageId?: number }>();
  // Each session's routing mode as the person set it, for /status (the runner keeps its own).
  private readonly modes = new SessionModes();
  // Aborts the confirming getUpdates of stop(), which grammY sends without a signal.
  private readonly halt = new AbortController();

  constructor(private readonly o: TelegramBotOptions) {
    this.now = o.now ?? Date.now;
    this.started = this.now();
    this.bot = new Bot(o.settings.token, o.settings.apiRoot ? { client: { apiRoot: o.settings.apiRoot } } : {});
    this.sessions = new ChatSessions(o.settings.idleMinutes * 60_000, (chatId) => o.agent.lastSession?.(chatPrefix(chatId)));
    this.book = new PendingBook(o.agent.runner, this.now, o.sweepMs, (id) => void this.sayExpired(id));
    // grammY types its signal as the abort-controller shim's; Node's is the same at run time.
    const halt = this.halt.signal as unknown as Parameters<Parameters<typeof this.bot.api.config.use>[0]>[3];
    this.bot.api.config.use((prev, method, payload, signal) => prev(method, payload, method === 'getUpdates' && !signal ? halt : signal));
    this.notifier = new TelegramNotifier(this.bot.api, o.settings.allowedUserIds);
    this.bot.on('message:text', (ctx) => this.onText(ctx, ctx.message.text));
    this.bot.callbackQuery(/^confirm:([0-9a-f]{1,32}):(yes|no)$/, (ctx) =>
      this.onPress(ctx, ctx.match[1] ?? '', ctx.match[2] === 'yes' ? 'yes' : 'no'),
    );
    // Everything else (photos, stray buttons): unlisted users leave an audit entry and get nothing.
    this.bot.on('message', async (ctx) => void (this.authorised(ctx) && (await ctx.reply('I read text messages only.'))));
    this.bot.on('callback_query', async (ctx) => void (this.authorised(ctx) && (await ctx.answerCallbackQuery())));
    this.bot.catch((err) =>
      process.stderr.write(`telegram: ${err.error instanceof Error ? (err.error.stack ?? err.error.message) : String(err.error)}\n`),
    );
  }

  /** Resolves once polling runs (or rejects with the fix when Telegram refuses at once). */
  start(): Promise<void> {
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    this.done = this.bot.start({ onStart: () => running() }).catch((err: unknown) => {
      this.book.close();
      throw explainTelegramError(err);
    });
    return Promise.race([started, this.done]);
  }

  /**
   * Stops polling; every held confirmation is answered no. Never throws, and gives Telegram
   * `CONFIRM_MS` to confirm the last update: an unreachable network must not keep the process
   * alive (the unconfirmed updates then come again at the next start).
   */
  async stop(): Promise<void> {
    this.book.close();
    const timer = setTimeout(() => this.halt.abort(), CONFIRM_MS);
    try {
      if (this.bot.isRunning()) await this.bot.stop();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      process.stderr.write(`telegram: could not confirm the last update to Telegram (${why}); it may come again at the next start.\n`);
    } finally {
      clearTimeout(timer);
    }
    await this.done.catch(() => undefined);
  }

  private audit(record: Omit<AuditRecord, 'durationMs'> & { durationMs?: number }): void {
    appendAudit(this.o.auditLog, { durationMs: 0, ...record });
  }

  /** Steps 1-2: an unlisted user gets nothing; the refusal is audited. */
  /**
   * An allowed user in their private chat with the bot: in a group, every member would read
   * the answers, and they may carry what the agent remembers.
   */
  private authorised(ctx: Context): boolean {
    const user = ctx.from?.id;
    const ok = isAllowedUser(this.o.settings.allowedUserIds, user) && ctx.chat?.type === 'private';
    const session = `telegram-${ctx.chat?.id ?? 'unknown'}`;
    this.audit({ action: 'telegram_auth', session, subject: `user:${user ?? 'unknown'}`, ok, input: user, output: ok });
    return ok;
  }

  /** Step 9 and after: the answer in parts, the buttons for a held call, the route and the usage. */
  private async deliver(chatId: number, session: string, result: TurnResult): Promise<void> {
    // Step 4: the agent that answered (several agents name themselves; one is the default).
    const agent = (result as TurnResult & { agent?: string }).agent ?? 'default';
    this.audit({ action: 'agent_detect', session, subject: agent, input: session, output: agent });
    const parts = splitMessage(result.text);
    for (const part of parts) await this.bot.api.sendMessage(chatId, part);
    if (result.pending) {
      this.book.hold(result.pending);
      const key = randomBytes(8).toString('hex');
      const button = { id: result.pending.id, chatId };
      this.buttons.set(key, button);
      const keyboard = new InlineKeyboard().text('Yes', `confirm:${key}:yes`).text('No', `confirm:${key}:no`);
      const messages = confirmMessages(result.pending);
      for (const text of messages.slice(0, -1)) await this.bot.api.sendMessage(chatId, text);
      const question = await this.bot.api.sendMessage(chatId, messages.at(-1) as string, { reply_markup: keyboard });
      this.buttons.set(key, { ...button, messageId: question.message_id });
    }
    const subject = `parts:${parts.length}${result.pending ? '+confirm' : ''}`;
    this.audit({ action: 'telegram_reply', session, subject, input: session, output: result.text });
    this.audit({ action: 'route', session, subject: `${result.route}:${result.model}`, input: session, output: result.route });
    this.sessions.addUsage(chatId, result.usage);
    const tokens = { input: result.usage.inputTokens, output: result.usage.outputTokens };
    this.audit({ action: 'usage', session, subject: `usd:${result.usage.costUsd.toFixed(6)}`, input: session, output: tokens, tokens });
  }

  /** The bot's own commands; undefined for what the agent answers (the routing modes). */
  private commandReply(name: string, chatId: number, session: string): string | undefined {
    const { agent } = this.o;
    if (name === 'start' || name === 'help') return HELP;
    if (name === 'status')
      return statusText({
        session,
        mode: this.modes.get(session),
        models: agent.models,
        pending: this.book.size,
        usage: this.sessions.usage(chatId),
        startedMs: this.started,
        nowMs: this.now(),
      });
    if (name === 'budget') return budgetText(agent.budget());
    if (name === 'agents') return agentsText(agent.agents());
    return modeCommand(`/${name}`) ? undefined : `Unknown command /${name}.\n\n${HELP}`;
  }

  private async onText(ctx: Context, text: string): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || !this.authorised(ctx)) return;
    const s = this.sessions.touch(chatId, this.now());
    if (s.ended) this.o.agent.endSession?.(s.ended);
    this.audit({ action: 'session', session: s.session, subject: s.fresh ? 'new' : 'resumed', input: chatId, output: s.session });
    const command = /^\/(\w+)(?:@\w+)?\s*$/.exec(text)?.[1]?.toLowerCase();
    const own = command === undefined ? undefined : this.commandReply(command, chatId, s.session);
    if (own !== undefined) {
      this.audit({ action: 'telegram_command', session: s.session, subject: command, input: text, output: own });
      for (const part of splitMessage(own)) await ctx.reply(part);
      return;
    }
    const input = agentTurnInput.safeParse({ session: s.session, message: command ? `/${command}` : text });
    if (!input.success) return void (await ctx.reply(`Not sent: ${input.error.issues.map((i) => i.message).join('; ')}.`));
    const t0 = performance.now();
    try {
      const result = await agentTurn.run({ runner: this.o.agent.runner }, input.data);
      const mode = modeCommand(input.data.message);
      // Without a remote model the agent refuses /escalate and nothing changes: /status must not say otherwise.
      if (mode && !(mode === 'escalate' && !this.o.agent.models.remote)) this.modes.set(s.session, mode);
      await this.deliver(chatId, s.session, result);
    } catch (err) {
      this.audit({
        action: 'telegram_error',
        session: s.session,
        ok: false,
        input: text,
        output: String(err),
        durationMs: performance.now() - t0,
      });
      await ctx.reply(failureText(err));
    }
  }

  /** A question nobody answered in time: its buttons go, and it says what became of the call. */
  private async sayExpired(id: string): Promise<void> {
    const [key, held] = [...this.buttons].find(([, b]) => b.id === id) ?? [];
    if (!key || !held) return;
    this.buttons.delete(key);
    const text = 'Expired: nobody answered in time, so it was answered no and nothing ran. Ask again if you still want it.';
    try {
      if (held.messageId !== undefined) await this.bot.api.editMessageText(held.chatId, held.messageId, text);
      else await this.bot.api.sendMessage(held.chatId, text);
    } catch (err) {
      process.stderr.write(`telegram: could not say a question expired: ${(err as Error).message}\n`);
    }
  }

  private async onPress(ctx: Context, key: string, answer: 'yes' | 'no'): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || !this.authorised(ctx)) return;
    const held = this.buttons.get(key);
    const session = this.sessions.current(chatId) ?? `telegram-${chatId}`;
    const pressedOn = ctx.callbackQuery?.message?.message_id;
    if (!held || held.chatId !== chatId || (held.messageId !== undefined && pressedOn !== held.messageId))
      return void (await ctx.answerCallbackQuery({ text: 'This question is closed (answered, or expired and answered no): nothing ran.' }));
    this.buttons.delete(key);
    const claim = this.book.claim(held.id);
    const subject = claim.ok ? answer : claim.why;
    this.audit({ action: 'confirmation', session, subject, ok: claim.ok && answer === 'yes', input: held.id, output: answer });
    if (!claim.ok) {
      await ctx.answerCallbackQuery({ text: 'Expired: answered no, nothing ran.' });
      await ctx.editMessageText('Expired: answered no, nothing ran. Ask again if you still want it.');
      return;
    }
    await ctx.answerCallbackQuery({ text: answer === 'yes' ? 'Running it.' : 'Not run.' });
    await ctx.editMessageText(answer === 'yes' ? 'Approved: running it.' : 'Declined: not run.');
    try {
      await this.deliver(chatId, session, await agentConfirm.run({ runner: this.o.agent.runner }, { id: held.id, answer }));
    } catch (err) {
      await ctx.reply(failureText(err));
    }
  }
}

/** What the person reads when a turn fails: a usage error's fix, else a pointer to the terminal. */
function failureText(err: unknown): string {
  // The runner's fix names the gateway and the terminal chat; here the answer is a button.
  if (err instanceof ConfirmationWaiting)
    return 'A tool call is waiting for your answer: press Yes or No under the question above first (unanswered, it is answered no when it expires).';
  if (err instanceof UsageError || err instanceof HomunculusError) return `${err.message}${err.hint ? `\n${err.hint}` : ''}`;
  process.stderr.write(`telegram: ${(err as Error).stack ?? String(err)}\n`);
  return 'The agent could not answer; see the terminal that runs it.';
}
