/** The default view: one project, what it learned and what a session there starts with today. */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Facts } from './Facts.js';
import { InstinctTable } from './InstinctTable.js';
import { Learned } from './Learned.js';
import { type ProjectView, api, counted, latestOnly, type Say } from './api.js';
import { useProjects } from './use-projects.js';

/** The injected block without its fence: the lines the agent reads. */
const inner = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !/^\[HOMUNCULUS MEMORY\]|^<\/?homunculus-memory/.test(l))
    .join('\n')
    .trim();

export function Project({ version, say }: { version: number; say: Say }) {
  const [view, setView] = useState<ProjectView | undefined>();
  const [error, setError] = useState('');
  const { projects, chosen, setChosen } = useProjects(version, setError);

  // Bumped after a correction made here, so the project is read again.
  const [revision, setRevision] = useState(0);
  const reload = useCallback(() => setRevision((r) => r + 1), []);

  useEffect(() => {
    if (!chosen) return;
    return latestOnly(api<ProjectView>(`/api/projects/${chosen}`), setView, (err) => setError(err.message));
  }, [chosen, version, revision]);

  if (error) return <p role="alert">{error}</p>;
  if (projects.length === 0)
    return (
      <>
        <p id="no-sessions">
          No sessions yet, so no project to show: run <code>homunculus sync</code>, or work with an agent whose hooks are installed (
          <code>homunculus init --claude</code>). What was learned without them (imported or recorded by hand) is below.
        </p>
        <Learned version={version} say={say} />
      </>
    );
  return (
    <section aria-labelledby="project-title">
      <h2 id="project-title">
        <label>
          Project{' '}
          <select id="project" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            {projects.map((p) => (
              <option key={p.project} value={p.project}>
                {p.project_name} ({p.sessions} {p.sessions === 1 ? 'session' : 'sessions'}, last {p.last_active.slice(0, 10)})
              </option>
            ))}
          </select>
        </label>
      </h2>
      {view && (
        <>
          <p id="project-counts">
            {counted(view.instincts.length, 'instinct')} for {view.project.project_name} and everywhere,{' '}
            {counted(view.convictions.length, 'conviction')}.
          </p>
          <h3>What a session in {view.project.project_name} starts with today</h3>
          <pre id="injected">{inner(view.injected) || 'Nothing: silence until something is learned.'}</pre>
          <PromptPreview project={view.project.project} />
          <h3 id="project-instincts-title">What it learned here</h3>
          <InstinctTable id="project-instincts" instincts={view.instincts} say={say} reload={reload} />
          <Facts project={view.project.project} version={version} say={say} />
        </>
      )}
    </section>
  );
}

/** "Try a prompt": what the prompt hook would add to it here, counting nothing as used. */
function PromptPreview({ project }: { project: string }) {
  const [prompt, setPrompt] = useState('');
  const [shown, setShown] = useState<string | undefined>();
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      setError('');
      setShown(inner((await api<{ injected: string }>(`/api/projects/${project}/prompt`, { prompt })).injected));
    } catch (err) {
      // An error replaces the last answer: the two together read as if this prompt got that one.
      setShown(undefined);
      setError((err as Error).message);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="try-title">
      <h3 id="try-title">What a prompt here would get</h3>
      <label>
        Prompt <input id="try-prompt" type="text" size={60} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      </label>{' '}
      <button type="submit">Show</button>
      {error && <p role="alert">{error}</p>}
      {shown !== undefined && <pre id="prompt-injected">{shown || 'Nothing: this prompt gets no memory.'}</pre>}
    </form>
  );
}
