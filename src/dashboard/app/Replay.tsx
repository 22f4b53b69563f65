/** Replay: one session's observations, one step at a time (buttons, the ← and → keys, or the slider). */
import { type KeyboardEvent, useEffect, useState } from 'react';
import { api, latestOnly } from './api.js';
import { type Replay as ReplayData, type Step, shortTime } from './api-sessions.js';
import { SessionPicker } from './SessionPicker.js';

function StepView({ step }: { step: Step }) {
  return (
    <dl id="replay-step" className={`step outcome-${step.outcome}`}>
      <dt>Kind</dt>
      <dd id="replay-kind">{step.kind}</dd>
      <dt>Time</dt>
      <dd>{shortTime(step.ts)}</dd>
      {step.tool && (
        <>
          <dt>Tool</dt>
          <dd id="replay-tool">{step.tool}</dd>
        </>
      )}
      {step.intent && (
        <>
          <dt>Intent</dt>
          <dd>{step.intent}</dd>
        </>
      )}
      <dt>{step.kind === 'prompt' ? 'Prompt' : 'Input'}</dt>
      <dd>
        <code id="replay-input">{step.input || '(none)'}</code>
      </dd>
      <dt>Outcome</dt>
      <dd id="replay-outcome">
        {step.outcome}
        {step.error && `: ${step.error}`}
      </dd>
    </dl>
  );
}

export function Replay({ version }: { version: number }) {
  const [session, setSession] = useState('');
  const [data, setData] = useState<ReplayData | undefined>();
  const [at, setAt] = useState(0);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!session) return;
    return latestOnly(
      api<ReplayData>(`/api/sessions/${encodeURIComponent(session)}/replay`),
      (d) => {
        setData(d);
        setAt((i) => Math.min(i, Math.max(0, d.steps.length - 1)));
      },
      (err) => setError(err.message),
    );
  }, [session, version]);

  const total = data?.steps.length ?? 0;
  const go = (i: number) => setAt(Math.max(0, Math.min(total - 1, i)));
  const onKey = (e: KeyboardEvent) => {
    // The slider moves itself with the arrow keys.
    if ((e.target as HTMLElement).tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'ArrowRight') go(at + 1);
    else return;
    e.preventDefault();
  };
  const step = data?.steps[at];

  return (
    <section aria-labelledby="replay-title">
      <h2 id="replay-title">Replay</h2>
      <SessionPicker
        id="replay-session"
        chosen={session}
        onChoose={(id) => {
          setSession(id);
          setAt(0);
        }}
      />
      {error && <p role="alert">{error}</p>}
      {data && total === 0 && <p>Nothing was captured in this session, and it has no transcript file.</p>}
      {step && (
        <div id="replay" tabIndex={0} role="group" aria-label="Session replay: the left and right arrow keys step" onKeyDown={onKey}>
          <div className="replay-controls">
            <button type="button" onClick={() => go(at - 1)} disabled={at === 0}>
              ← Previous
            </button>
            <span id="replay-position" aria-live="polite">
              {at + 1} of {total}
            </span>
            <button type="button" onClick={() => go(at + 1)} disabled={at === total - 1}>
              Next →
            </button>
            <label>
              Jump to step{' '}
              <input id="replay-slider" type="range" min={1} max={total} value={at + 1} onChange={(e) => go(Number(e.target.value) - 1)} />
            </label>
          </div>
          <StepView step={step} />
          {data?.origin === 'transcript' && <p className="note">Read from the session's transcript file (nothing was captured).</p>}
        </div>
      )}
    </section>
  );
}
