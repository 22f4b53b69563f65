/** The dashboard: a header with what the store holds, and one section at a time. */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, type Overview as OverviewData, type Say, api, counted, signOut } from './api.js';
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

function summaryOf(o: OverviewData | undefined, signedOut: boolean): string {
  if (signedOut) return 'Not signed in.';
  if (!o) return 'Loading…';
  return `${counted(o.total, 'instinct')}, ${counted(o.convictions, 'conviction')}, ${counted(o.observations, 'observation')} (${o.pending_observations} pending).`;
}

const LOST =
  'Lost the dashboard server: what is shown may be out of date. It reconnects when the server is back; a new `homunculus dashboard` needs its new login link.';

export function App({ signedIn }: { signedIn: Promise<void> }) {
  const [overview, setOverview] = useState<OverviewData | undefined>();
  const [message, setMessage] = useState({ text: '', error: false });
  // One function for the page's life: sections list it among their effects' inputs, and a new one
  // on every render made a failed load (which says so, which renders) load again, endlessly.
  const say: Say = useCallback((text, error = false) => setMessage({ text, error }), []);
  const [signedOut, setSignedOut] = useState(false);
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
        // The stream drops when the server stops; it comes back by itself if the same server returns.
        events.addEventListener('error', () => say(LOST, true));
        events.addEventListener('hello', () => setMessage((m) => (m.text === LOST ? { text: '', error: false } : m)));
      })
      .catch((err: Error) => {
        setSignedOut(true);
        say(err.message, true);
      });
    return () => events?.close();
  }, [signedIn]);

  useEffect(() => {
    if (!ready) return;
    api<OverviewData>('/api/overview')
      .then(setOverview)
      .catch((err: Error) => {
        // Without a session every section would say so again: say it once, with the way in.
        if (err instanceof ApiError && err.status === 401) {
          setSignedOut(true);
          return say('Not signed in. Open the link `homunculus dashboard` printed (it works once), or run it again for a new one.', true);
        }
        say(err.message, true);
      });
  }, [ready, version]);

  // The sections ask the API once signed in and known to be: never with a session refused.
  const live = ready && !signedOut && overview !== undefined;
  return (
    <>
      <header>
        <h1>Homunculus</h1>
        <p id="summary" aria-live="polite">
          {summaryOf(overview, signedOut)}
        </p>
        {live && (
          <button
            type="button"
            id="sign-out"
            onClick={() =>
              void signOut().then(() => {
                setSignedOut(true);
                say('Signed out. For a new login link, run `homunculus dashboard` again (this one keeps running).');
              })
            }
          >
            Sign out
          </button>
        )}
      </header>
      <main>
        <p id="message" role="status" aria-live="polite" className={message.error ? 'error' : undefined}>
          {message.text}
        </p>
        {live && (
          <nav aria-label="Sections">
            {SECTIONS.map(([id, label]) => (
              <button key={id} type="button" aria-pressed={section === id} onClick={() => setSection(id)}>
                {label}
              </button>
            ))}
          </nav>
        )}
        {live && section === 'project' && <Project version={version} say={say} />}
        {live && section === 'overview' && overview && <Overview overview={overview} version={version} />}
        {live && section === 'learned' && <Learned version={version} say={say} />}
        {live && section === 'chat' && <Chat version={version} say={say} />}
        {live && section === 'tools' && <Tools version={version} />}
        {live && section === 'replay' && <Replay version={version} />}
        {live && section === 'memory' && <Memory version={version} />}
        {live && section === 'security' && <Security version={version} />}
        {live && section === 'telemetry' && <Telemetry version={version} />}
        {live && section === 'neural' && <Neural version={version} say={say} />}
      </main>
    </>
  );
}
