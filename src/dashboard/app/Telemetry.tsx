/** Telemetry: hook calls per event, latency percentiles, failures and timeouts, from the hook-call log. */
import { useEffect, useState } from 'react';
import { LabelledBars } from './LabelledBars.js';
import { Head } from './Head.js';
import { api } from './api.js';
import { type Telemetry as Data, when } from './api-health.js';
import { ProblemCalls } from './Security.js';

export function Telemetry({ version }: { version: number }) {
  const [data, setData] = useState<Data | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    api<Data>('/api/telemetry')
      .then(setData)
      .catch((err: Error) => setError(err.message));
  }, [version]);

  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p>Loading…</p>;
  return (
    <section aria-labelledby="telemetry-title">
      <h2 id="telemetry-title">Hook telemetry</h2>
      <p id="telemetry-summary">
        {data.calls} hook calls{data.since ? ` since ${when(data.since)}` : ''}; budget {data.budget_ms / 1000} s per call
        {data.skipped_lines > 0 ? `; ${data.skipped_lines} unreadable ${data.skipped_lines === 1 ? 'line' : 'lines'} skipped` : ''}.
      </p>
      {data.events.length > 0 && (
        <figure>
          <figcaption>p95 latency by hook (ms)</figcaption>
          <LabelledBars title="p95 latency by hook" unit=" ms" bars={data.events.map((e) => ({ label: e.event, value: e.p95_ms }))} />
        </figure>
      )}
      <table id="telemetry-events">
        <Head columns={['Hook', 'Calls', 'OK', 'Failed', 'Timed out', 'Over budget', 'p50 ms', 'p95 ms', 'p99 ms', 'Max ms']} />
        <tbody>
          {data.events.map((e) => (
            <tr key={e.event} data-event={e.event}>
              <th scope="row">{e.event}</th>
              {[e.calls, e.ok, e.failed, e.timeout, e.slow, e.p50_ms, e.p95_ms, e.p99_ms, e.max_ms].map((n, i) => (
                <td key={i} className="num">
                  {n}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h3 id="telemetry-problems-title">Failed, timed out or slow calls</h3>
      <ProblemCalls id="telemetry-problems" calls={data.problems} />
      <h3 id="telemetry-log-title">Last failure messages (hooks.log)</h3>
      {data.log.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul id="telemetry-log" aria-labelledby="telemetry-log-title">
          {data.log.map((l) => (
            <li key={`${l.ts} ${l.message}`}>
              <time dateTime={l.ts}>{when(l.ts)}</time> {l.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
