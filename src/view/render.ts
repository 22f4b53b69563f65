/**
 * The readable view under the home directory, regenerated from the database
 * (the source of truth): instincts/personal/*.md, convictions.md, identity.json.
 */
import { existsSync, readFileSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileIfChanged, ensureDir } from '../core/fs.js';
import { slugify, counted } from '../core/text.js';
import { parseJsonObject } from '../store/json.js';
import { type InstinctRow, OBSERVATION_KINDS } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { convictionText, listConvictions } from '../learn/evolve.js';
import { type InstinctView, storeViews } from '../learn/records.js';
import { parseFrontmatter, renderFrontmatter } from '../core/frontmatter.js';

function instinctFileName(row: Pick<InstinctRow, 'key' | 'id'>, taken: ReadonlySet<string>): string {
  const base = slugify(row.key);
  const name = `${base}.md`;
  return taken.has(name) ? `${base}-${row.id}.md` : name;
}

export function renderInstinctMarkdown(store: Store, row: InstinctRow): string {
  const view = storeViews(store, [row])[0] as InstinctView;
  const events = store.instincts.events(row.id);
  const evidence = [`- Observed ${counted(row.evidence, 'time')} between ${row.first_seen.slice(0, 10)} and ${row.last_seen.slice(0, 10)}`];
  if (view.origin === 'imported') evidence.push(`- Imported; observed here ${counted(view.local_evidence, 'time')}`);
  if (row.explain) evidence.push(`- ${row.explain}`);
  // What the observer saw, session by session (the learning run keeps the last few).
  const examples = parseJsonObject(row.metadata).examples;
  if (Array.isArray(examples)) for (const e of examples) if (typeof e === 'string' && e) evidence.push(`- ${e}`);
  // Where it was observed: a decay or a feedback event names no source of evidence (feedback has its own line).
  const sources = [...new Set(events.filter((e) => OBSERVATION_KINDS.includes(e.kind)).map((e) => e.source))].filter(Boolean);
  if (sources.length) evidence.push(`- Sources: ${sources.join(', ')}`);
  const feedback = events.filter((e) => e.kind === 'feedback').map((e) => e.detail);
  if (feedback.length) evidence.push(`- Feedback: ${feedback.join(', ')}`);
  const body = [`# ${row.title || row.key}`, '', '## Action', '', row.action || row.trigger, '', '## Evidence', '', ...evidence].join('\n');
  return renderFrontmatter(
    {
      trigger: row.trigger,
      action: row.action,
      confidence: view.confidence,
      domain: row.domain,
      created: row.first_seen,
      last_seen: row.last_seen,
      key: row.key,
      category: row.category,
      evidence: row.evidence,
      level: view.level,
      project: row.project,
      source: row.source || undefined,
      origin: view.origin === 'imported' ? 'imported' : undefined,
      promoted: view.conviction || undefined,
      promoted_to: row.promoted_to ?? undefined,
      // The user's "wrong" lives in the event log: said here too, so import-files brings it back.
      verdict: view.verdict === 'wrong' ? 'wrong' : undefined,
    },
    body,
  );
}

/** The key an instinct file names, or undefined for a file that is not one (the user's own notes). */
function fileKey(path: string): string | undefined {
  try {
    const key = parseFrontmatter(readFileSync(path, 'utf8')).data.key;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Whether this database forgot `key` or merged it into another, and holds no instinct under it now. */
function gone(store: Store, key: string): boolean {
  if (store.instincts.get(key) !== undefined) return false;
  return store.instincts.forgottenAt(key) !== undefined || store.instincts.resolveAlias(key) !== key;
}

/**
 * The instinct files no instinct of this database is rendered to: its leftovers (instincts it
 * forgot or merged, to remove) and strays (a key it never held, or holds in another file: the
 * files of a database deleted and begun again, the only copy of what the old one learned, which
 * the next sync brings back). A file that names no key (a note of the user's) is neither.
 */
export function unrenderedFiles(store: Store): { leftovers: string[]; strays: string[] } {
  const dir = store.paths.instincts;
  const taken = new Set(store.instincts.list().map((r) => r.file_name));
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.md') && !taken.has(name)) : [];
  const leftovers: string[] = [];
  const strays: string[] = [];
  for (const name of files) {
    const key = fileKey(join(dir, name));
    if (key !== undefined) (gone(store, key) ? leftovers : strays).push(join(dir, name));
  }
  return { leftovers, strays };
}

/** Renders the given instincts (all when omitted), removing the files of instincts this database forgot or merged. */
function renderInstincts(store: Store, only?: readonly string[]): number {
  const dir = store.paths.instincts;
  ensureDir(dir);
  const rows = store.instincts.list();
  // A new instinct never takes a file that is there already: a note of the user's, or what a
  // deleted database learned (sync brings that back, and the file keeps its name). The folder
  // is listed only when an instinct needs a name, not at every render.
  let taken: Set<string> | undefined;
  const wanted = only ? new Set(only) : undefined;
  let written = 0;
  for (const row of rows) {
    if (wanted && !wanted.has(row.key)) continue;
    let fileName = row.file_name;
    if (!fileName) {
      taken ??= new Set([...rows.map((r) => r.file_name).filter((n): n is string => !!n), ...readdirSync(dir)]);
      fileName = instinctFileName(row, taken);
      taken.add(fileName);
      store.instincts.update(row.id, { file_name: fileName });
    }
    if (writeFileIfChanged(join(dir, fileName), renderInstinctMarkdown(store, { ...row, file_name: fileName }))) written++;
  }
  if (!wanted) for (const path of unrenderedFiles(store).leftovers) unlinkSync(path);
  return written;
}

function renderConvictions(store: Store): boolean {
  // prettier-ignore
  const lines = [
    '# Convictions',
    '',
    'Instincts promoted to permanent rules: after sustained high confidence, or by hand.',
    'These are injected at session start and do not decay.',
    '',
  ];
  // Those the user marked wrong are listed, but say they are not injected.
  const given = new Set(listConvictions(store, undefined, { given: true }).map((c) => c.instinct_id));
  for (const c of listConvictions(store)) {
    const marks = [
      c.stale ? ` _(possibly stale: confidence ${c.confidence.toFixed(2)})_` : '',
      given.has(c.instinct_id) ? '' : ' _(marked wrong by the user: not injected)_',
    ].join('');
    lines.push(`- ${convictionText(c) === c.rule ? `**${c.rule}**` : `**${c.title}**: ${c.rule}`}${marks}`);
  }
  return writeFileIfChanged(store.paths.convictions, `${lines.join('\n')}\n`);
}

export function renderIdentity(store: Store): boolean {
  return writeFileIfChanged(store.paths.identity, `${JSON.stringify(store.identity.read(), null, 2)}\n`);
}

function ensureLayout(store: Store): void {
  const p = store.paths;
  for (const dir of [p.instincts, p.sessions, p.episodes, p.exports, p.logs]) ensureDir(dir);
  if (!existsSync(p.convictions)) renderConvictions(store);
  if (!existsSync(p.identity)) renderIdentity(store);
}

/** Brings the whole readable view up to date. */
export function renderAll(store: Store): void {
  ensureLayout(store);
  renderInstincts(store);
  renderConvictions(store);
  renderIdentity(store);
}

/** After a change to some instincts: re-render them plus the files that summarise the store. */
export function renderChanged(store: Store, keys: readonly string[]): void {
  ensureLayout(store);
  renderInstincts(store, keys);
  renderConvictions(store);
  renderIdentity(store);
}
