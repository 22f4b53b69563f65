/**
 * episodes/*.md in the readable format (date, type: episode, project, tags, then a title and
 * the story), regenerated from the episodes table; files of removed (promoted) episodes go.
 */
import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileIfChanged, ensureDir } from '../core/fs.js';
import { slugify } from '../core/text.js';
import { parseStringArray } from '../store/json.js';
import type { Store } from '../store/store.js';
import type { EpisodeRow } from '../store/episodes.js';
import { renderFrontmatter } from '../core/frontmatter.js';
import { renderAll, renderChanged } from './render.js';

function renderEpisodeMarkdown(row: EpisodeRow, projectName: string): string {
  return renderFrontmatter(
    {
      date: row.date,
      type: 'episode',
      project: projectName || row.project || undefined,
      tags: parseStringArray(row.tags),
      pattern: row.pattern || undefined,
      occurrences: row.occurrences,
      sessions: parseStringArray(row.session_ids),
      files: parseStringArray(row.files).length ? parseStringArray(row.files) : undefined,
    },
    [`# ${row.title}`, '', row.body].join('\n'),
  );
}

/** Brings episodes/ in line with the table; returns how many files were written. */
export function renderEpisodes(store: Store): number {
  const dir = store.paths.episodes;
  ensureDir(dir);
  const rows = store.episodes.list();
  const names = store.observations.projectNames();
  const taken = new Set(rows.map((r) => r.file_name).filter((n): n is string => !!n));
  let written = 0;
  for (const row of rows) {
    let fileName = row.file_name;
    if (!fileName) {
      const base = `${row.date.slice(0, 10)}-${slugify(row.title, 60)}`;
      fileName = taken.has(`${base}.md`) ? `${base}-${row.id}.md` : `${base}.md`;
      taken.add(fileName);
      store.episodes.setFileName(row.id, fileName);
    }
    if (writeFileIfChanged(join(dir, fileName), renderEpisodeMarkdown(row, names.get(row.project) ?? ''))) written++;
  }
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) if (name.endsWith('.md') && !taken.has(name)) unlinkSync(join(dir, name));
  }
  return written;
}

/** What a learning run hands back for rendering: the changed instincts, or all of them. */
export function renderAfterLearn(store: Store, changes: { all: boolean; keys: string[] }): void {
  if (changes.all) renderAll(store);
  else renderChanged(store, changes.keys);
  renderEpisodes(store);
}
