/** One correction at a time: a second click while the first is on its way is ignored (it would apply twice, or fail as already done). */
import { useRef, useState } from 'react';

export function useOneAtATime(): { busy: boolean; once: (fn: () => Promise<void>) => Promise<void> } {
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const once = async (fn: () => Promise<void>): Promise<void> => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      await fn();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return { busy, once };
}
