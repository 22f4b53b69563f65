/** Thread continuity: what the last session of this project was about. */
import { parseStringArray } from '../store/json.js';
import type { Store } from '../store/store.js';
import { oneLine } from './format.js';

interface LastSession {
  id: string;
  when: string;
  summary: string;
  files: string[];
  tools: string[];
}

export function lastSession(store: Store, project: string, excludeSession?: string): LastSession | undefined {
  if (!project) return undefined;
  const row = store.sessions.latest(project, excludeSession);
  if (!row) return undefined;
  return {
    id: row.id,
    when: row.ended_at ?? row.started_at ?? '',
    summary: row.summary,
    files: parseStringArray(row.files_touched),
    tools: parseStringArray(row.tools_used),
  };
}

/** The last three parts of a path: enough to recognise the file. */
const shortPath = (file: string): string => file.split('/').slice(-3).join('/');

export function formatThread(s: LastSession, budget: number): string {
  if (budget <= 0) return '';
  const parts = [s.summary.trim() || 'no summary was recorded'];
  if (s.files.length) parts.push(`Files: ${s.files.slice(0, 6).map(shortPath).join(', ')}${s.files.length > 6 ? ', ...' : ''}`);
  // One line: a summary's own line breaks could pass for a heading or a message.
  // Parts that end a sentence of their own ('Noted "x".') are not given a second full stop.
  const sentences = parts.map((p) => p.replace(/\.+$/, '')).join('. ');
  return oneLine(`Last session (${s.when.slice(0, 10) || 'date unknown'}): ${sentences}`, budget);
}
