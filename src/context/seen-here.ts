/**
 * An instinct filed under the project where it first reached its threshold, but observed in
 * this one too, is given here in this project's words: its text names the project it was
 * filed under ("when writing code that `mise run lint` checks in improve-status-cmd-output"),
 * which reads as another project's rule, and keeps it from joining this project's line of
 * the same advice.
 */
import type { ProjectInfo } from '../core/project.js';
import { escapeRegExp } from '../core/text.js';
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';

/** The row's text with "in <from>" said as "in <to>", and a title that starts with the name ("<from> lint enforces …") likewise. Pure. */
export function renamedRow<R extends Pick<InstinctRow, 'trigger' | 'action' | 'title'>>(row: R, from: string, to: string): R {
  const name = escapeRegExp(from);
  const re = new RegExp(`(^|\\bin )${name}(?![\\w-])`, 'g');
  const say = (text: string) => text.replace(re, `$1${to}`);
  return { ...row, trigger: say(row.trigger), action: say(row.action), title: say(row.title) };
}

/** `rows` as this project sees them: those filed under another project renamed to this one. */
export function seenHere<R extends Pick<InstinctRow, 'trigger' | 'action' | 'title' | 'project'>>(
  store: Store,
  rows: readonly R[],
  project: Pick<ProjectInfo, 'fingerprint' | 'name'>,
): R[] {
  const elsewhere = (r: R) => r.project !== '' && r.project !== project.fingerprint;
  if (!project.name || !rows.some(elsewhere)) return [...rows];
  const names = new Map(store.sessions.projects().map((p) => [p.project, p.project_name]));
  return rows.map((r) => {
    const name = elsewhere(r) ? names.get(r.project) : undefined;
    return name && name !== project.name ? renamedRow(r, name, project.name) : r;
  });
}
