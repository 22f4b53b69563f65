/** The Neural section's smaller parts: the legend, the community buttons, the keyboard-reachable list of drawn entities. */
import type { GraphViewData, NeuralNode } from './api-neural.js';
import { TYPE_COLOURS } from './neural-draw.js';

/** The list beside the canvas; the search narrows it to the rest. */
const LISTED = 200;

export function Legend({ nodes }: { nodes: readonly NeuralNode[] }) {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.type, (counts.get(n.type) ?? 0) + 1);
  return (
    <ul id="neural-legend" aria-label="Legend">
      {Object.entries(TYPE_COLOURS).map(([type, colour]) => (
        <li key={type}>
          <span className="neural-swatch" style={{ background: colour }} aria-hidden="true" /> {type.replace('_', ' ')} (
          {counts.get(type) ?? 0})
        </li>
      ))}
      <li>
        <span className="neural-swatch neural-ring" aria-hidden="true" /> ring: new in the 48 hours before the date
      </li>
      <li>size: how many facts touch it</li>
    </ul>
  );
}

export function EntityList({
  nodes,
  selected,
  onOpen,
}: {
  nodes: readonly NeuralNode[];
  selected: number | undefined;
  onOpen(node: NeuralNode): void;
}) {
  return (
    <>
      <h3>Entities drawn</h3>
      {nodes.length > LISTED && (
        <p className="neural-muted">
          This list holds the {LISTED} most activated of the {nodes.length} drawn; search for the others.
        </p>
      )}
      <ul id="neural-list">
        {nodes.slice(0, LISTED).map((n) => (
          <li key={n.id}>
            <button type="button" data-entity={n.id} aria-pressed={selected === n.id} onClick={() => onOpen(n)}>
              {n.name}
            </button>{' '}
            <span className="neural-muted">
              {n.type.replace('_', ' ')}, {n.degree} {n.degree === 1 ? 'fact' : 'facts'}
              {n.recent ? ', new' : ''}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function Communities({ data, expand, setExpand }: { data: GraphViewData; expand: number[]; setExpand(e: number[]): void }) {
  if (data.hidden_communities.length === 0 && expand.length === 0) return null;
  return (
    <div id="neural-communities">
      <span>Hidden by the {data.nodes.length}-entity cap: </span>
      {data.hidden_communities.slice(0, 8).map((c) => (
        <button key={c.id} type="button" onClick={() => setExpand([...expand, c.id])}>
          Expand community {c.name} (+{c.hidden})
        </button>
      ))}
      {expand.length > 0 && (
        <button type="button" onClick={() => setExpand([])}>
          Collapse expanded communities
        </button>
      )}
    </div>
  );
}
