/** A choice of the latest sessions, for the sections that show one session. */
import { useEffect, useState } from 'react';
import { type SessionLine, api } from './api.js';
import { shortTime } from './api-sessions.js';
import { headOf } from '../../core/text.js';

/** Sessions by when they ended, as the Overview lists them. */
export function SessionPicker({ id, chosen, onChoose }: { id: string; chosen: string; onChoose: (session: string) => void }) {
  const [sessions, setSessions] = useState<SessionLine[]>([]);
  const [error, setError] = useState('');

  useEffect(() => {
    api<{ sessions: SessionLine[] }>('/api/sessions?limit=200')
      .then(({ sessions: list }) => {
        setSessions(list);
        if (!chosen && list[0]) onChoose(list[0].id);
      })
      .catch((err: Error) => setError(err.message));
    // Loaded once per section: the list changes only with new sessions.
  }, []);

  if (error) return <p role="alert">{error}</p>;
  if (sessions.length === 0) return <p>No sessions yet.</p>;
  return (
    <label>
      Session{' '}
      <select id={id} value={chosen} onChange={(e) => onChoose(e.target.value)}>
        {sessions.map((s) => (
          <option key={s.id} value={s.id}>
            {shortTime(s.ended_at ?? s.started_at)} {s.project_name} ({s.source}): {headOf(s.summary.split('\n')[0] ?? '', 60) || s.id}
          </option>
        ))}
      </select>
    </label>
  );
}
