/** The Neural section's side panel: an entity with its facts in the order they became true, or one fact. */
import { useEffect, useState } from 'react';
import { latestOnly, type Say } from './api.js';
import { type GraphFact, loadFact, loadTimeline } from './api-neural.js';
import { FactActions } from './FactActions.js';

export type Selection = { kind: 'entity'; id: number; name: string } | { kind: 'fact'; id: number };

/** A long timeline shows its latest facts; the DOM stays small for hubs with thousands. */
const SHOWN_FACTS = 100;

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** Whether the graph still holds the fact, and until when it was true. */
export function standing(f: GraphFact): string {
  if (f.expired_at) return `no longer held since ${day(f.expired_at)}${f.expired_reason ? ` (${f.expired_reason})` : ''}`;
  return f.invalid_at ? `true until ${day(f.invalid_at)}` : 'current';
}

interface Props {
  selection: Selection;
  onSelect(selection: Selection): void;
  say: Say;
}

export function NeuralDetail({ selection, onSelect, say }: Props) {
  const [facts, setFacts] = useState<GraphFact[] | undefined>();
  const [fact, setFact] = useState<GraphFact | undefined>();
  const [error, setError] = useState('');
  // Bumped after a correction, so the fact is read again with its new standing.
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    setError('');
    setFacts(undefined);
    setFact(undefined);
    const fail = (err: Error) => setError(err.message);
    return selection.kind === 'entity'
      ? latestOnly(loadTimeline(selection.id), (t) => setFacts(t.facts), fail)
      : latestOnly(loadFact(selection.id), setFact, fail);
  }, [selection, revision]);

  if (error) return <p role="alert">{error}</p>;
  if (selection.kind === 'fact')
    return fact ? (
      <>
        <FactDetail fact={fact} onSelect={onSelect} />
        {fact.expired_at === null && <FactActions fact={fact} say={say} changed={() => setRevision((r) => r + 1)} />}
      </>
    ) : (
      <p>Loading…</p>
    );
  const shown = facts?.slice(-SHOWN_FACTS) ?? [];
  return (
    <>
      <h3 id="neural-detail-title">{selection.name}</h3>
      {!facts ? (
        <p>Loading…</p>
      ) : (
        <>
          <p id="neural-detail-count">
            {facts.length} {facts.length === 1 ? 'fact' : 'facts'}, in the order they became true
            {facts.length > SHOWN_FACTS ? ` (the latest ${SHOWN_FACTS} shown)` : ''}.
          </p>
          <ol id="neural-timeline">
            {shown.map((f) => (
              <li key={f.id}>
                <time dateTime={f.valid_at}>{day(f.valid_at)}</time> {f.source} <em>{f.relation.replaceAll('_', ' ')}</em> {f.target}:{' '}
                {f.description} <span className="neural-muted">({standing(f)})</span>{' '}
                <button type="button" onClick={() => onSelect({ kind: 'fact', id: f.id })} aria-label={`Fact ${f.id}: ${f.description}`}>
                  details
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}

function FactDetail({ fact, onSelect }: { fact: GraphFact; onSelect(selection: Selection): void }) {
  const entity = (id: number, name: string) => (
    <button type="button" onClick={() => onSelect({ kind: 'entity', id, name })}>
      {name}
    </button>
  );
  return (
    <>
      <h3 id="neural-detail-title">
        Fact: {fact.source} {fact.relation.replaceAll('_', ' ')} {fact.target}
      </h3>
      <p>{fact.description}</p>
      <dl id="neural-fact">
        <dt>Relation</dt>
        <dd>{fact.relation}</dd>
        <dt>Confidence</dt>
        <dd>{fact.confidence.toFixed(2)}</dd>
        <dt>True</dt>
        <dd>
          from {day(fact.valid_at)} {fact.invalid_at ? `until ${day(fact.invalid_at)}` : 'until now'}
        </dd>
        <dt>Held by the graph</dt>
        <dd>
          since {day(fact.created_at)}, {standing(fact)}
        </dd>
        <dt>Memory</dt>
        <dd>
          {fact.memory_type}, from {fact.origin}, revised {fact.reconsolidation_count} times
        </dd>
        <dt>Between</dt>
        <dd>
          {entity(fact.source_id, fact.source)} and {entity(fact.target_id, fact.target)}
        </dd>
      </dl>
    </>
  );
}
