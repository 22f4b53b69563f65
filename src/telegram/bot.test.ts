import { afterEach, describe, expect, it } from 'vitest';
import { type AuditEntry, readAudit, verifyAudit } from '../agent/audit.js';
import { type LoopHarness, loopHarness, stubModel } from '../test-support/agent-loop.js';
import { type OllamaRequest, type StubTurn, ollamaOneToolCall, startOllamaStub } from '../test-support/ollama-stub.js';
import { type SentCall, type TelegramStub, startTelegramStub } from '../test-support/telegram-stub.js';
import { TelegramBot, telegramAgent } from './bot.js';

const USER = 42;
const STRANGER = 999;
const T0 = Date.parse('2026-11-26T08:00:00.000Z');

let h: LoopHarness | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  h?.cleanup();
  h = undefined;
});

interface Setup {
  tg: TelegramStub;
  bot: TelegramBot;
  h: LoopHarness;
  clock: { t: number };
}

/** A bot over the Telegram stub, its agent over the Ollama stub answering with `script`. */
async function setup(script: (req: OllamaRequest) => StubTurn, allowed = [USER]): Promise<Setup> {
  const ollama = await startOllamaStub(script);
  stops.push(() => ollama.close());
  const tg = await startTelegramStub();
  stops.push(() => tg.close());
  h = loopHarness({ local: stubModel('ollama', ollama.baseUrl), stream: false });
  const clock = { t: T0 };
  const bot = new TelegramBot({
    settings: { token: '123:stub', tokenEnv: 'TG', allowedUserIds: allowed, idleMinutes: 30, apiRoot: tg.apiRoot },
    agent: telegramAgent({ store: h.store, env: {} }, h),
    auditLog: h.audit,
    now: () => clock.t,
    sweepMs: 20,
  });
  await bot.start();
  stops.push(() => bot.stop());
  return { tg, bot, h, clock };
}

const auditEntries = (log: string): AuditEntry[] => readAudit(log).lines.map((l) => JSON.parse(l) as AuditEntry);
const sentTo = (chat: number) => (c: SentCall) => c.method === 'sendMessage' && c.body.chat_id === chat;
const textTo = (chat: number, re: RegExp) => (c: SentCall) => sentTo(chat)(c) && re.test(String(c.body.text));

/** Waits until the audit log holds an entry `match` accepts. */
async function auditHas(log: string, match: (e: AuditEntry) => boolean): Promise<AuditEntry> {
  for (let i = 0; i < 200; i++) {
    const hit = auditEntries(log).find(match);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no such audit entry in ${JSON.stringify(auditEntries(log).map((e) => e.action))}`);
}

describe('the Telegram bot', () => {
  it('ignores an unlisted user (logged) and runs the whole lifecycle for a listed one, each step audited', async () => {
    const s = await setup(() => ({ text: 'Hello from the stub.' }));
    s.tg.message(STRANGER, 'let me in');
    s.tg.message(USER, 'hello');
    await s.tg.waitFor(textTo(USER, /Hello from the stub/));
    expect(s.tg.calls.filter((c) => c.body.chat_id === STRANGER)).toEqual([]);
    const log = auditEntries(s.h.audit);
    expect(log.find((e) => e.subject === `user:${STRANGER}`)).toMatchObject({ action: 'telegram_auth', ok: false });
    await auditHas(s.h.audit, (e) => e.action === 'usage');
    const mine = auditEntries(s.h.audit).filter((e) => e.session.startsWith(`telegram-${USER}`));
    expect(mine.map((e) => e.action)).toEqual([
      'telegram_auth',
      'session',
      'skills',
      'prompt',
      'completion',
      'agent_detect',
      'telegram_reply',
      'route',
      'usage',
    ]);
    expect(mine.find((e) => e.action === 'usage')?.tokens).toEqual({ input: 30, output: 9 });
    expect(mine.find((e) => e.action === 'route')?.subject).toBe('local:ollama:llama-stub');
    expect(mine.find((e) => e.action === 'agent_detect')?.subject).toBe('default');
    expect(verifyAudit(s.h.audit).ok).toBe(true);
  });

  it('answers an allowed user in their private chat only, never in a group whose members would read it', async () => {
    const s = await setup(() => ({ text: 'Your notes say the door code is 4512.' }));
    s.tg.message(USER, 'what is the door code?', -100500);
    await auditHas(s.h.audit, (e) => e.action === 'telegram_auth' && e.session === 'telegram--100500' && !e.ok);
    s.tg.message(USER, 'what is the door code?');
    await s.tg.waitFor(textTo(USER, /door code/));
    expect(s.tg.calls.filter((c) => c.body.chat_id === -100500)).toEqual([]);
  });

  it('answers nobody when allowed_user_ids is empty', async () => {
    const s = await setup(() => ({ text: 'should never be sent' }), []);
    s.tg.message(USER, 'hello');
    await auditHas(s.h.audit, (e) => e.action === 'telegram_auth' && !e.ok);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.tg.calls.filter((c) => c.method === 'sendMessage')).toEqual([]);
  });

  it('splits a long answer into messages of at most 4,096 characters on paragraph boundaries', async () => {
    const paragraphs = Array.from({ length: 10 }, (_, i) => `Part ${i}: ${'lorem ipsum '.repeat(80).trim()}`);
    const s = await setup(() => ({ text: paragraphs.join('\n\n') }));
    s.tg.message(USER, 'tell me a long story');
    await auditHas(s.h.audit, (e) => e.action === 'telegram_reply');
    const texts = s.tg.calls.filter(sentTo(USER)).map((c) => String(c.body.text));
    expect(texts.length).toBe(3);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(4096);
    expect(texts.join('\n\n')).toBe(paragraphs.join('\n\n'));
  });
});

describe('confirmation by button', () => {
  const LAUNCH = { name: 'launch', input: { target: 'rocket' } };

  /** Asks for the dangerous tool and returns the Yes / No callback data of the question. */
  async function question(s: Setup): Promise<{ yes: string; no: string; messageId: number }> {
    s.tg.message(USER, 'launch the rocket');
    const q = await s.tg.waitFor((c) => sentTo(USER)(c) && c.body.reply_markup !== undefined);
    expect(String(q.body.text)).toMatch(/wants to run launch/);
    const [yes, no] = (q.body.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] }).inline_keyboard[0] ?? [];
    expect([yes?.text, no?.text]).toEqual(['Yes', 'No']);
    await auditHas(s.h.audit, (e) => e.action === 'usage');
    return { yes: yes?.callback_data ?? '', no: no?.callback_data ?? '', messageId: (q.result as { message_id: number }).message_id };
  }

  it('shows the whole input before the buttons, however long: a yes never approves a hidden tail', async () => {
    const target = `rocket ${'.'.repeat(6000)} ; and-the-hidden-tail`;
    const s = await setup(ollamaOneToolCall({ name: 'launch', input: { target } }, 'Launched.'));
    s.tg.message(USER, 'launch the rocket');
    await s.tg.waitFor((c) => sentTo(USER)(c) && c.body.reply_markup !== undefined);
    const texts = s.tg.calls.filter(sentTo(USER)).map((c) => String(c.body.text));
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(4096);
    expect(texts.join('')).toContain('and-the-hidden-tail');
    expect(texts.at(-1)).toMatch(/^That is the whole input of launch, above\.\nRun it\?/);
  });

  it('runs the tool only after Yes', async () => {
    const s = await setup(ollamaOneToolCall(LAUNCH, 'Launched.'));
    const q = await question(s);
    expect(s.h.launches()).toBe(0);
    const from = s.tg.calls.length;
    s.tg.press(USER, q.yes, q.messageId);
    await s.tg.waitFor(textTo(USER, /Launched\./), from);
    expect(s.h.launches()).toBe(1);
    expect(s.tg.calls.slice(from).find((c) => c.method === 'editMessageText')?.body).toMatchObject({
      message_id: q.messageId,
      text: 'Approved: running it.',
    });
    expect(s.tg.calls.slice(from).find((c) => c.method === 'answerCallbackQuery')?.body.text).toBe('Running it.');
  });

  it('does not run it after No, nor after a stranger presses Yes', async () => {
    const s = await setup(ollamaOneToolCall(LAUNCH, 'Not launched.'));
    const q = await question(s);
    s.tg.press(STRANGER, q.yes, q.messageId, USER);
    const from = s.tg.calls.length;
    s.tg.press(USER, q.no, q.messageId);
    await s.tg.waitFor(textTo(USER, /Not launched\./), from);
    expect(s.h.launches()).toBe(0);
    expect(auditEntries(s.h.audit).find((e) => e.action === 'confirmation')).toMatchObject({ subject: 'no', ok: false });
  });

  it("takes a Yes only under its own question: a button's key is random (a restarted bot's first question is no old one's), and pressed under another message it runs nothing", async () => {
    const s = await setup(ollamaOneToolCall(LAUNCH, 'Launched.'));
    const q = await question(s);
    expect(q.yes).toMatch(/^confirm:[0-9a-f]{16}:yes$/);
    const from = s.tg.calls.length;
    s.tg.press(USER, q.yes, q.messageId - 1);
    const ack = await s.tg.waitFor((c) => c.method === 'answerCallbackQuery', from);
    expect(String(ack.body.text)).toMatch(/closed/);
    expect(s.h.launches()).toBe(0);
    s.tg.press(USER, q.yes, q.messageId);
    await s.tg.waitFor(textTo(USER, /Launched\./), from);
    expect(s.h.launches()).toBe(1);
  });

  it('asks for the buttons, not a gateway call, when a message comes while a question waits', async () => {
    const s = await setup(ollamaOneToolCall(LAUNCH, 'Launched.'));
    await question(s);
    const from = s.tg.calls.length;
    s.tg.message(USER, 'and also this');
    await s.tg.waitFor(textTo(USER, /press Yes or No under the question above/), from);
    expect(s.h.launches()).toBe(0);
  });

  it('answers no when the question expires, says so under the question at once, and a late Yes runs nothing', async () => {
    const s = await setup(ollamaOneToolCall(LAUNCH, 'Launched.'));
    const q = await question(s);
    const asked = s.tg.calls.length;
    s.clock.t += 301_000;
    // Nobody pressed anything: the question itself now says it expired, without its buttons.
    const edited = await s.tg.waitFor((c) => c.method === 'editMessageText', asked);
    expect(edited.body).toMatchObject({ message_id: q.messageId, text: expect.stringMatching(/^Expired: nobody answered in time/) });
    expect(edited.body.reply_markup).toBeUndefined();
    const from = s.tg.calls.length;
    s.tg.press(USER, q.yes, q.messageId);
    const ack = await s.tg.waitFor((c) => c.method === 'answerCallbackQuery', from);
    expect(String(ack.body.text)).toMatch(/expired/i);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.h.launches()).toBe(0);
  });
});

describe('commands', () => {
  it('/status, /escalate, /local, /auto, /budget and /agents', async () => {
    const s = await setup(() => ({ text: 'unused' }));
    const ask = async (text: string, re: RegExp) => {
      const from = s.tg.calls.length;
      s.tg.message(USER, text);
      return String((await s.tg.waitFor(textTo(USER, re), from)).body.text);
    };
    expect(await ask('/status', /Session/)).toMatch(/Session: telegram-42-1\nRouting: auto/);
    await ask('hello', /unused/);
    expect(await ask('/status', /Session/)).toMatch(/This session: 30 in \/ 9 out tokens/);
    // No remote model here: /escalate changes nothing, and /status says so.
    await ask('/escalate', /No remote model is configured/);
    expect(await ask('/status', /Session/)).toMatch(/Routing: auto/);
    await ask('/local', /local model/);
    expect(await ask('/status', /Session/)).toMatch(/Routing: local/);
    await ask('/auto', /automatic/);
    expect(await ask('/budget', /Today/)).toMatch(/of \$5\.00 spent/);
    expect(await ask('/agents', /Agents/)).toMatch(/default/);
    expect(await ask('/frobnicate', /Unknown command/)).toMatch(/\/escalate/);
  });

  it('starts a new session after the idle time, ending the old one', async () => {
    const s = await setup(() => ({ text: 'unused' }));
    s.tg.message(USER, '/status');
    await s.tg.waitFor(textTo(USER, /telegram-42-1/));
    s.clock.t += 31 * 60_000;
    s.tg.message(USER, '/status');
    await s.tg.waitFor(textTo(USER, /telegram-42-2/));
    expect(auditEntries(s.h.audit).find((e) => e.action === 'session_end')?.session).toBe('telegram-42-1');
  });
});

describe('one poller per token', () => {
  it('a second bot on the same token stops with a message naming the other poller', async () => {
    const s = await setup(() => ({ text: 'unused' }));
    for (let i = 0; i < 100 && s.tg.pollers() === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(s.tg.pollers()).toBe(1);
    const second = new TelegramBot({
      settings: { token: '123:stub', tokenEnv: 'TG', allowedUserIds: [USER], idleMinutes: 30, apiRoot: s.tg.apiRoot },
      agent: telegramAgent({ store: s.h.store, env: {} }, s.h),
      auditLog: s.h.audit,
    });
    await expect(second.start().then(() => second.done)).rejects.toThrow(/Another poller is already using this bot token/);
    await second.stop();
  });
});

describe('TelegramNotifier', () => {
  it('sends a notification to every allowed user', async () => {
    const s = await setup(() => ({ text: 'unused' }), [USER, 43]);
    await s.bot.notifier.notify({ text: 'The heartbeat says hi.', source: 'heartbeat' });
    const sent = s.tg.calls.filter((c) => c.method === 'sendMessage');
    expect(sent.map((c) => c.body.chat_id)).toEqual([USER, 43]);
    expect(String(sent[0]?.body.text)).toMatch(/The heartbeat says hi\.[\s\S]*heartbeat/);
  });
});
