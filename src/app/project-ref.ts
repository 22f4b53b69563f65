/** A project named on a command line or in a tool call, as the fingerprint the store keys it by. */
import { UsageError } from '../core/errors.js';
import { aliasedProject, importedTwin, joinProject } from '../core/project-alias.js';
import { type ProjectInfo, detectProject, isFingerprint } from '../core/project.js';
import type { Store } from '../store/store.js';

/**
 * A project given as a fingerprint, a name its sessions or the graph know it by ("cli"), or,
 * when absent, the repository of `cwd`, joined to its imported history as the hooks and the MCP
 * server join it (a fresh checkout's `export-rules` found nothing until one of them had run).
 * '' stays '' (global).
 */
export function resolveProject(store: Store, value: string | undefined, cwd = process.cwd()): string {
  if (value === undefined) return joinedProject(store, detectProject(cwd)).fingerprint;
  if (value === '' || isFingerprint(value)) return value;
  const lower = value.toLowerCase();
  const seen = store.sessions.projects();
  const bySession = seen.find((p) => p.project_name.toLowerCase() === lower)?.project;
  if (bySession) return bySession;
  const entity = store.graph.entities.list({ type: 'project' }).find((e) => e.name.toLowerCase() === lower);
  const fingerprint = entity?.properties.fingerprint;
  if (typeof fingerprint === 'string' && fingerprint) return fingerprint;
  const known = [...new Set(seen.map((p) => p.project_name).filter(Boolean))].slice(0, 8);
  throw new UsageError(
    `Unknown project ${JSON.stringify(value)}.`,
    known.length
      ? `Give a project fingerprint (16 hex characters) or one of the names sessions were seen in: ${known.join(', ')}.`
      : 'Give a project fingerprint (16 hex characters): no session has been recorded yet.',
  );
}

/** What to tell someone whose `project` no session or graph knows (its known names included), or undefined. */
export function unknownProjectNote(store: Store, project: string): string | undefined {
  try {
    resolveProject(store, project);
    return undefined;
  } catch (err) {
    return err instanceof UsageError ? [err.message, err.hint].filter(Boolean).join(' ') : undefined;
  }
}

/**
 * The key a tool call's project names, leniently: a known name becomes its fingerprint, anything
 * else stays as written (a pattern may be filed under a name the store does not know yet).
 */
export function projectKey(store: Store, value: string): string {
  if (value === '' || isFingerprint(value)) return value;
  try {
    return resolveProject(store, value);
  } catch {
    return value;
  }
}

/** The name a project's sessions were seen under ("cli"), for a fingerprint or a name; the value itself when none is known. */
export const projectName = (store: Store, value: string): string => projectNames(store)(value);

/** projectName for many values, with the projects listed once. */
export function projectNames(store: Store): (value: string) => string {
  // The graph's project entities name the projects no session here was seen in (an imported archive's).
  const names = new Map([...entityProjectNames(store), ...store.sessions.projects().map((p) => [p.project, p.project_name] as const)]);
  return (value) => names.get(projectKey(store, value)) || value;
}

/**
 * The project of a checkout as this store files it. A checkout with a remote that has nothing of
 * its own yet, while history imported for its repository's name has sessions that name the
 * repository ("entireio/cli": its URL, its Go module, its pull requests), is joined to that
 * history, once and for good (core/project-alias.ts). Another repository of the same name is
 * remembered as apart, so the question is asked once.
 */
export function joinedProject(store: Store, info: ProjectInfo): ProjectInfo {
  const here = aliasedProject(info, store.paths.projectAliases);
  if (here !== info) return here;
  const twin = importedTwin(info);
  if (!twin || twin.alias.fingerprint === info.fingerprint) return info;
  if (store.sessions.seen(info.fingerprint) || !store.sessions.seen(twin.alias.fingerprint)) return info;
  const ours = store.observations.mentions(twin.alias.fingerprint, twin.mark);
  const to = ours ? twin.alias : { fingerprint: info.fingerprint, name: info.name };
  return joinProject(store.paths.projectAliases, info.fingerprint, to) && ours ? { ...info, ...twin.alias } : info;
}

/** fingerprint -> name of the graph's project entities that carry a fingerprint. */
function entityProjectNames(store: Store): [string, string][] {
  return store.graph.entities
    .list({ type: 'project' })
    .flatMap((e) =>
      typeof e.properties.fingerprint === 'string' && e.properties.fingerprint
        ? [[e.properties.fingerprint, e.name] as [string, string]]
        : [],
    );
}
