/** Security: what redaction hid (by kind and count, never the secret) and hook calls that failed or ran over budget. */
import { useEffect, useState } from 'react';
import { Head } from './Head.js';
import { api } from './api.js';
import { type HookCall, type SecurityReport, when } from './api-health.js';

/** Calls that went wrong, newest first; shared with Telemetry. */
export function ProblemCalls({ id, calls }: { id: string; calls: HookCall[] }) {
  if (calls.length === 0) return <p id={id}>None.</p>;
  return (
    <table id={id} aria-labelledby={`${id}-title`}>
      <Head columns={['When', 'Hook', 'Agent', 'Outcome', 'Time ms', 'Over budget']} />
      <tbody>
        {calls.map((c) => (
          <tr key={`${c.ts} ${c.event} ${c.ms}`} data-event={c.event}>
            <td className="when">{when(c.ts)}</td>
            <td>{c.event}</td>
            <td>{c.agent}</td>
            <td>{c.outcome === 'timeout' ? 'timed out' : c.outcome}</td>
            <td className="num">{c.ms}</td>
            <td>{c.slow ? 'yes' : 'no'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Security({ version }: { version: number }) {
  const [report, setReport] = useState<SecurityReport | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    api<SecurityReport>('/api/security')
      .then(setReport)
      .catch((err: Error) => setError(err.message));
  }, [version]);

  if (error) return <p role="alert">{error}</p>;
  if (!report) return <p>Loading…</p>;
  const { redactions, hooks } = report;
  return (
    <section aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <h3 id="redactions-title">What redaction removed</h3>
      <p id="redactions-summary">
        {redactions.total} {redactions.total === 1 ? 'secret' : 'secrets'} hidden before storing. Only the kind and count are shown: the
        secrets themselves were never stored.
      </p>
      <table id="redactions" aria-labelledby="redactions-title">
        <Head columns={['Kind', 'Total', 'In tool calls', 'In prompts', 'In documents']} />
        <tbody>
          {redactions.kinds.map((k) => (
            <tr key={k.kind} data-kind={k.kind}>
              <th scope="row">{k.kind}</th>
              <td className="num">{k.total}</td>
              <td className="num">{k.places.observations}</td>
              <td className="num">{k.places.prompts}</td>
              <td className="num">{k.places.documents}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 id="security-hooks-title">Hooks that failed or ran slow</h3>
      <p id="security-hooks-summary">
        {hooks.failed} failed, {hooks.timeouts} timed out, {hooks.slow} over the {hooks.budget_ms / 1000} s budget.
      </p>
      <ProblemCalls id="security-hooks" calls={hooks.problems} />
    </section>
  );
}
