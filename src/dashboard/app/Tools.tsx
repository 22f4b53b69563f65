/** Tools: tool calls per day (stacked by tool, failures marked) and per session, and the latest failures. */
import { useEffect, useState } from 'react';
import { Bars } from './Bars.js';
import { Head } from './Head.js';
import { api } from './api.js';
import { RangeEnd } from './RangeEnd.js';
import { type ToolGroup, type ToolTimeline, shortTime } from './api-sessions.js';
import { toolSeries } from './tool-series.js';

const byTool = (g: ToolGroup): string =>
  Object.entries(g.tools)
    .map(([tool, t]) => `${tool} ${t.calls}${t.failed ? ` (${t.failed} failed)` : ''}`)
    .join(', ');

function GroupRows({ groups, label }: { groups: ToolGroup[]; label: (key: string) => string }) {
  return (
    <tbody>
      {groups.map((g) => (
        <tr key={g.key} data-key={g.key} className={g.failed ? 'has-failures' : undefined}>
          <td>{label(g.key)}</td>
          <td className="num">{g.calls}</td>
          <td className="num">{g.failed}</td>
          <td>{byTool(g)}</td>
        </tr>
      ))}
    </tbody>
  );
}

export function Tools({ version }: { version: number }) {
  const [data, setData] = useState<ToolTimeline | undefined>();
  const [error, setError] = useState('');
  const [to, setTo] = useState('');

  useEffect(() => {
    api<ToolTimeline>(`/api/tools/timeline?days=30${to ? `&to=${to}` : ''}`)
      .then(setData)
      .catch((err: Error) => setError(err.message));
  }, [version, to]);

  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p>Loading…</p>;
  const active = data.days.filter((d) => d.calls > 0);
  const series = toolSeries(data.tools, data.days);
  const marked = data.days.flatMap((d, i) => (d.failed > 0 ? [i] : []));
  return (
    <section aria-labelledby="tools-title">
      <h2 id="tools-title">Tools</h2>
      <p>
        {active.reduce((n, d) => n + d.calls, 0)} tool calls in the {data.days.length} days to {data.days.at(-1)?.key},{' '}
        {active.reduce((n, d) => n + d.failed, 0)} failed.
        <RangeEnd id="tools-to" first={data.first} latest={data.latest} to={to || (data.days.at(-1)?.key ?? '')} onChange={setTo} />
      </p>
      <figure>
        <Bars
          labels={data.days.map((d) => d.key)}
          series={series}
          marked={marked}
          height={120}
          title={`Tool calls per day from ${data.days[0]?.key} to ${data.days.at(-1)?.key}, stacked by tool; a dot marks a day with failures`}
        />
        <figcaption>
          <ul className="legend" aria-label="Tools">
            {series.map((s) => (
              <li key={s.name}>
                <svg width="10" height="10" aria-hidden="true">
                  <rect className={s.tone} width="10" height="10" />
                </svg>{' '}
                {s.name}
                {s.members.length ? `: ${s.members.join(', ')}` : ''}
              </li>
            ))}
            <li>
              <svg width="10" height="10" aria-hidden="true">
                <circle className="mark" cx="5" cy="5" r="4" />
              </svg>{' '}
              a day with failures
            </li>
          </ul>
        </figcaption>
      </figure>
      <h3>Per day</h3>
      <table id="tools-days">
        <Head columns={['Day', 'Calls', 'Failed', 'By tool']} />
        <GroupRows groups={active} label={(k) => k} />
      </table>
      <h3>Per session</h3>
      <table id="tools-sessions">
        <Head columns={['Session', 'Calls', 'Failed', 'By tool']} />
        <GroupRows groups={data.sessions} label={(k) => k} />
      </table>
      <h3>Latest failures</h3>
      {data.failures.length === 0 ? (
        <p>No tool call failed in these days.</p>
      ) : (
        <table id="tools-failures">
          <Head columns={['When', 'Session', 'Tool', 'What went wrong']} />
          <tbody>
            {data.failures.map((f) => (
              <tr key={`${f.ts}${f.session_id}${f.tool}`}>
                <td className="when">{shortTime(f.ts)}</td>
                <td>{f.session_id}</td>
                <td>{f.tool}</td>
                <td>
                  {f.outcome}
                  {f.error && `: ${f.error}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
