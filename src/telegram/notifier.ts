/** Delivers the agent's own messages (the scheduler's notifications) to every allowed Telegram user. */
import type { Notification, Notifier } from '../agent/notifier.js';
import { splitMessage } from '../agent/telegram.js';
import { HomunculusError } from '../core/errors.js';

/** The one Bot API call a notifier needs (grammY's `bot.api` has it). */
export interface MessageSender {
  sendMessage(chatId: number, text: string): Promise<unknown>;
}

export class TelegramNotifier implements Notifier {
  constructor(
    private readonly api: MessageSender,
    private readonly allowedUserIds: readonly number[],
  ) {}

  /** Rejects when nobody is allowed or a send fails, so the scheduler keeps the message for later. */
  async notify(message: Notification): Promise<void> {
    if (this.allowedUserIds.length === 0)
      throw new HomunculusError('telegram', 'No Telegram user may receive notifications: agent.telegram.allowed_user_ids is empty.', {
        hint: 'Add your Telegram user id to agent.telegram.allowed_user_ids in config.json.',
      });
    const parts = splitMessage(`${message.text}\n\n(${message.source})`);
    // A private chat's id is its user's id.
    for (const user of this.allowedUserIds) for (const part of parts) await this.api.sendMessage(user, part);
  }
}
