/** An in-process store on a temporary home with a clock the test moves by hand. */
import { type Clock, fixedClock } from '../core/clock.js';
import { type Store, openStore } from '../store/store.js';
import { tempDir } from './cli.js';

export interface TestStore extends Store {
  setNow(iso: string): void;
  advanceDays(days: number): void;
  cleanup(): void;
}

export function testStore(startIso = '2026-01-01T00:00:00.000Z'): TestStore {
  const dir = tempDir();
  let now = new Date(startIso);
  const clock: Clock = { now: () => new Date(now.getTime()) };
  const store = openStore({ home: dir.path, clock });
  return {
    ...store,
    setNow: (iso) => (now = new Date(iso)),
    advanceDays: (days) => (now = new Date(now.getTime() + days * 86_400_000)),
    cleanup: () => {
      store.close();
      dir.cleanup();
    },
  };
}

/** Runs `fn` on the store of `home` (as the hooks there see it, the clock at `at`), closed after. */
export function withHomeStore<T>(home: string, at: string, fn: (store: Store) => T): T {
  const store = openStore({ home, clock: fixedClock(at) });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}
