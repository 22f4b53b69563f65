/** Everything learned: every instinct, with a strong / weak / wrong correction and the changes by hand on each. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { InstinctTable } from './InstinctTable.js';
import { type Instinct, api, type Say } from './api.js';
import { MoreRows, pageOf } from './MoreRows.js';

/** The instincts whose trigger or action holds every word typed (any case). Pure. */
export function findInstincts(instincts: readonly Instinct[], typed: string): readonly Instinct[] {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return instincts;
  return instincts.filter((o) => {
    const text = `${o.trigger} ${o.action}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

export function Learned({ version, say }: { version: number; say: Say }) {
  const [instincts, setInstincts] = useState<Instinct[]>([]);
  const [more, setMore] = useState(false);
  const [limit, setLimit] = useState(500);
  const [typed, setTyped] = useState('');
  const found = useMemo(() => findInstincts(instincts, typed), [instincts, typed]);

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
      <label>
        Find{' '}
        <input id="instincts-find" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="words of a rule" />
      </label>
      {typed.trim() && (
        <p className="note" role="status">
          {found.length} of the {instincts.length} shown hold “{typed.trim()}”.
        </p>
      )}
      <InstinctTable id="instincts" instincts={found} say={say} reload={load} />
      <MoreRows
        shown={instincts.length}
        more={more}
        all="homunculus list --limit 100000"
        {...(limit < 4999 ? { upTo: 4999, onAll: () => setLimit(4999) } : {})}
      />
    </section>
  );
}
