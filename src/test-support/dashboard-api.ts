/** The dashboard's HTTP API in a test: the server on 127.0.0.1 over a store, signed in once. */
import { type DashboardHandle, startDashboard } from '../dashboard/server.js';
import type { Store } from '../store/store.js';

/** Starts the dashboard over `store` and signs in with a one-time login token: the session cookie to send. */
export async function signedInDashboard(store: Store): Promise<{ dash: DashboardHandle; cookie: string }> {
  const dash = await startDashboard({ store, env: {} }, 0);
  const res = await fetch(`${dash.url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: dash.url },
    body: JSON.stringify({ token: dash.gate.issueLogin() }),
  });
  return { dash, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] as string };
}
