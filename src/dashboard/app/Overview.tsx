/** Overview: how much was learned, how sure it is, the latest sessions, the signals over time and the threads of sessions. */
import { useEffect, useState } from 'react';
import { Head } from './Head.js';
import { type Overview as OverviewData, type SessionLine, api } from './api.js';
import { shortTime } from './api-sessions.js';
import { Signals, Threads } from './OverviewHistory.js';

const BANDS = ['strong', 'moderate', 'tentative', 'faded'] as const;

/** `overview` is the header's (App reloads it on every change); the sessions are this section's own. */
export function Overview({ overview: data, version }: { overview: OverviewData; version: number }) {
  const [sessions, setSessions] = useState<SessionLine[]>([]);
  const [error, setError] = useState('');

  useEffect(() => {
    api<{ sessions: SessionLine[] }>('/api/sessions?limit=50')
      .then((recent) => setSessions(recent.sessions))
      .catch((err: Error) => setError(err.message));
  }, [version]);

  if (error) return <p role="alert">{error}</p>;
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <dl id="bands">
        {BANDS.map((b) => (
          <div key={b}>
            <dt>{b}</dt>
            <dd>{data.bands[b]}</dd>
          </div>
        ))}
        <div>
          <dt>convictions</dt>
          <dd>{data.convictions}</dd>
        </div>
        <div>
          <dt>observations</dt>
          <dd>{data.observations}</dd>
        </div>
      </dl>
      <h3>Latest sessions</h3>
      <table id="sessions">
        <Head columns={['When', 'Project', 'Agent', 'Tool calls', 'What happened']} />
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} data-session={s.id}>
              <td className="when">{shortTime(s.ended_at ?? s.started_at)}</td>
              <td>{s.project_name}</td>
              <td>{s.source}</td>
              <td className="num">{s.tool_calls}</td>
              <td>{s.summary.split('\n')[0]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Signals version={version} />
      <Threads version={version} />
    </section>
  );
}
