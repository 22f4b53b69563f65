/**
 * A correction sent to the server, one at a time: a second click while the first is on its way
 * is ignored (it would apply twice, or fail as already done). What it did, or what went wrong,
 * is said; then what is shown reloads.
 */
import { useRef, useState } from 'react';
import { api, type Say } from './api.js';

export function useCorrection(say: Say, changed: () => Promise<void> | void) {
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  /** Posts `body` to `path`; on success `done` runs first (a form closes), then `message` of the answer is said. */
  const correct = async <T>(path: string, body: object, message: (r: T) => string, done?: () => void): Promise<void> => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const r = await api<T>(path, body);
      done?.();
      say(message(r));
      await changed();
    } catch (err) {
      say((err as Error).message, true);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return { busy, correct };
}
