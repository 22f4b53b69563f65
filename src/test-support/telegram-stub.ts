/**
 * A loopback Bot API stub speaking Telegram's JSON (`{ok, result}` or `{ok: false,
 * error_code, description}`) at `/bot<token>/<method>`: getMe, deleteWebhook, getUpdates
 * (long polling with offset and timeout), sendMessage, editMessageText and
 * answerCallbackQuery. A test pushes messages and button presses as updates and reads what
 * the bot sent. A second long poll on a token while one is open is answered 409 Conflict,
 * as Telegram does when two pollers share a token.
 */
import type { ServerResponse } from 'node:http';
import { startLoopback } from './loopback.js';

export interface SentCall {
  method: string;
  token: string;
  body: Record<string, unknown>;
  /** What the stub answered. */
  result: unknown;
}

interface Poll {
  token: string;
  offset: number;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

export interface TelegramStub {
  apiRoot: string;
  /** Every call but getUpdates, in order. */
  calls: SentCall[];
  /** A text message from `userId` in its private chat (commands get their bot_command entity). */
  message(userId: number, text: string, chatId?: number): void;
  /** A press of an inline button carrying `data` under the bot's message `messageId`. */
  press(userId: number, data: string, messageId: number, chatId?: number): void;
  /** Resolves with the first call (sent after `from` calls) that `match` accepts. */
  waitFor(match: (c: SentCall) => boolean, from?: number, timeoutMs?: number): Promise<SentCall>;
  /** How many long polls are open now. */
  pollers(): number;
  close(): Promise<void>;
}

const BOT = { id: 7000, is_bot: true, first_name: 'Homunculus', username: 'homunculus_stub_bot' };
const CONFLICT = 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';

const user = (id: number) => ({ id, is_bot: false, first_name: `User ${id}` });
const chat = (id: number) => ({ id, type: 'private', first_name: `User ${id}` });
const now = () => Math.floor(Date.now() / 1000);

function answer(res: ServerResponse, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, result: body }));
}

function fail(res: ServerResponse, code: number, description: string): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: false, error_code: code, description }));
}

export async function startTelegramStub(): Promise<TelegramStub> {
  const updates: Record<string, unknown>[] = [];
  const calls: SentCall[] = [];
  const polls = new Set<Poll>();
  const waiters = new Set<() => void>();
  let nextUpdate = 1;
  let nextMessage = 100;

  const pending = (offset: number) => updates.filter((u) => (u.update_id as number) >= offset);
  const settle = (poll: Poll) => {
    clearTimeout(poll.timer);
    polls.delete(poll);
    answer(poll.res, pending(poll.offset));
  };
  const push = (update: Record<string, unknown>) => {
    updates.push({ update_id: nextUpdate++, ...update });
    for (const poll of [...polls]) if (pending(poll.offset).length) settle(poll);
  };

  const getUpdates = (token: string, body: Record<string, unknown>, res: ServerResponse) => {
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    // Telegram forgets updates older than the offset a poller confirmed.
    updates.splice(0, updates.length, ...pending(offset));
    const timeout = typeof body.timeout === 'number' ? body.timeout : 0;
    if (pending(offset).length || timeout === 0) return answer(res, pending(offset));
    if ([...polls].some((p) => p.token === token)) return fail(res, 409, CONFLICT);
    const poll: Poll = { token, offset, res, timer: setTimeout(() => settle(poll), timeout * 1000) };
    polls.add(poll);
    res.on('close', () => {
      clearTimeout(poll.timer);
      polls.delete(poll);
    });
  };

  const methods: Record<string, (body: Record<string, unknown>) => unknown> = {
    getMe: () => ({ ...BOT, can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false }),
    deleteWebhook: () => true,
    sendMessage: (b) => ({ message_id: nextMessage++, from: BOT, chat: chat(Number(b.chat_id)), date: now(), text: b.text }),
    editMessageText: (b) => ({ message_id: Number(b.message_id), from: BOT, chat: chat(Number(b.chat_id)), date: now(), text: b.text }),
    answerCallbackQuery: () => true,
  };

  const server = await startLoopback((url, body, _raw, res) => {
    const m = /^\/bot([^/]+)\/(\w+)/.exec(url);
    if (!m) return fail(res, 404, 'Not Found');
    const [, token = '', method = ''] = m;
    if (method === 'getUpdates') return getUpdates(token, body, res);
    const run = methods[method];
    if (!run) return fail(res, 404, 'Not Found: method not found');
    const result = run(body);
    calls.push({ method, token, body, result });
    for (const wake of [...waiters]) wake();
    answer(res, result);
  });

  return {
    apiRoot: server.baseUrl,
    calls,
    message(userId, text, chatId = userId) {
      const command = /^\/\w+/.exec(text);
      push({
        message: {
          message_id: nextMessage++,
          from: user(userId),
          chat: chat(chatId),
          date: now(),
          text,
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
        },
      });
    },
    press(userId, data, messageId, chatId = userId) {
      push({
        callback_query: {
          id: `cq${nextUpdate}`,
          from: user(userId),
          chat_instance: `ci${chatId}`,
          data,
          message: { message_id: messageId, from: BOT, chat: chat(chatId), date: now(), text: '…' },
        },
      });
    },
    waitFor(match, from = 0, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = calls.slice(from).find(match);
          if (!hit) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`The bot sent no matching call within ${timeoutMs} ms; it sent: ${JSON.stringify(calls.slice(from))}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    pollers: () => polls.size,
    async close() {
      for (const poll of [...polls]) settle(poll);
      await server.close();
    },
  };
}
