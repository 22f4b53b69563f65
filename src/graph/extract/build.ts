/**
 * Building the graph at the end of a session: read the session (observations, else its
 * transcript), extract deterministically (manifests, tools, files, errors and fixes,
 * preferences and decisions) and, with a model configured, by the model; then add the
 * facts, apply contradictions, retire dependencies the manifests no longer list, link an
 * episode, and embed the session's facts when an embedder is given.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { isRegularFile } from '../../core/fs.js';
import { detectProject } from '../../core/project.js';
import { redact } from '../../core/redact.js';
import { truncate } from '../../core/text.js';
import { parseJsonObject } from '../../store/json.js';
import type { SessionRow } from '../../store/sessions.js';
import type { Store } from '../../store/store.js';
import { type AddAction, addFact } from '../add-fact.js';
import type { Embedder } from '../../search/embeddings.js';
import { deduplicateByEmbedding, embedFacts } from '../embeddings.js';
import { type Fact, isCurrent } from '../facts.js';
import { entityKey } from '../ontology.js';
import { type SessionEvent, eventsFromObservations, readTranscript } from './events.js';
import { type CompleteFn, type ExtractionCounts, DEFAULT_TOKEN_BUDGET, buildExtractionPrompt, parseExtraction } from './llm.js';
import { type ManifestInfo, readManifests } from './manifests.js';
import { extractSessionFacts } from './session.js';
import type { ExtractedFact, ExtractedGraph } from './types.js';

export interface BuildOptions {
  sessionId: string;
  /** Transcript to read when the session has no observations (default: the session's transcript_path). */
  transcriptPath?: string;
  /** Project root holding the manifests (default: the repository of the session's cwd). */
  root?: string;
  complete?: CompleteFn;
  tokenBudget?: number;
  /** Embeds the session's facts (their search documents) and supersedes those a newer one duplicates in meaning. */
  embedder?: Embedder;
  /**
   * Runs in the transaction that writes the session's facts (or at once when there is
   * nothing to write), so a caller's record that the session is in the graph commits with
   * the facts themselves: a crash leaves both or neither.
   */
  onApplied?: () => void;
}

export interface BuildReport {
  session: string;
  project: { name: string; fingerprint: string; root: string };
  source: 'observations' | 'transcript' | 'none';
  events: number;
  manifests: string[];
  actions: Record<AddAction, number>;
  facts: number[];
  contradicted: number[];
  retired_dependencies: number[];
  episode?: number;
  llm: { used: boolean; reason: string; prompt_tokens?: number; counts?: ExtractionCounts };
  embedded?: number;
  embedding_duplicates?: number;
}

function sessionText(events: readonly SessionEvent[]): string {
  return events
    .map((e) => {
      if (e.event === 'prompt') return `[user] ${truncate(e.input.replace(/\s+/g, ' '), 600)}`;
      if (e.event !== 'tool') return '';
      const what = truncate((e.intent ? `${e.intent}: ` : '') + e.input.replace(/\s+/g, ' '), 200);
      return `[${e.tool}] ${what}${e.outcome === 'error' ? ` -> error: ${truncate(e.error, 200)}` : ''}`;
    })
    .filter(Boolean)
    .join('\n');
}

interface Loaded {
  events: SessionEvent[];
  source: BuildReport['source'];
  cwd: string;
  /** The fingerprint and readable name the capture recorded, when it did. */
  project?: string;
  projectName?: string;
}

function loadEvents(store: Store, options: BuildOptions, row: SessionRow | undefined): Loaded {
  const observations = store.observations.forSession(options.sessionId);
  if (observations.length > 0) {
    const named = observations.map((o) => parseJsonObject(o.data).project_name).find((n): n is string => typeof n === 'string' && n !== '');
    return {
      events: eventsFromObservations(observations),
      source: 'observations',
      cwd: row?.cwd || observations.find((o) => o.cwd)?.cwd || '',
      project: observations.find((o) => o.project)?.project,
      projectName: named,
    };
  }
  // Only a regular file is read (a pipe would never end); one named on the command line was checked by its operation.
  const path = options.transcriptPath ?? row?.transcript_path ?? undefined;
  if (path && isRegularFile(path)) {
    const t = readTranscript(path);
    return { events: t.events, source: 'transcript', cwd: row?.cwd || t.cwd };
  }
  return { events: [], source: 'none', cwd: row?.cwd ?? '' };
}

async function modelExtraction(
  store: Store,
  options: BuildOptions,
  events: readonly SessionEvent[],
  projectName: string,
  fingerprint: string,
  report: BuildReport,
): Promise<ExtractedGraph | undefined> {
  if (!options.complete) return void (report.llm.reason = 'no model configured');
  if (events.length === 0) return void (report.llm.reason = 'nothing to read');
  const now = store.clock.now();
  const existing = store.graph.entities.list({ limit: 100 });
  const facts = store.graph.facts.list({ time: { now: now.toISOString() }, projects: [fingerprint] }, { order: 'recent', limit: 50 });
  const prompt = buildExtractionPrompt(
    { projectName, sessionId: options.sessionId, entities: existing, facts, sessionText: sessionText(events) },
    options.tokenBudget ?? DEFAULT_TOKEN_BUDGET,
  );
  if (!prompt) return void (report.llm.reason = `token budget ${options.tokenBudget} is too small for the extraction prompt`);
  report.llm.prompt_tokens = Math.ceil(prompt.length / 4);
  let answer: string;
  try {
    answer = await options.complete(prompt);
  } catch (err) {
    report.llm.reason = `model call failed: ${(err as Error).message}`;
    return undefined;
  }
  const { graph, counts } = parseExtraction(answer, {
    existing: existing.map((e) => ({ name: e.name, type: e.type })),
    currentFactIds: new Set(facts.map((f) => f.id)),
    now,
  });
  report.llm = { used: true, reason: 'extracted', prompt_tokens: report.llm.prompt_tokens, counts };
  return graph;
}

/** Dependencies a manifest no longer lists: their facts stop being true now. */
function retireDependencies(store: Store, projectId: number, manifests: ManifestInfo): number[] {
  if (manifests.manifests.length === 0) return [];
  const now = store.clock.now().toISOString();
  const listed = new Set(manifests.dependencies.map((d) => `${d.manifest}\u0000${entityKey(d.name)}`));
  const stale = store.graph.facts.list({ sourceId: projectId, relations: ['depends_on'], time: { now } }).filter((f) => {
    const manifest = String(f.metadata.manifest ?? '');
    return (
      f.metadata.from === 'manifest' && manifests.manifests.includes(manifest) && !listed.has(`${manifest}\u0000${entityKey(f.target)}`)
    );
  });
  for (const f of stale) store.graph.facts.close(f.id, { expiredAt: now, invalidAt: now, reason: 'retracted' });
  return stale.map((f) => f.id);
}

/** The model's contradictions: each names a current fact, closed (and linked to its replacement when the model added one). */
function applyContradictions(store: Store, model: ExtractedGraph | undefined, added: readonly Fact[], report: BuildReport): void {
  const now = store.clock.now();
  const nowIso = now.toISOString();
  for (const c of model?.contradictions ?? []) {
    const replacement = c.replacedBy !== undefined ? added[c.replacedBy] : undefined;
    const current = store.graph.facts.get(c.factId);
    if (!current || !isCurrent(current, now) || current.id === replacement?.id) continue;
    store.graph.facts.close(c.factId, {
      expiredAt: nowIso,
      invalidAt: replacement?.valid_at ?? nowIso,
      reason: 'contradicted',
      supersededBy: replacement?.id,
    });
    report.contradicted.push(c.factId);
  }
}

/** A fact's names and description redacted again as they are written: they come from session text. */
const redactFact = (f: ExtractedFact): ExtractedFact => ({
  ...f,
  source: { ...f.source, name: redact(f.source.name) },
  target: { ...f.target, name: redact(f.target.name) },
  description: redact(f.description),
});

/** Adds what was extracted, applies the model's contradictions, retires stale dependencies and links the episode. */
function applyExtraction(
  store: Store,
  extracted: { deterministic: readonly ExtractedFact[]; model: ExtractedGraph | undefined; manifests: ManifestInfo },
  context: { sessionId: string; fingerprint: string; timestamp: string; summary: string },
  report: BuildReport,
): void {
  const apply = (extracted: ExtractedFact, origin: 'deterministic' | 'llm') => {
    const f = redactFact(extracted);
    const r = addFact(store, {
      source: f.source,
      target: f.target,
      relation: f.relation,
      description: f.description,
      confidence: f.confidence,
      // What a session showed was true when it happened, not when it was read (an import).
      validAt: f.validAt ?? context.timestamp,
      correction: f.correction,
      project: context.fingerprint,
      sourceSession: context.sessionId,
      origin,
      metadata: f.metadata,
    });
    report.actions[r.action]++;
    report.facts.push(r.fact.id);
    return r.fact;
  };
  for (const f of extracted.deterministic) apply(f, 'deterministic');
  const added = (extracted.model?.facts ?? []).map((f) => apply(f, 'llm'));
  applyContradictions(store, extracted.model, added, report);
  const projectNode = store.graph.entities.projectByFingerprint(context.fingerprint);
  if (projectNode) report.retired_dependencies = retireDependencies(store, projectNode.id, extracted.manifests);
  const facts = store.graph.facts.byIds(report.facts);
  report.episode = store.graph.episodes.record({
    sourceRef: context.sessionId,
    project: context.fingerprint,
    timestamp: context.timestamp,
    summary: redact(context.summary),
    entityIds: facts.flatMap((f) => [f.source_id, f.target_id]),
    factIds: facts.map((f) => f.id),
  });
}

export async function buildGraphFromSession(store: Store, options: BuildOptions): Promise<BuildReport> {
  const row = store.sessions.get(options.sessionId);
  const loaded = loadEvents(store, options, row);
  const { events, source, cwd } = loaded;
  const detected = cwd ? detectProject(cwd) : undefined;
  const root = options.root ?? (detected?.root && existsSync(detected.root) ? detected.root : '');
  const fingerprint = row?.project || loaded.project || detected?.fingerprint || '';
  const name = row?.project_name || loaded.projectName || detected?.name || (root ? basename(root) : '') || 'unknown project';
  const manifests = readManifests(root);
  const report: BuildReport = {
    session: options.sessionId,
    project: { name, fingerprint, root },
    source,
    events: events.length,
    manifests: manifests.manifests,
    actions: { created: 0, duplicate: 0, reconsolidated: 0, superseded: 0, historical: 0 },
    facts: [],
    contradicted: [],
    retired_dependencies: [],
    llm: { used: false, reason: '' },
  };
  if (events.length === 0 && manifests.manifests.length === 0) {
    if (options.onApplied) store.transaction(options.onApplied);
    return report;
  }

  const deterministic = extractSessionFacts(events, {
    project: { name, fingerprint, root, display: root || detected?.root || cwd },
    sessionId: options.sessionId,
    manifests,
  });
  const model = await modelExtraction(store, options, events, name, fingerprint, report);
  const timestamp = events.at(-1)?.ts || row?.ended_at || store.clock.now().toISOString();
  const context = { sessionId: options.sessionId, fingerprint, timestamp, summary: row?.summary ?? '' };
  store.transaction(() => {
    applyExtraction(store, { deterministic, model, manifests }, context, report);
    options.onApplied?.();
  });

  if (options.embedder) {
    report.embedded = await embedFacts(options.embedder, store, report.facts);
    report.embedding_duplicates = deduplicateByEmbedding(store, report.facts, { key: options.embedder.key }).length;
  }
  return report;
}
