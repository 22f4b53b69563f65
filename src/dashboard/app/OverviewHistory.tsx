/** The Overview's history: signals per day (bars, with the same numbers as a table) and threads of sessions. */
import { useEffect, useState } from 'react';
import { Bars } from './Bars.js';
import { Head } from './Head.js';
import { api } from './api.js';
import { RangeEnd } from './RangeEnd.js';
import { type Signal, type Signals as SignalsData, type Threads as ThreadsData, shortTime } from './api-sessions.js';

const LABELS: Record<Signal, string> = {
  observations: 'Observations',
  sessions: 'Sessions',
  corrections: 'Corrections',
  feedback: 'Feedback',
  instincts: 'Instincts learned',
};

export function Signals({ version }: { version: number }) {
  const [data, setData] = useState<SignalsData | undefined>();
  const [asTable, setAsTable] = useState(false);
  const [error, setError] = useState('');
  const [to, setTo] = useState('');

  useEffect(() => {
    api<SignalsData>(`/api/sessions/signals?days=30${to ? `&to=${to}` : ''}`)
      .then(setData)
      .catch((err: Error) => setError(err.message));
  }, [version, to]);

  if (error) return <p role="alert">{error}</p>;
  if (!data) return null;
  const labels = data.days.map((d) => d.day);
  return (
    <section aria-labelledby="signals-title">
      <h3 id="signals-title">
        Signals over the {data.days.length} days to {labels.at(-1)}
        <RangeEnd id="signals-to" first={data.first} latest={data.latest} to={to || (labels.at(-1) ?? '')} onChange={setTo} />{' '}
        <button type="button" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
          {asTable ? 'Show as bars' : 'Show as a table'}
        </button>
      </h3>
      {asTable ? (
        <table id="signals-table">
          <Head columns={['Day', ...data.signals.map((s) => LABELS[s])]} />
          <tbody>
            {data.days.map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                {data.signals.map((s) => (
                  <td key={s} className="num">
                    {d[s]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <dl id="signals">
          {data.signals.map((s) => {
            const total = data.days.reduce((n, d) => n + d[s], 0);
            return (
              <div key={s} data-signal={s}>
                <dt>
                  {LABELS[s]}: <span className="total">{total}</span>
                </dt>
                <dd>
                  <Bars
                    labels={labels}
                    series={[{ name: LABELS[s], values: data.days.map((d) => d[s]), tone: `signal-${s}` }]}
                    height={40}
                    title={`${LABELS[s]} per day: ${total} in all, at most ${Math.max(...data.days.map((d) => d[s]))} in a day`}
                  />
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      <p className="note">
        From {labels[0]} to {labels.at(-1)} (UTC days).
      </p>
    </section>
  );
}

export function Threads({ version }: { version: number }) {
  const [data, setData] = useState<ThreadsData | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    api<ThreadsData>('/api/sessions/threads?limit=200')
      .then(setData)
      .catch((err: Error) => setError(err.message));
  }, [version]);

  if (error) return <p role="alert">{error}</p>;
  if (!data) return null;
  return (
    <section aria-labelledby="threads-title">
      <h3 id="threads-title">Thread history</h3>
      {data.threads.length === 0 ? (
        <p>No session continued another yet.</p>
      ) : (
        <ol id="threads">
          {data.threads.map((t) => (
            <li key={t.sessions[0]?.id} className="thread">
              <span className="who">
                {t.sessions[0]?.project_name}: {t.sessions.length} sessions
              </span>
              <ol aria-label={`Thread of ${t.sessions.length} sessions`}>
                {t.sessions.map((s) => (
                  <li key={s.id} data-session={s.id}>
                    <span className="when">{shortTime(s.started_at ?? s.ended_at)}</span> {s.summary || s.id}
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
