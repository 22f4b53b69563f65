/** Everything learned: every instinct, with a strong / weak / wrong correction and the changes by hand on each. */
import { useCallback, useEffect, useState } from 'react';
import { InstinctTable } from './InstinctTable.js';
import { type Instinct, api, type Say } from './api.js';

export function Learned({ version, say }: { version: number; say: Say }) {
  const [instincts, setInstincts] = useState<Instinct[]>([]);

  const load = useCallback(async () => {
    setInstincts((await api<{ instincts: Instinct[] }>('/api/instincts?limit=500')).instincts);
  }, []);

  useEffect(() => {
    load().catch((err: Error) => say(err.message, true));
  }, [version, load, say]);

  return (
    <section aria-labelledby="instincts-title">
      <h2 id="instincts-title">What it learned</h2>
      <InstinctTable id="instincts" instincts={instincts} say={say} reload={load} />
    </section>
  );
}
