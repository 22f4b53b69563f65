/**
 * Who may use the dashboard: whoever opened the login link the command printed. The link
 * carries a one-time token in its fragment (never sent to a server, never in a log); the page
 * posts it once and gets a session in two halves: a cookie (HttpOnly, SameSite=Strict, named
 * after the port) and a key the page keeps in its origin's localStorage and sends as a header.
 * A browser sends 127.0.0.1's cookies to every port, so any other local server the user opens
 * receives the cookie; it never sees the key, which other ports' pages cannot read. Sessions
 * live in this process only: stopping the dashboard signs everyone out.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie's name: one per port, so two dashboards do not sign each other out. */
export const sessionCookie = (port: number): string => `homunculus_session_${port}`;
/** The header that carries the session's other half. */
export const SESSION_KEY_HEADER = 'x-homunculus-key';
/** A login link not used within this long is void. */
const LOGIN_TTL_MS = 10 * 60_000;
/** A session idle this long is over. */
const SESSION_IDLE_MS = 12 * 60 * 60_000;

/** A secret as a fixed-length digest, so comparing two takes the same time whatever they hold. */
const digest = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const sameSecret = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** The header with which `homunculus dashboard`, run again, asks the running one for a new login link. */
export const RELINK_HEADER = 'x-homunculus-relink';

export class LoginGate {
  private readonly logins: { digest: Buffer; expires: number }[] = [];
  private readonly sessions = new Map<string, { seen: number; key: Buffer }>();
  /**
   * What `homunculus dashboard`, run again by the same user, sends for a new login link: kept in
   * a file only that user reads (`dashboard-<port>.key` in the home), as the login page is.
   */
  readonly relinkKey = randomBytes(32).toString('base64url');

  constructor(private readonly now: () => number = Date.now) {}

  /** A new one-time login token for the holder of `relinkKey`, or undefined for anyone else. */
  relink(given: string | undefined): string | undefined {
    return given !== undefined && sameSecret(digest(given), digest(this.relinkKey)) ? this.issueLogin() : undefined;
  }

  /** A new one-time login token. */
  issueLogin(): string {
    const token = randomBytes(32).toString('base64url');
    this.logins.push({ digest: digest(token), expires: this.now() + LOGIN_TTL_MS });
    return token;
  }

  /** Spends a login token for a session (the cookie's value and the header's key), or undefined when it is unknown, used or expired. */
  exchange(token: unknown): { session: string; key: string } | undefined {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{32,128}$/.test(token)) return undefined;
    const given = digest(token);
    const at = this.logins.findIndex((l) => sameSecret(l.digest, given));
    if (at < 0) return undefined;
    const [login] = this.logins.splice(at, 1);
    if (!login || login.expires < this.now()) return undefined;
    const session = randomBytes(32).toString('base64url');
    const key = randomBytes(32).toString('base64url');
    this.sessions.set(digest(session).toString('hex'), { seen: this.now(), key: digest(key) });
    return { session, key };
  }

  /**
   * Whether a cookie and its key are a live session (and keeps it alive). `key: null` asks for
   * the cookie alone: only the change stream, which an EventSource cannot send a header with.
   */
  holds(session: string | undefined, key: string | undefined | null): boolean {
    if (!session) return false;
    const id = digest(session).toString('hex');
    const held = this.sessions.get(id);
    if (held === undefined) return false;
    if (this.now() - held.seen > SESSION_IDLE_MS) {
      this.sessions.delete(id);
      return false;
    }
    if (key !== null && (key === undefined || !sameSecret(digest(key), held.key))) return false;
    held.seen = this.now();
    return true;
  }

  end(session: string | undefined): void {
    if (session) this.sessions.delete(digest(session).toString('hex'));
  }
}
