/**
 * Correcting one fact of the knowledge graph: supersede it with what is true now (an inline
 * form), or invalidate it (retracted, after a confirmation). Nothing is deleted: the graph keeps
 * the closed fact in its history. Any section that shows facts can use it.
 */
import { type FormEvent, useState } from 'react';
import { type Say } from './api.js';
import { Choice, Confirm } from './Confirm.js';
import { useCorrection } from './use-correction.js';

/** A fact as graph.facts returns it (the fields shown and corrected here). */
export interface Fact {
  id: number;
  source: string;
  relation: string;
  target: string;
  description: string;
  valid_at: string;
}

interface Closed {
  superseded: Fact;
  replacement?: { fact: Fact };
}

interface Props {
  fact: Fact;
  say: Say;
  /** After a change: reload what is shown. */
  changed: () => Promise<void> | void;
}

export function FactActions({ fact, say, changed }: Props) {
  const [mode, setMode] = useState<'idle' | 'supersede' | 'invalidate'>('idle');
  const [description, setDescription] = useState('');
  const [target, setTarget] = useState('');

  const { correct } = useCorrection(say, changed);
  const run = (path: string, body: object, message: (r: Closed) => string) =>
    correct<Closed>(path, { id: fact.id, ...body }, message, () => setMode('idle'));

  const supersede = (e: FormEvent) => {
    e.preventDefault();
    void run('/api/facts/supersede', { description, ...(target.trim() ? { target: target.trim() } : {}) }, (r) =>
      r.replacement
        ? `Replaced “${r.superseded.description}” by “${r.replacement.fact.description}”.`
        : `No longer current: “${r.superseded.description}”.`,
    );
  };

  if (mode === 'supersede')
    return (
      <form className="inline" aria-label={`Supersede fact ${fact.id}`} onSubmit={supersede}>
        <label>
          What is true now
          <textarea
            aria-label={`replacement of fact ${fact.id}`}
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <label>
          New target (optional: without one the fact keeps its relation and target)
          <input
            aria-label={`replacement target of fact ${fact.id}`}
            type="text"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
        <Choice yes="Save" onCancel={() => setMode('idle')} />
      </form>
    );

  if (mode === 'invalidate')
    return (
      <Confirm
        label={`Invalidate fact ${fact.id}?`}
        yes="Yes, invalidate it"
        onYes={() =>
          void run('/api/facts/invalidate', {}, (r) => `Retracted “${r.superseded.description}”: it stays in the history as retracted.`)
        }
        onCancel={() => setMode('idle')}
      >
        Retract “{fact.description}”? It stays in the history as retracted.
      </Confirm>
    );

  return (
    <>
      <button
        type="button"
        aria-label={`supersede: fact ${fact.id}`}
        onClick={() => {
          setDescription(fact.description);
          setTarget('');
          setMode('supersede');
        }}
      >
        supersede
      </button>
      <button type="button" aria-label={`invalidate: fact ${fact.id}`} onClick={() => setMode('invalidate')}>
        invalidate
      </button>
    </>
  );
}
