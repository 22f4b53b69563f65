/** The dashboard's HTTP API in a test: the server on 127.0.0.1 over a store, signed in once. */
import { type DashboardHandle, startDashboard } from '../dashboard/server.js';
import type { Store } from '../store/store.js';

/** Signs in on `url` with a one-time login token: the headers a signed-in page sends (the cookie and the key). */
export async function signInHeaders(url: string, token: string): Promise<{ Cookie: string; 'X-Homunculus-Key': string }> {
  const res = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify({ token }),
  });
  const { key } = (await res.json()) as { key: string };
  return { Cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] as string, 'X-Homunculus-Key': key };
}

/** Starts the dashboard over `store` and signs in: `auth` holds the headers every API request sends. */
export async function signedInDashboard(store: Store): Promise<{ dash: DashboardHandle; auth: Record<string, string> }> {
  const dash = await startDashboard({ store, env: {} }, 0);
  return { dash, auth: await signInHeaders(dash.url, dash.gate.issueLogin()) };
}
