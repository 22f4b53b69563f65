/**
 * Notifications on their way to a Notifier: held during the quiet hours (in the user's time
 * zone) and past the hourly rate limit, in SQLite so a restart keeps them, and delivered in
 * order once both allow. A notifier that fails keeps the message held for the next flush.
 */
import type { Clock } from '../../core/clock.js';
import type { ScheduleRepository } from '../../store/schedule.js';
import { appendAudit } from '../audit.js';
import type { Notification, Notifier } from '../notifier.js';
import type { NotificationsConfig, QuietHours } from './config.js';
import { quietUntil } from './cron.js';

const HOUR_MS = 3_600_000;

export interface QueueOptions {
  repo: Pick<ScheduleRepository, 'hold' | 'held' | 'markSent' | 'sentSince' | 'pruneSent'>;
  notifier: Notifier;
  clock: Clock;
  quietHours?: QuietHours | undefined;
  limits: NotificationsConfig;
}

export type SendOutcome = 'sent' | 'held';

export class NotificationQueue {
  constructor(private readonly o: QueueOptions) {}

  /** Why nothing may be delivered now (quiet hours, rate limit); undefined when something may. */
  blocked(): string | undefined {
    const now = this.o.clock.now();
    const until = quietUntil(now, this.o.quietHours);
    if (until) return `quiet hours until ${until.toISOString()}`;
    const sent = this.o.repo.sentSince(new Date(now.getTime() - HOUR_MS).toISOString());
    if (sent >= this.o.limits.perHour) return `rate limit: ${sent} sent in the last hour (agent.notifications.perHour)`;
    return undefined;
  }

  /** Delivers now when allowed and nothing older waits; otherwise keeps it for a later flush. */
  async send(message: Notification): Promise<SendOutcome> {
    const created = this.o.clock.now().toISOString();
    if (this.blocked() || this.o.repo.held().length > 0) {
      this.o.repo.hold({ ...message, created_at: created });
      return 'held';
    }
    if (await this.deliver(message)) {
      this.o.repo.markSent({ ...message, created_at: created }, this.o.clock.now().toISOString());
      return 'sent';
    }
    this.o.repo.hold({ ...message, created_at: created });
    return 'held';
  }

  /** Delivers held notifications, oldest first, while quiet hours and the rate limit allow; returns how many. */
  async flush(): Promise<number> {
    this.o.repo.pruneSent(new Date(this.o.clock.now().getTime() - 2 * HOUR_MS).toISOString());
    let delivered = 0;
    for (const held of this.o.repo.held()) {
      if (this.blocked()) break;
      if (!(await this.deliver({ text: held.text, source: held.source }))) break;
      this.o.repo.markSent(held, this.o.clock.now().toISOString());
      delivered++;
    }
    return delivered;
  }

  private async deliver(message: Notification): Promise<boolean> {
    try {
      await this.o.notifier.notify(message);
      return true;
    } catch {
      return false;
    }
  }
}

/** The notifier without Telegram: each message goes to the audit log (its hash) and to stdout (its text). */
export class LogNotifier implements Notifier {
  constructor(
    private readonly auditLog: string,
    private readonly write: (line: string) => void = (line) => void process.stdout.write(line),
  ) {}

  notify(message: Notification): Promise<void> {
    appendAudit(this.auditLog, {
      action: 'notification',
      session: 'scheduler',
      subject: message.source,
      input: message.source,
      output: message.text,
      durationMs: 0,
    });
    this.write(`[${message.source}] ${message.text}\n`);
    return Promise.resolve();
  }
}
