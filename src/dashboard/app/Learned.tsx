/** Everything learned: every instinct, with a strong / weak / wrong correction and the changes by hand on each. */
import { useCallback, useEffect, useState } from 'react';
import { InstinctTable } from './InstinctTable.js';
import { type Instinct, api, type Say } from './api.js';
import { MoreRows, pageOf } from './MoreRows.js';

export function Learned({ version, say }: { version: number; say: Say }) {
  const [instincts, setInstincts] = useState<Instinct[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [more, setMore] = useState(false);
  const [limit, setLimit] = useState(500);
  const [typed, setTyped] = useState('');
  // The words the list was last asked for: Find searches the whole store, not the rows shown.
  const [found, setFound] = useState('');

  const load = useCallback(async () => {
    const find = found ? `&find=${encodeURIComponent(found)}` : '';
    const page = pageOf((await api<{ instincts: Instinct[] }>(`/api/instincts?limit=${limit + 1}${find}`)).instincts, limit);
    setInstincts(page.rows);
    setMore(page.more);
    setLoaded(true);
  }, [limit, found]);

  // Asked once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => setFound(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);

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
      {found && (
        <p className="note" role="status">
          {more ? `More than ${instincts.length}` : instincts.length} of all the rules learned{' '}
          {instincts.length === 1 && !more ? 'holds' : 'hold'} “{found}”.
        </p>
      )}
      {loaded && !found && instincts.length === 0 ? (
        // An empty table says nothing: say what makes something learned.
        <p id="instincts-empty">
          Nothing learned yet. Run <code>homunculus sync</code> to learn from your Claude Code history, or{' '}
          <code>homunculus init --claude</code> (or <code>--codex</code>, <code>--gemini</code>, <code>--cursor</code>) to learn from every
          session from now on; <code>homunculus observe</code> records a rule by hand.
        </p>
      ) : (
        <InstinctTable id="instincts" instincts={instincts} say={say} reload={load} />
      )}
      <MoreRows
        shown={instincts.length}
        more={more}
        all="homunculus list --limit 100000"
        {...(limit < 4999 ? { upTo: 4999, onAll: () => setLimit(4999) } : {})}
      />
    </section>
  );
}
