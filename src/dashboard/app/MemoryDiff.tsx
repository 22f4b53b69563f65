/** What changed between two dates: instincts created, changed and forgotten; facts added and expired. */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Head } from './Head.js';
import { api } from './api.js';
import { type FactLine, type InstinctMove, type MemoryDiff as Diff, when } from './api-health.js';

const WEEK_MS = 7 * 86_400_000;

/** A created instinct had no score before: only where it stands at the end is shown. */
const confidence = (m: InstinctMove, created: boolean): string =>
  created ? `new, ${m.confidence_after.toFixed(2)}` : `${m.confidence_before.toFixed(2)} to ${m.confidence_after.toFixed(2)}`;

function Instincts({ id, title, moves }: { id: string; title: string; moves: InstinctMove[] }) {
  return (
    <>
      <h4 id={`${id}-title`}>
        {title}: {moves.length}
      </h4>
      {moves.length > 0 && (
        <table id={id} aria-labelledby={`${id}-title`}>
          <Head columns={['Instinct', 'Confidence', 'Evidence added', 'Events']} />
          <tbody>
            {moves.map((m) => (
              <tr key={m.pattern} data-pattern={m.pattern}>
                <td title={m.pattern}>
                  {m.trigger || m.action ? `${m.trigger}${m.trigger && m.action ? ': ' : ''}${m.action}` : m.pattern}
                </td>
                <td className="num">{confidence(m, id === 'diff-created')}</td>
                <td className="num">{m.evidence_added}</td>
                <td>{m.reason ? `${m.kinds.join(', ')}: ${m.reason}` : m.kinds.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Facts({ id, title, facts, limit, expired }: { id: string; title: string; facts: FactLine[]; limit: number; expired?: boolean }) {
  return (
    <>
      <h4 id={`${id}-title`}>
        {title}: {facts.length >= limit ? `the first ${limit}` : facts.length}
      </h4>
      {facts.length > 0 && (
        <table id={id} aria-labelledby={`${id}-title`}>
          <Head columns={expired ? ['Fact', 'Expired', 'Why'] : ['Fact', 'Recorded']} />
          <tbody>
            {facts.map((f) => (
              <tr key={f.id} data-fact={f.id}>
                <td title={f.description}>{f.statement}</td>
                <td className="when">{when(expired ? (f.expired_at ?? '') : f.created_at)}</td>
                {expired && <td>{f.expired_reason}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function MemoryDiff({ version, today }: { version: number; today: string }) {
  const [from, setFrom] = useState(() => new Date(Date.parse(today) - WEEK_MS).toISOString().slice(0, 10));
  const [to, setTo] = useState(today);
  const [diff, setDiff] = useState<Diff | undefined>();
  const [error, setError] = useState('');

  const load = useCallback((a: string, b: string) => {
    api<Diff>(`/api/memory/diff?from=${encodeURIComponent(a)}&to=${encodeURIComponent(b)}`)
      .then((d) => {
        setDiff(d);
        setError('');
      })
      .catch((err: Error) => setError(err.message));
  }, []);

  // The range on show, reloaded on every change the server announces; typed dates apply on the button, not on each key.
  useEffect(() => load(from, to), [version, load]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    load(from, to);
  };

  return (
    <>
      <h3 id="diff-title">What changed between two dates</h3>
      <form id="diff-form" aria-labelledby="diff-title" onSubmit={submit}>
        <label>
          From <input id="diff-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
        </label>{' '}
        <label>
          To <input id="diff-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
        </label>{' '}
        <button type="submit">Show changes</button>
      </form>
      {error && <p role="alert">{error}</p>}
      {diff && (
        <div id="diff" aria-live="polite">
          <p>
            From {when(diff.from)} to {when(diff.to)} (UTC).
          </p>
          <Instincts id="diff-created" title="Instincts created" moves={diff.instincts.created} />
          <Instincts id="diff-changed" title="Instincts changed" moves={diff.instincts.changed} />
          <Instincts id="diff-forgotten" title="Instincts forgotten by hand" moves={diff.instincts.forgotten} />
          <Instincts id="diff-taken-back" title="Instincts taken back by learning (with why)" moves={diff.instincts.taken_back} />
          <h4 id="diff-merged-title">Instincts merged: {diff.instincts.merged.length}</h4>
          {diff.instincts.merged.length > 0 && (
            <ul id="diff-merged" aria-labelledby="diff-merged-title">
              {diff.instincts.merged.map((m) => (
                <li key={`${m.pattern}-${m.at}`}>
                  {m.pattern} into {m.into} ({m.at.slice(0, 10)}, {m.source || 'unknown'})
                </li>
              ))}
            </ul>
          )}
          <Instincts
            id="diff-faded"
            title="Instincts that faded (unused for weeks; still given when a prompt clearly matches)"
            moves={diff.instincts.faded}
          />
          <Facts id="diff-added" title="Facts added" facts={diff.facts.added} limit={diff.facts.limit} />
          <Facts id="diff-expired" title="Facts expired" facts={diff.facts.expired} limit={diff.facts.limit} expired />
        </div>
      )}
    </>
  );
}
