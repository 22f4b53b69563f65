/**
 * Where the agent's own messages go when nobody asked (the scheduler's heartbeat, a job's
 * result): Telegram when it is configured, else the audit log and the terminal. The scheduler
 * holds them during quiet hours and rate-limits them before they reach a notifier.
 */
export interface Notification {
  text: string;
  /** The job or heartbeat task that produced it. */
  source: string;
  /** The job or task failed; `text` says why. */
  failed?: true;
}

export interface Notifier {
  /** Delivers one message now; rejects when it could not (the caller keeps it for later). */
  notify(message: Notification): Promise<void>;
}
