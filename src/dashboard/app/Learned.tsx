/** Everything learned: every instinct, with a strong / weak / wrong correction and the changes by hand on each. */
import { useCallback, useEffect, useState } from 'react';
import { InstinctTable } from './InstinctTable.js';
import { type Instinct, api, type Say } from './api.js';
import { MoreRows, pageOf } from './MoreRows.js';

export function Learned({ version, say }: { version: number; say: Say }) {
  const [instincts, setInstincts] = useState<Instinct[]>([]);
  const [more, setMore] = useState(false);
  const [limit, setLimit] = useState(500);

  const load = useCallback(async () => {
    const page = pageOf((await api<{ instincts: Instinct[] }>(`/api/instincts?limit=${limit + 1}`)).instincts, limit);
    setInstincts(page.rows);
    setMore(page.more);
  }, [limit]);

  useEffect(() => {
    load().catch((err: Error) => say(err.message, true));
  }, [version, load, say]);

  return (
    <section aria-labelledby="instincts-title">
      <h2 id="instincts-title">What it learned</h2>
      <InstinctTable id="instincts" instincts={instincts} say={say} reload={load} />
      <MoreRows
        shown={instincts.length}
        more={more}
        all="homunculus list --limit 100000"
        {...(limit < 4999 ? { upTo: 4999, onAll: () => setLimit(4999) } : {})}
      />
    </section>
  );
}
