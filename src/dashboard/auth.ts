/**
 * Who may use the dashboard: whoever opened the login link the command printed. The link
 * carries a one-time token in its fragment (never sent to a server, never in a log); the page
 * posts it once and gets a session cookie (HttpOnly, SameSite=Strict) in exchange, and the
 * token is spent. Sessions live in this process only: stopping the dashboard signs everyone out.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'homunculus_session';
/** A login link not used within this long is void. */
const LOGIN_TTL_MS = 10 * 60_000;
/** A session idle this long is over. */
const SESSION_IDLE_MS = 12 * 60 * 60_000;

/** A secret as a fixed-length digest, so comparing two takes the same time whatever they hold. */
const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const sameSecret = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

export class LoginGate {
  private readonly logins: { digest: Buffer; expires: number }[] = [];
  private readonly sessions = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new one-time login token. */
  issueLogin(): string {
    const token = randomBytes(32).toString('base64url');
    this.logins.push({ digest: digest(token), expires: this.now() + LOGIN_TTL_MS });
    return token;
  }

  /** Spends a login token for a session id, or undefined when it is unknown, used or expired. */
  exchange(token: unknown): string | undefined {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{32,128}$/.test(token)) return undefined;
    const given = digest(token);
    const at = this.logins.findIndex((l) => sameSecret(l.digest, given));
    if (at < 0) return undefined;
    const [login] = this.logins.splice(at, 1);
    if (!login || login.expires < this.now()) return undefined;
    const session = randomBytes(32).toString('base64url');
    this.sessions.set(digest(session).toString('hex'), this.now());
    return session;
  }

  /** Whether a session cookie's value is a live session (and keeps it alive). */
  holds(session: string | undefined): boolean {
    if (!session) return false;
    const key = digest(session).toString('hex');
    const seen = this.sessions.get(key);
    if (seen === undefined) return false;
    if (this.now() - seen > SESSION_IDLE_MS) {
      this.sessions.delete(key);
      return false;
    }
    this.sessions.set(key, this.now());
    return true;
  }

  end(session: string | undefined): void {
    if (session) this.sessions.delete(digest(session).toString('hex'));
  }
}
