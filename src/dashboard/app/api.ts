/** The dashboard server's API as the page calls it: JSON in and out, the server's error message on failure. */

export interface Instinct {
  pattern: string;
  trigger: string;
  action: string;
  confidence: number;
  evidence: number;
  /** Promoted to a conviction. */
  conviction: boolean;
  /** The user's latest verdict on it (the lists carry it; a project's view may not). */
  verdict?: Verdict | null;
}

/** What the store holds, as counts (the header's line and the Overview's figures). */
export interface Overview {
  total: number;
  bands: Record<'strong' | 'moderate' | 'tentative' | 'faded', number>;
  convictions: number;
  observations: number;
  pending_observations: number;
}

export interface SessionLine {
  id: string;
  source: string;
  project_name: string;
  started_at: string | null;
  ended_at: string | null;
  tool_calls: number;
  summary: string;
}

export interface FeedbackResult {
  pattern: string;
  before: number;
  after: number;
  /** Said when the mark changed nothing a user would expect it to (weak at the floor). */
  note?: string;
}

export type Verdict = 'strong' | 'weak' | 'wrong';

/** What a section tells the user: what it did, or (error) what went wrong. */
export type Say = (message: string, error?: boolean) => void;

/** "1 conviction", "3 convictions". */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** An instinct as a reader tells it apart (ten rules of one linter share a trigger, not an action): never its internal key. */
export const ruleLabel = (o: Instinct): string => {
  const action = o.action.replace(/\s+/g, ' ').trim();
  return `${o.trigger}: ${action.length > 90 ? `${action.slice(0, 89)}…` : action}`;
};

/** Where the page keeps its half of the session: this origin's storage, which no page of another port can read. */
const KEY_ITEM = 'homunculus-key';

const NOT_ANSWERING =
  'The dashboard server does not answer: it may have stopped. Start it again (homunculus dashboard) and open the link it prints.';

export async function api<T>(path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Homunculus-Key': localStorage.getItem(KEY_ITEM) ?? '' };
  const init: RequestInit =
    body === undefined
      ? { headers }
      : { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    // The browser says only "Failed to fetch": the server stopped, or the network between went away.
    throw new ApiError(NOT_ANSWERING, 0);
  }
  const data = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new ApiError(data.error ?? res.statusText, res.status);
  return data as T;
}

/** A refused request, with its HTTP status (401: not signed in). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The login link's token (in the fragment, never sent in a request line): taken out of the
 * address bar and the history entry first, then posted once for the session: its cookie, and
 * its key kept in this origin's storage.
 */
export async function signIn(): Promise<void> {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (!token) return;
  window.history.replaceState(null, '', '/');
  const { key } = await api<{ key: string }>('/api/session', { token });
  localStorage.setItem(KEY_ITEM, key);
}

/** Ends the session on the server and forgets this page's key. */
export async function signOut(): Promise<void> {
  await api('/api/logout', {}).catch(() => undefined);
  localStorage.removeItem(KEY_ITEM);
}

export interface ProjectActivity {
  project: string;
  project_name: string;
  sessions: number;
  last_active: string;
  /** Instincts learned in it (its own, not the global ones). */
  instincts: number;
}

export interface ProjectView {
  project: ProjectActivity;
  instincts: Instinct[];
  convictions: { pattern: string; title: string; rule: string }[];
  injected: string;
}

/**
 * For an effect that loads what the user chose: `use` gets the answer only while the choice
 * stands. An answer to a choice made before is dropped (it may arrive after the latest one's).
 * Returns the effect's cleanup.
 */
export function latestOnly<T>(load: Promise<T>, use: (answer: T) => void, fail: (err: Error) => void): () => void {
  let stale = false;
  load.then(
    (answer) => !stale && use(answer),
    (err: Error) => !stale && fail(err),
  );
  return () => {
    stale = true;
  };
}
