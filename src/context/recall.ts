/**
 * Mid-session recall (the recall hook): after an edit, the rules learned about that very file
 * (edit it with its pair, the same change on the parallel side) and the earlier sessions and
 * episodes that touched it, as a short [RECALL] context. Said once per file per session.
 */
import type { ProjectInfo } from '../core/project.js';
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { FENCE_OVERHEAD, fenceMemory } from './fence.js';
import { fitToBudget, oneLine } from './format.js';
import { fromRow, plainLine } from './plain.js';
import { summaryForAgent } from './thread.js';

const RECALL_BUDGET = 1_200;
const RECALL_SESSIONS = 3;
const RECALL_EPISODES = 2;

interface RecallInput {
  sessionId: string;
  /** The observation being recalled for: earlier ones in this session mean recall was already given. */
  toolUseId: string;
  files: readonly string[];
  project: ProjectInfo;
  budget?: number;
  /** Instinct keys and `session:<id>` entries the agent's context already holds: not given again. */
  skip?: ReadonlySet<string>;
  /** Told what was given (instinct keys, `session:<id>`), for the next hook's `skip`. */
  onGiven?: (keys: string[]) => void;
}

/** How an earlier session listed by a recall is named in what the session holds. */
const sessionEntry = (id: string): string => `session:${id}`;

function relativeTo(file: string, root: string): string | undefined {
  const base = root.replace(/\/+$/, '');
  return base && file.startsWith(`${base}/`) ? file.slice(base.length + 1) : undefined;
}

/**
 * True when this session already edited the file in an earlier call (recall was given then).
 * Reading it does not count: Claude Code reads every file before it edits it.
 */
function seenThisSession(store: Store, input: RecallInput, file: string): boolean {
  return store.observations.sessionEdited(input.sessionId, input.toolUseId, file);
}

interface SessionHit {
  id: string;
  project_name: string;
  started_at: string | null;
  summary: string;
}

interface EpisodeHit {
  title: string;
  date: string;
  body: string;
}

interface FileHistory {
  sessions: SessionHit[];
  episodes: EpisodeHit[];
}

/** Sessions and episodes that touched `file`: the same absolute path, or the same path inside another checkout of the project. */
export function fileHistory(
  store: Store,
  file: string,
  project: ProjectInfo,
  options: { excludeSession?: string; sessions?: number; episodes?: number } = {},
): FileHistory {
  const relative = relativeTo(file, project.root);
  const ref = { file, project: project.fingerprint, ...(relative ? { relative } : {}) };
  const sessions = store.sessions.touching(ref, { exceptId: options.excludeSession, limit: options.sessions ?? RECALL_SESSIONS });
  const episodes = store.episodes.touching(ref, options.episodes ?? RECALL_EPISODES);
  return { sessions, episodes };
}

/**
 * The project's co-edit rules that name `file` (by its path inside the project, as code): the
 * moment after an edit is when "update the other file too" applies.
 */
function rulesAbout(store: Store, file: string, project: ProjectInfo): InstinctRow[] {
  const relative = relativeTo(file, project.root);
  if (!relative || !project.fingerprint) return [];
  const named = (r: InstinctRow): boolean => r.trigger.includes(`\`${relative}\``) || r.action.includes(`\`${relative}\``);
  return store.instincts.list({ project: project.fingerprint, category: 'combo' }).filter(named).slice(0, RECALL_RULES);
}

const RECALL_RULES = 2;

export function recallContext(store: Store, input: RecallInput): string {
  /** Each line with what it gives the session (an instinct key, `session:<id>`), if anything. */
  const lines: { text: string; entry?: string }[] = [];
  const heads: string[] = [];
  const held = new Set(input.skip);
  const fresh = (entry: string): boolean => !held.has(entry) && (held.add(entry), true);
  for (const file of input.files.slice(0, 3)) {
    if (seenThisSession(store, input, file)) continue;
    const rules = rulesAbout(store, file, input.project).filter((r) => fresh(r.key));
    const history = fileHistory(store, file, input.project, { excludeSession: input.sessionId });
    const sessions = history.sessions.filter((s) => fresh(sessionEntry(s.id)));
    if (rules.length === 0 && sessions.length === 0 && history.episodes.length === 0) continue;
    heads.push(relativeTo(file, input.project.root) ?? file);
    for (const r of rules) lines.push({ text: plainLine([fromRow(r, undefined, store.clock.now())], 400), entry: r.key });
    for (const s of sessions)
      lines.push({
        text: `- ${(s.started_at ?? '').slice(0, 10)} session (${s.project_name}): ${oneLine(summaryForAgent(s.summary), 220)}`,
        entry: sessionEntry(s.id),
      });
    for (const e of history.episodes)
      lines.push({ text: `- ${e.date.slice(0, 10)} episode: ${oneLine(e.title, 100)}${e.body ? ` — ${oneLine(e.body, 160)}` : ''}` });
  }
  if (lines.length === 0) return '';
  const budget = input.budget ?? RECALL_BUDGET;
  const head = [
    `[RECALL] Earlier work on ${heads.map((h) => oneLine(h, 200)).join(', ')} (rules, sessions and episodes recorded by Homunculus):`,
  ];
  const fitted = fitToBudget(
    head,
    lines.map((l) => l.text),
    [],
    budget - FENCE_OVERHEAD,
  );
  const given = lines.slice(0, fitted.shown).flatMap((l) => (l.entry ? [l.entry] : []));
  if (given.length) input.onGiven?.(given);
  return fenceMemory(fitted.text, { max: budget });
}
