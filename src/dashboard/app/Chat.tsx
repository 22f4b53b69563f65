/** Chat: a session's transcript (each prompt and the tool calls that followed), and the memory chat. */
import { useEffect, useState } from 'react';
import { api, latestOnly, type Say } from './api.js';
import { type Step, type Transcript as TranscriptData, shortTime } from './api-sessions.js';
import { MemoryChat } from './MemoryChat.js';
import { SessionPicker } from './SessionPicker.js';

function ToolCall({ step }: { step: Step }) {
  return (
    <li className={`outcome-${step.outcome}`}>
      <span className="tool">{step.tool}</span> <code>{step.input}</code> <span className="outcome">{step.outcome}</span>
      {step.error && <span className="error">: {step.error}</span>}
    </li>
  );
}

function Transcript({ version }: { version: number }) {
  const [session, setSession] = useState('');
  const [data, setData] = useState<TranscriptData | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    if (!session) return;
    return latestOnly(api<TranscriptData>(`/api/sessions/${encodeURIComponent(session)}/transcript`), setData, (err) =>
      setError(err.message),
    );
  }, [session, version]);

  return (
    <section aria-labelledby="transcript-title">
      <h3 id="transcript-title">Session transcript</h3>
      <SessionPicker id="transcript-session" chosen={session} onChoose={setSession} />
      {error && <p role="alert">{error}</p>}
      {data?.session?.summary && <p className="note">{data.session.summary}</p>}
      {data && data.turns.length === 0 && <p>Nothing was captured in this session, and it has no transcript file.</p>}
      <ol id="transcript">
        {data?.turns.map((t, i) => (
          <li key={t.prompt?.n ?? `t${i}`} className="turn">
            <p className="prompt">
              <span className="who">{t.prompt ? `You, ${shortTime(t.prompt.ts)}` : 'Before any prompt'}</span>
              {t.prompt && <span className="said">{t.prompt.input}</span>}
            </p>
            {t.tools.length > 0 && (
              <ul className="calls" aria-label={`${t.tools.length} tool calls`}>
                {t.tools.map((s) => (
                  <ToolCall key={s.n} step={s} />
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {data?.origin === 'transcript' && <p className="note">Read from the session's transcript file (nothing was captured).</p>}
    </section>
  );
}

export function Chat({ version, say }: { version: number; say: Say }) {
  return (
    <section aria-labelledby="chat-title">
      <h2 id="chat-title">Chat</h2>
      <MemoryChat say={say} />
      <Transcript version={version} />
    </section>
  );
}
