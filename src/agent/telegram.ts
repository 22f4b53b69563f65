/**
 * Telegram's rules, apart from the bot that speaks them: `agent.telegram` in config.json
 * (the token is read from the environment variable it names, never from the file), who is
 * answered (only the listed user ids; an empty list means nobody), a session per chat that
 * ends after an idle spell, and answers cut to Telegram's 4,096 characters on paragraph
 * boundaries.
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { HomunculusError } from '../core/errors.js';

/** Telegram refuses longer messages (Bot API sendMessage). */
export const TELEGRAM_MAX_TEXT = 4096;

const telegramSchema = z
  .object({
    tokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name such as TELEGRAM_BOT_TOKEN (never the token itself)')
      .default('TELEGRAM_BOT_TOKEN'),
    allowed_user_ids: z.array(z.number().int().positive('must be a Telegram user id (a positive number)')).max(1000),
    idleMinutes: z.number().min(1).max(10_080).default(30),
    /** Tests point this at a loopback Bot API stub. */
    apiRoot: z.url().optional(),
  })
  .strict();

export interface TelegramSettings {
  token: string;
  tokenEnv: string;
  allowedUserIds: number[];
  idleMinutes: number;
  apiRoot?: string;
}

const EXAMPLE = '{"agent": {"telegram": {"tokenEnv": "TELEGRAM_BOT_TOKEN", "allowed_user_ids": [123456789], "idleMinutes": 30}}}';

/** The validated section with its token, or undefined when `agent.telegram` is absent; a bad section or a missing token throws with the fix. */
export function loadTelegramSettings(config: Config, env: NodeJS.ProcessEnv = process.env): TelegramSettings | undefined {
  const raw = (config.agent as Record<string, unknown> | undefined)?.telegram;
  if (raw === undefined) return undefined;
  const parsed = telegramSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `agent.telegram${i.path.length ? `.${i.path.join('.')}` : ''} ${i.message}`).join('; ');
    throw new HomunculusError('config', `Invalid "agent.telegram" section in config.json: ${problems}.`, {
      hint: `Fix it. Example: ${EXAMPLE}.`,
    });
  }
  const { tokenEnv, allowed_user_ids, idleMinutes, apiRoot } = parsed.data;
  const token = env[tokenEnv]?.trim();
  if (!token)
    throw new HomunculusError('config', `The Telegram bot token is missing: the environment variable ${tokenEnv} is not set.`, {
      hint: `Export ${tokenEnv}=<token from @BotFather> (agent.telegram.tokenEnv names the variable; the token never goes in config.json).`,
    });
  return { token, tokenEnv, allowedUserIds: allowed_user_ids, idleMinutes, ...(apiRoot ? { apiRoot } : {}) };
}

/** Whether a Telegram user may talk to the agent: only listed ids; an empty list lets nobody in. Pure. */
export const isAllowedUser = (allowed: readonly number[], userId: number | undefined): boolean =>
  userId !== undefined && allowed.includes(userId);

/** Where to cut `text` at or before `limit`: a paragraph break, then a line break, then a space, else hard. Pure. */
function cutAt(text: string, limit: number): number {
  const window = text.slice(0, limit + 1);
  for (const sep of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(sep);
    if (at > 0) return at;
  }
  return limit;
}

/** Splits an answer into messages of at most `limit` characters on paragraph boundaries, never inside a word when a space allows. Pure. */
export function splitMessage(text: string, limit = TELEGRAM_MAX_TEXT): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const at = cutAt(rest, limit);
    const part = rest.slice(0, at).trimEnd();
    if (part) parts.push(part);
    rest = rest.slice(at).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

export interface ChatSession {
  session: string;
  /** The session this chat had before, when it ended for being idle. */
  ended?: string;
  fresh: boolean;
}

export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

const NO_USAGE: SessionUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

/** The start of every session id of a chat. */
export const chatPrefix = (chatId: number): string => `telegram-${chatId}-`;

/** One agent session per chat, with its token usage; a chat idle longer than `idleMs` starts a new one (its old one ends). */
export class ChatSessions {
  private readonly chats = new Map<number, { session: string; last: number; n: number; usage: SessionUsage }>();

  /** `restore`: the chat's session before a restart and when it was last spoken in (from the kept conversations). */
  constructor(
    private readonly idleMs: number,
    private readonly restore?: (chatId: number) => { session: string; last: number } | undefined,
  ) {}

  /** The chat's session at `now`, started or renewed (after a restart, the one it had, when not idle). */
  touch(chatId: number, now: number): ChatSession {
    const held = this.chats.get(chatId) ?? this.restored(chatId);
    if (held && now - held.last <= this.idleMs) {
      held.last = now;
      return { session: held.session, fresh: false };
    }
    const n = (held?.n ?? 0) + 1;
    const session = `${chatPrefix(chatId)}${n}`;
    this.chats.set(chatId, { session, last: now, n, usage: NO_USAGE });
    return { session, fresh: true, ...(held ? { ended: held.session } : {}) };
  }

  private restored(chatId: number) {
    const r = this.restore?.(chatId);
    if (!r) return undefined;
    const entry = { session: r.session, last: r.last, n: Number(/-(\d+)$/.exec(r.session)?.[1] ?? 0), usage: NO_USAGE };
    this.chats.set(chatId, entry);
    return entry;
  }

  /** Adds a turn's usage to the chat's session (seed 001's step 11). */
  addUsage(chatId: number, u: SessionUsage): void {
    const held = this.chats.get(chatId);
    if (held)
      held.usage = {
        inputTokens: held.usage.inputTokens + u.inputTokens,
        outputTokens: held.usage.outputTokens + u.outputTokens,
        costUsd: held.usage.costUsd + u.costUsd,
      };
  }

  /** The tokens and cost of the chat's current session so far. */
  usage(chatId: number): SessionUsage {
    return this.chats.get(chatId)?.usage ?? NO_USAGE;
  }

  /** The chat's current session, if it has one. */
  current(chatId: number): string | undefined {
    return this.chats.get(chatId)?.session;
  }
}
