/**
 * A loopback Bot API stub speaking Telegram's JSON (`{ok, result}` or `{ok: false,
 * error_code, description}`) at `/bot<token>/<method>`: getMe, deleteWebhook, getUpdates
 * (long polling with offset and timeout), sendMessage, editMessageText and
 * answerCallbackQuery. A test pushes messages and button presses as updates and reads what
 * the bot sent. A second long poll on a token while one is open is answered 409 Conflict,
 * as Telegram does when two pollers share a token.
 */
import type { ServerResponse } from 'node:http';
import { type Loopback, startLoopback } from './loopback.js';

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

const BOT = { id: 7000, is_bot: true, first_name: 'Homunculus', username: 'homunculus_stub_bot' };
const CONFLICT = 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';

const user = (id: number) => ({ id, is_bot: false, first_name: `User ${id}` });
/** As Telegram numbers them: a private chat is the user's id, a group's id is negative. */
const chat = (id: number) =>
  id < 0 ? { id, type: 'supergroup', title: `Group ${id}` } : { id, type: 'private', first_name: `User ${id}` };
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

export class TelegramStub {
  /** Every call but getUpdates, in order. */
  readonly calls: SentCall[] = [];
  private readonly updates: Record<string, unknown>[] = [];
  private readonly polls = new Set<Poll>();
  private readonly waiters = new Set<() => void>();
  private nextUpdate = 1;
  private nextMessage = 100;
  private server: Loopback | undefined;

  private readonly methods: Record<string, (body: Record<string, unknown>) => unknown> = {
    getMe: () => ({ ...BOT, can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false }),
    deleteWebhook: () => true,
    sendMessage: (b) => ({ message_id: this.nextMessage++, from: BOT, chat: chat(Number(b.chat_id)), date: now(), text: b.text }),
    editMessageText: (b) => ({ message_id: Number(b.message_id), from: BOT, chat: chat(Number(b.chat_id)), date: now(), text: b.text }),
    answerCallbackQuery: () => true,
  };

  get apiRoot(): string {
    if (!this.server) throw new Error('start the stub first');
    return this.server.baseUrl;
  }

  async start(): Promise<this> {
    this.server = await startLoopback((url, body, _raw, res) => this.handle(url, body, res));
    return this;
  }

  /** A text message from `userId` in its private chat (commands get their bot_command entity). */
  message(userId: number, text: string, chatId = userId): void {
    const command = /^\/\w+/.exec(text);
    this.push({
      message: {
        message_id: this.nextMessage++,
        from: user(userId),
        chat: chat(chatId),
        date: now(),
        text,
        ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
      },
    });
  }

  /** A press of an inline button carrying `data` under the bot's message `messageId`. */
  press(userId: number, data: string, messageId: number, chatId = userId): void {
    this.push({
      callback_query: {
        id: `cq${this.nextUpdate}`,
        from: user(userId),
        chat_instance: `ci${chatId}`,
        data,
        message: { message_id: messageId, from: BOT, chat: chat(chatId), date: now(), text: '…' },
      },
    });
  }

  /** Resolves with the first call (sent after `from` calls) that `match` accepts. */
  waitFor(match: (c: SentCall) => boolean, from = 0, timeoutMs = 10_000): Promise<SentCall> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const hit = this.calls.slice(from).find(match);
        if (!hit) return;
        this.waiters.delete(wake);
        clearTimeout(timer);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`The bot sent no matching call within ${timeoutMs} ms; it sent: ${JSON.stringify(this.calls.slice(from))}`));
      }, timeoutMs);
      this.waiters.add(wake);
      wake();
    });
  }

  /** How many long polls are open now. */
  pollers(): number {
    return this.polls.size;
  }

  async close(): Promise<void> {
    for (const poll of [...this.polls]) this.settle(poll);
    await this.server?.close();
  }

  private handle(url: string, body: Record<string, unknown>, res: ServerResponse): void {
    const m = /^\/bot([^/]+)\/(\w+)/.exec(url);
    if (!m) return fail(res, 404, 'Not Found');
    const [, token = '', method = ''] = m;
    if (method === 'getUpdates') return this.getUpdates(token, body, res);
    const run = this.methods[method];
    if (!run) return fail(res, 404, 'Not Found: method not found');
    const result = run(body);
    this.calls.push({ method, token, body, result });
    for (const wake of [...this.waiters]) wake();
    answer(res, result);
  }

  private pending(offset: number): Record<string, unknown>[] {
    return this.updates.filter((u) => (u.update_id as number) >= offset);
  }

  private settle(poll: Poll): void {
    clearTimeout(poll.timer);
    this.polls.delete(poll);
    answer(poll.res, this.pending(poll.offset));
  }

  private push(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdate++, ...update });
    for (const poll of [...this.polls]) if (this.pending(poll.offset).length) this.settle(poll);
  }

  private getUpdates(token: string, body: Record<string, unknown>, res: ServerResponse): void {
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    // Telegram forgets updates older than the offset a poller confirmed.
    this.updates.splice(0, this.updates.length, ...this.pending(offset));
    const timeout = typeof body.timeout === 'number' ? body.timeout : 0;
    if (this.pending(offset).length || timeout === 0) return answer(res, this.pending(offset));
    if ([...this.polls].some((p) => p.token === token)) return fail(res, 409, CONFLICT);
    const poll: Poll = { token, offset, res, timer: setTimeout(() => this.settle(poll), timeout * 1000) };
    this.polls.add(poll);
    res.on('close', () => {
      clearTimeout(poll.timer);
      this.polls.delete(poll);
    });
  }
}

export const startTelegramStub = (): Promise<TelegramStub> => new TelegramStub().start();
