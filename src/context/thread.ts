/** Thread continuity: what the last session of this project was about. */
import { FIRST_PROMPT } from '../capture/sessions/facts.js';
import { relativeToCwd } from '../learn/observation.js';
import { parseStringArray } from '../store/json.js';
import type { SessionRow } from '../store/sessions.js';
import type { Store } from '../store/store.js';
import { oneLine } from './format.js';

interface LastSession {
  id: string;
  when: string;
  /** Where the session ran: its files are named from there. */
  cwd: string;
  summary: string;
  files: string[];
  tools: string[];
}

/** A session with a tool call or a prompt (its summary quotes the first one). */
const didWork = (row: SessionRow): boolean => row.tools_used !== '[]' || row.summary.includes(FIRST_PROMPT);

export function lastSession(store: Store, project: string, excludeSession?: string): LastSession | undefined {
  if (!project) return undefined;
  // A session that asked and did nothing (`claude mcp list` starts and ends one) is not the last work.
  const row = store.sessions.latest(project, excludeSession, 10).find(didWork);
  if (!row) return undefined;
  return {
    id: row.id,
    when: row.ended_at ?? row.started_at ?? '',
    cwd: row.cwd,
    summary: row.summary,
    files: parseStringArray(row.files_touched),
    tools: parseStringArray(row.tools_used),
  };
}

/** A file as the agent finds it from where the session ran; one elsewhere by its last three parts. */
const shortPath = (file: string, cwd: string): string => relativeToCwd(file, cwd) ?? file.split('/').slice(-3).join('/');

/**
 * A session's summary as the agent needs it: what it was about and what it changed. The tool
 * counts ("128 tool calls (Read 42, …)") and what Homunculus learned from it ("Reinforced 4
 * instincts. Noted "…".") are the memory's bookkeeping, not the work. Pure.
 */
export function summaryForAgent(summary: string): string {
  return summary
    .replace(/\b\d+ tool calls?(?: \([^)]*\))?, /, '')
    .replace(/\s*(?:Learned|Noted) "[^"]*"(?:, "[^"]*")*(?: and "[^"]*")?(?: and \d+ more)?\./g, '')
    .replace(/\s*Reinforced \d+ instincts?\./g, '')
    .trim();
}

export function formatThread(s: LastSession, budget: number): string {
  if (budget <= 0) return '';
  // One line: a summary's own line breaks could pass for a heading or a message. A part that ends
  // a sentence of its own ('First prompt: "x".') is not given a second full stop.
  const summary = (summaryForAgent(s.summary) || 'no summary was recorded').replace(/\.+$/, '');
  const head = oneLine(`Last session (${s.when.slice(0, 10) || 'date unknown'}): ${summary}`, budget);
  // The files take what room is left, whole names only: a name cut in the middle names no file.
  const files = s.files.slice(0, 6).map((f) => oneLine(shortPath(f, s.cwd), 120));
  let line = head;
  for (let n = 1; n <= files.length; n++) {
    const more = n < files.length || s.files.length > files.length ? ', ...' : '';
    const next = `${head}. Files: ${files.slice(0, n).join(', ')}${more}`;
    if (next.length > budget) break;
    line = next;
  }
  return line;
}
