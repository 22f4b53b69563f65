/**
 * Neural: the tier map and the knowledge graph as it was at a date. Past 2,000 entities the
 * most activated are drawn and each community says how many it hides. Everything the canvas
 * offers is also reachable from the keyboard: the list of drawn entities opens the same panel.
 */
import { useEffect, useMemo, useState } from 'react';
import { type GraphViewData, type ViewQuery, loadView } from './api-neural.js';
import { NeuralDetail, type Selection } from './NeuralDetail.js';
import { NeuralGraph } from './NeuralGraph.js';
import { NeuralTiers } from './NeuralTiers.js';
import { Communities, EntityList, Legend } from './NeuralParts.js';
import type { Say } from './api.js';

const DAY_MS = 86_400_000;
const TYPING_MS = 300;

/** The slider's days: from the first fact's day to today. */
export function dayRange(oldest: string | undefined, now: number): { start: number; days: number } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const start = oldest ? Math.floor(Date.parse(oldest) / DAY_MS) * DAY_MS : today;
  return { start, days: Math.max(0, Math.round((today - start) / DAY_MS)) };
}

/** The end of the day `offset` days after `start`: that day's facts count. */
const endOfDay = (start: number, offset: number) => new Date(start + (offset + 1) * DAY_MS - 1).toISOString();

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The view for the query, loaded again when it or `reload` changes; the oldest fact's day is handed up for the slider. */
function useGraphView(query: ViewQuery, reload: number, setOldest: (oldest: string) => void) {
  const [data, setData] = useState<GraphViewData | undefined>();
  const [error, setError] = useState('');
  const { at, q, expand } = query;
  useEffect(() => {
    let current = true;
    loadView({ at, q, expand })
      .then((view) => {
        if (!current) return;
        setError('');
        setData(view);
        if (view.range) setOldest(view.range.oldest);
      })
      .catch((err: Error) => current && setError(err.message));
    return () => {
      current = false;
    };
  }, [at, q, expand, reload, setOldest]);
  return { data, error };
}

export function Neural({ version, say }: { version: number; say: Say }) {
  const [oldest, setOldest] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState<number | undefined>();
  const [expand, setExpand] = useState<number[]>([]);
  const [selection, setSelection] = useState<Selection | undefined>();
  const [recenter, setRecenter] = useState(0);
  // A change elsewhere in the store does not redraw the graph under the user's eyes (a
  // session writes every few seconds): it offers a reload, which takes the latest version.
  const [loadedVersion, setLoadedVersion] = useState(version);
  const q = useDebounced(search.trim(), TYPING_MS);
  const day = useDebounced(offset, TYPING_MS);
  const range = useMemo(() => dayRange(oldest, Date.now()), [oldest]);
  const at = day === undefined || day >= range.days ? undefined : endOfDay(range.start, day);

  const { data, error } = useGraphView({ at, q, expand }, loadedVersion, setOldest);

  const openNode = (n: { id: number; name: string }) => setSelection({ kind: 'entity', id: n.id, name: n.name });
  const shownDay = (at ?? data?.at ?? '').slice(0, 10);
  return (
    <section aria-labelledby="neural-title" id="neural">
      <h2 id="neural-title">Neural: the knowledge graph</h2>
      {error && <p role="alert">{error}</p>}
      {data && <NeuralTiers tiers={data.tiers} day={data.at.slice(0, 10)} />}
      <div id="neural-controls">
        <label>
          Search entities{' '}
          <input id="neural-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="name" />
        </label>
        <label>
          As of <output id="neural-date">{shownDay}</output>{' '}
          <input
            id="neural-slider"
            type="range"
            min={0}
            max={range.days}
            step={1}
            value={offset ?? range.days}
            aria-valuetext={shownDay}
            onChange={(e) => setOffset(Number(e.target.value))}
          />
        </label>
        <button type="button" onClick={() => setRecenter((r) => r + 1)}>
          Recenter
        </button>
        {version !== loadedVersion && (
          <button type="button" id="neural-reload" onClick={() => setLoadedVersion(version)}>
            The store changed: reload the graph
          </button>
        )}
      </div>
      {data && (
        <p id="neural-counts" aria-live="polite">
          Showing {data.nodes.length} of {data.total_nodes} entities and {data.links.length} of {data.total_links} facts true on {shownDay}.
        </p>
      )}
      {data && data.nodes.length === 0 && <p>No facts were held then{q ? ` about “${q}”` : ''}.</p>}
      {data && <Communities data={data} expand={expand} setExpand={setExpand} />}
      {data && (
        <div id="neural-body">
          <div id="neural-graph">
            <NeuralGraph
              nodes={data.nodes}
              links={data.links}
              selectedNode={selection?.kind === 'entity' ? selection.id : undefined}
              selectedLink={selection?.kind === 'fact' ? selection.id : undefined}
              onNode={openNode}
              onLink={(l) => setSelection({ kind: 'fact', id: l.id })}
              recenter={recenter}
            />
            <Legend nodes={data.nodes} />
          </div>
          <aside id="neural-side" aria-label="Entities and details">
            {selection && (
              <div id="neural-detail" aria-live="polite">
                <NeuralDetail selection={selection} onSelect={setSelection} say={say} />
              </div>
            )}
            <EntityList nodes={data.nodes} selected={selection?.kind === 'entity' ? selection.id : undefined} onOpen={openNode} />
          </aside>
        </div>
      )}
    </section>
  );
}
