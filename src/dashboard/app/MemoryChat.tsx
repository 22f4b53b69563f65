/** The memory chat: a question, the answer with its citations linked to the sources, and every source. */
import { type FormEvent, Fragment, useCallback, useState } from 'react';
import { api, type Say } from './api.js';
import { useProjects } from './use-projects.js';
import type { ChatAnswer } from './api-sessions.js';
import { ForgetMemory } from './ForgetMemory.js';

/** The answer's text with each [n] a link to its source. */
function Cited({ text }: { text: string }) {
  const parts = text.split(/(\[\d+\])/);
  return (
    <p id="chat-answer">
      {parts.map((part, i) => {
        const n = /^\[(\d+)\]$/.exec(part)?.[1];
        return n ? (
          <a key={i} href={`#source-${n}`} aria-label={`source ${n}`}>
            [{n}]
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        );
      })}
    </p>
  );
}

export function MemoryChat({ say }: { say: Say }) {
  const [question, setQuestion] = useState('');
  // Whose learned rules come with the answer (the sources are searched everywhere): the most active project first.
  const onError = useCallback((message: string) => say(message, true), [say]);
  const { projects, chosen: project, setChosen: setProject } = useProjects(0, onError);
  const [reply, setReply] = useState<ChatAnswer | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      setReply(await api<ChatAnswer>('/api/chat', { question, ...(project ? { rulesOf: project } : {}) }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="memory-chat-title">
      <h3 id="memory-chat-title">Ask your memory</h3>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          Question <input id="chat-question" type="text" size={60} value={question} onChange={(e) => setQuestion(e.target.value)} />
        </label>{' '}
        {projects.length > 0 && (
          <label>
            in{' '}
            <select id="chat-project" value={project} onChange={(e) => setProject(e.target.value)}>
              {projects.map((p) => (
                <option key={p.project} value={p.project}>
                  {p.project_name}
                </option>
              ))}
            </select>
          </label>
        )}{' '}
        <button type="submit" disabled={busy}>
          {busy ? 'Asking…' : 'Ask'}
        </button>
      </form>
      {error && <p role="alert">{error}</p>}
      {reply && (
        <div id="chat-reply" aria-live="polite">
          {reply.answer !== null && <Cited text={reply.answer} />}
          {reply.note && <p className="note">{reply.note}</p>}
          {reply.model && <p className="note">Answered by {reply.model} from the sources below.</p>}
          {reply.learned.length > 0 && (
            <>
              <h4>Learned in this project</h4>
              <ul id="chat-learned">
                {reply.learned.map((line) => (
                  <li key={line}>{line.replace(/^- /, '')}</li>
                ))}
              </ul>
            </>
          )}
          <h4>Sources</h4>
          {reply.sources.length === 0 ? (
            <p>Nothing in the memory matches this question.</p>
          ) : (
            <ol id="chat-sources">
              {reply.sources.map((s) => (
                <li key={s.n} id={`source-${s.n}`} tabIndex={-1} className={reply.cited.includes(s.n) ? 'cited' : undefined}>
                  <span className="ref">[{s.n}]</span> <strong>{s.title}</strong>{' '}
                  <span className="kind">
                    ({s.kind === 'fact' ? s.ref : `memory ${s.ref}`}
                    {s.ts ? `, ${s.ts.slice(0, 10)}` : ''})
                  </span>{' '}
                  {s.forget && <ForgetMemory collection={s.forget.collection} id={s.forget.id} say={say} />}
                  <br />
                  {s.text}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
