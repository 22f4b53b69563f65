/** The dashboard: what was learned, and correcting it. */
import { useCallback, useEffect, useState } from 'react';
import { Head } from './Head.js';
import { type FeedbackResult, type Instinct, type Overview as OverviewData, type Verdict, api } from './api.js';
import { Overview } from './Overview.js';
import { Project } from './Project.js';

const VERDICTS: readonly Verdict[] = ['strong', 'weak', 'wrong'];

function summaryOf(o: OverviewData): string {
  return `${o.total} instincts, ${o.convictions.length} convictions, ${o.observations} observations (${o.pending_observations} pending).`;
}

function InstinctRow({ instinct, onVerdict }: { instinct: Instinct; onVerdict: (i: Instinct, v: Verdict) => void }) {
  return (
    <tr data-pattern={instinct.pattern}>
      <td>{instinct.trigger}</td>
      <td>{instinct.action}</td>
      <td className="num">{instinct.confidence.toFixed(2)}</td>
      <td className="num">{instinct.evidence}</td>
      <td>
        {VERDICTS.map((v) => (
          <button key={v} type="button" aria-label={`${v}: ${instinct.pattern}`} onClick={() => onVerdict(instinct, v)}>
            {v}
          </button>
        ))}
      </td>
    </tr>
  );
}

export function App({ signedIn }: { signedIn: Promise<void> }) {
  const [summary, setSummary] = useState('Loading…');
  const [instincts, setInstincts] = useState<Instinct[]>([]);
  const [message, setMessage] = useState('');
  const [tab, setTab] = useState<'project' | 'overview' | 'learned'>('project');
  // Bumped on every change the server announces, so each section reloads what it shows.
  const [version, setVersion] = useState(0);
  // Sections ask the API only once the login link has been traded for the session cookie.
  const [ready, setReady] = useState(false);

  const load = useCallback(async () => {
    const overview = await api<OverviewData>('/api/overview');
    setSummary(summaryOf(overview));
    setInstincts((await api<{ instincts: Instinct[] }>('/api/instincts?limit=500')).instincts);
  }, []);

  useEffect(() => {
    let events: EventSource | undefined;
    signedIn
      .then(async () => {
        setReady(true);
        await load();
        // Live: the server says when anything was stored (a hook, a learning run, another window).
        events = new EventSource('/api/events');
        events.addEventListener('change', () => {
          setVersion((v) => v + 1);
          void load().catch((err: Error) => setMessage(err.message));
        });
      })
      .catch((err: Error) => setMessage(err.message));
    return () => events?.close();
  }, [signedIn, load]);

  const correct = async (instinct: Instinct, verdict: Verdict) => {
    try {
      const r = await api<FeedbackResult>('/api/instincts/feedback', { pattern: instinct.pattern, verdict });
      setMessage(`Marked ${verdict}: confidence ${r.before.toFixed(2)} to ${r.after.toFixed(2)}.`);
      await load();
    } catch (err) {
      setMessage((err as Error).message);
    }
  };

  return (
    <>
      <header>
        <h1>Homunculus</h1>
        <p id="summary" aria-live="polite">
          {summary}
        </p>
      </header>
      <main>
        <p id="message" role="status" aria-live="polite">
          {message}
        </p>
        <nav aria-label="Sections">
          <button type="button" aria-pressed={tab === 'project'} onClick={() => setTab('project')}>
            Project
          </button>
          <button type="button" aria-pressed={tab === 'overview'} onClick={() => setTab('overview')}>
            Overview
          </button>
          <button type="button" aria-pressed={tab === 'learned'} onClick={() => setTab('learned')}>
            Everything learned
          </button>
        </nav>
        {ready && tab === 'project' && <Project version={version} />}
        {ready && tab === 'overview' && <Overview version={version} />}
        <section aria-labelledby="instincts-title" hidden={tab !== 'learned'}>
          <h2 id="instincts-title">What it learned</h2>
          <table id="instincts">
            <Head columns={['When', 'Do', 'Confidence', 'Seen', 'Correct it']} />
            <tbody>
              {instincts.map((i) => (
                <InstinctRow key={i.pattern} instinct={i} onVerdict={(x, v) => void correct(x, v)} />
              ))}
            </tbody>
          </table>
        </section>
      </main>
    </>
  );
}
