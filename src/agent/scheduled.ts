/**
 * The scheduler's sessions: their messages are a job's, not a person's words, and nobody is
 * there to answer a confirmation. Their ids hold a `/`, which the surfaces' session ids refuse.
 */
export const SCHEDULED_PREFIX = 'scheduler/';

export const isScheduled = (session: string): boolean => session.startsWith(SCHEDULED_PREFIX);
