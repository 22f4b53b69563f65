/** The dashboard: a header with what the store holds, and one section at a time. */
import { useEffect, useState } from 'react';
import { type Overview as OverviewData, api } from './api.js';
import { Chat } from './Chat.js';
import { Learned } from './Learned.js';
import { Memory } from './Memory.js';
import { Neural } from './Neural.js';
import { Overview } from './Overview.js';
import { Project } from './Project.js';
import { Replay } from './Replay.js';
import { Tools } from './Tools.js';
import { Security } from './Security.js';
import { Telemetry } from './Telemetry.js';

const SECTIONS = [
  ['project', 'Project'],
  ['overview', 'Overview'],
  ['learned', 'Everything learned'],
  ['memory', 'Memory'],
  ['neural', 'Neural'],
  ['chat', 'Chat'],
  ['replay', 'Replay'],
  ['tools', 'Tools'],
  ['security', 'Security'],
  ['telemetry', 'Telemetry'],
] as const;
type Section = (typeof SECTIONS)[number][0];

function summaryOf(o: OverviewData | undefined): string {
  if (!o) return 'Loading…';
  return `${o.total} instincts, ${o.convictions} convictions, ${o.observations} observations (${o.pending_observations} pending).`;
}

export function App({ signedIn }: { signedIn: Promise<void> }) {
  const [overview, setOverview] = useState<OverviewData | undefined>();
  const [message, setMessage] = useState('');
  const [section, setSection] = useState<Section>('project');
  // Bumped on every change the server announces, so the header and the section shown reload.
  const [version, setVersion] = useState(0);
  // Sections ask the API only once the login link has been traded for the session cookie.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let events: EventSource | undefined;
    signedIn
      .then(() => {
        setReady(true);
        // Live: the server says when anything was stored (a hook, a learning run, another window).
        events = new EventSource('/api/events');
        events.addEventListener('change', () => setVersion((v) => v + 1));
      })
      .catch((err: Error) => setMessage(err.message));
    return () => events?.close();
  }, [signedIn]);

  useEffect(() => {
    if (!ready) return;
    api<OverviewData>('/api/overview')
      .then(setOverview)
      .catch((err: Error) => setMessage(err.message));
  }, [ready, version]);

  return (
    <>
      <header>
        <h1>Homunculus</h1>
        <p id="summary" aria-live="polite">
          {summaryOf(overview)}
        </p>
      </header>
      <main>
        <p id="message" role="status" aria-live="polite">
          {message}
        </p>
        <nav aria-label="Sections">
          {SECTIONS.map(([id, label]) => (
            <button key={id} type="button" aria-pressed={section === id} onClick={() => setSection(id)}>
              {label}
            </button>
          ))}
        </nav>
        {ready && section === 'project' && <Project version={version} say={setMessage} />}
        {ready && section === 'overview' && overview && <Overview overview={overview} version={version} />}
        {ready && section === 'learned' && <Learned version={version} say={setMessage} />}
        {ready && section === 'chat' && <Chat version={version} say={setMessage} />}
        {ready && section === 'tools' && <Tools version={version} />}
        {ready && section === 'replay' && <Replay version={version} />}
        {ready && section === 'memory' && <Memory version={version} />}
        {ready && section === 'security' && <Security version={version} />}
        {ready && section === 'telemetry' && <Telemetry version={version} />}
        {ready && section === 'neural' && <Neural version={version} say={setMessage} />}
      </main>
    </>
  );
}
