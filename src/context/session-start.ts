/**
 * Session-start context (the start hook): convictions first, then the instincts of this
 * project and the global ones in plain words (what the user said or stopped first, then the
 * other preferences and fixes; instincts that share a trigger on one line), skipping promoted
 * and documented ones and those the agent reads in its rule files already, and where the
 * full instinct files are (how many observations wait for learning is the user's
 * business, `homunculus status`, not the agent's). Above QMD_THRESHOLD instincts the ones
 * ranked for the project's detected stack come next after what the user said (its name is in all of them).
 */
import type { ProjectInfo } from '../core/project.js';
import { counted } from '../core/text.js';
import { convictionText, listConvictions } from '../learn/evolve.js';
import { isDocumented } from '../learn/documented.js';
import { currentConfidence, heldBackReport, reportedByAgent } from '../learn/records.js';
import type { InstinctProvenance, InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { FENCE_OVERHEAD, fenceMemory } from './fence.js';
import { fitToBudget, instinctSource, oneLine } from './format.js';
import { categoryRank, fromRow, mergeSimilar, plainLine, saysSomething } from './plain.js';
import { formatThread, lastSession } from './thread.js';
import { matchInstincts } from './rank.js';
import { seenHere } from './seen-here.js';

const QMD_THRESHOLD = 30;
const START_TOP = 15;
/** Lines at most, once instincts that share a trigger are merged. */
const START_LINES = 10;
const START_BUDGET = 9_000;
const THREAD_CHARS = 600;

interface StartContextInput {
  project: ProjectInfo;
  stack: readonly string[];
  /** The session starting: left out of the last session. */
  sessionId?: string;
  /** Instinct keys the agent already reads in the project's rule files: not given twice. */
  exported?: ReadonlySet<string>;
  budget?: number;
}

interface StartSelection {
  shown: InstinctRow[];
  total: number;
  ranked: boolean;
}

/** What the user said in words or by stopping the agent: it leads, whatever it was seen beside. */
const USER_MINERS = new Set(['preference', 'rejection']);

/**
 * The order of start lines: what an agent reported over MCP (observe, import_patterns) last,
 * whatever it says it is, unless the user confirmed it; then what the user said first, then
 * preferences and corrections, then the rest. (The user's own imports keep their place, labelled.)
 */
function startClass(row: InstinctRow, metadata: Record<string, unknown>, provenance: InstinctProvenance | undefined): number {
  if (reportedByAgent(metadata) && provenance?.verdict !== 'strong') return 3;
  if (USER_MINERS.has(String(metadata.miner))) return 0;
  return categoryRank(row) <= 1 ? 1 : 2;
}

/** The instincts to index: all of them up to the threshold, else the best START_TOP for the project. */
export function selectStartInstincts(
  store: Store,
  project: ProjectInfo,
  stack: readonly string[],
  exported: ReadonlySet<string> = new Set(),
): StartSelection {
  const now = store.clock.now();
  const listed = store.instincts
    .list({ unpromoted: true, unrefuted: true, project: project.fingerprint, includeGlobal: true })
    .map((row) => ({ row, metadata: parseJsonObject(row.metadata) }))
    .filter(({ row, metadata }) => !isDocumented(metadata) && saysSomething(row) && !exported.has(row.key));
  // Only a model's report needs its verdict read: one query for those few, not every row.
  const provenance = store.instincts.provenance(listed.filter((c) => reportedByAgent(c.metadata)).map((c) => c.row.id));
  const candidates = listed.filter(({ row }) => !heldBackReport(row, provenance.get(row.id)));
  const rows = candidates.map((c) => c.row);
  const ordered = candidates
    .map(({ row, metadata }) => ({ row, score: currentConfidence(row, now), first: startClass(row, metadata, provenance.get(row.id)) }))
    .sort((a, b) => a.first - b.first || b.score - a.score || b.row.evidence - a.row.evidence || a.row.key.localeCompare(b.row.key));
  const byScore = ordered.map((x) => x.row);
  if (rows.length <= QMD_THRESHOLD) return { shown: byScore, total: rows.length, ranked: false };
  // What the user said or stopped leads whatever the stack is; then the best START_TOP for the
  // stack (every instinct of the project names the project), then the rest. The lines, not the
  // instincts, are counted: fifteen lint rules of one linter are one line, and cutting at fifteen
  // instincts left four lines and dropped the user's own words.
  const said = ordered.filter((x) => x.first === 0).map((x) => x.row);
  const eligible = new Set(rows.map((r) => r.id));
  const hits = matchInstincts(store.instincts, { text: stack.join(' '), project: project.fingerprint, limit: START_TOP })
    .map((r) => r.row)
    .filter((r) => eligible.has(r.id));
  const shown = [...new Map([...said, ...hits, ...byScore].map((r) => [r.id, r])).values()];
  return { shown, total: rows.length, ranked: hits.length > 0 };
}

const CONVICTIONS_HEAD = 'Convictions (established over weeks, or promoted by the user; they do not decay):';

function convictionLines(convictions: ReturnType<typeof listConvictions>, provenance: ReadonlyMap<number, InstinctProvenance>): string[] {
  return convictions.map((c) => {
    const source = `conviction, ${instinctSource(provenance.get(c.instinct_id))}${c.stale ? ', may be stale' : ''}`;
    return `- ${oneLine(convictionText(c), 400)} (${source})`;
  });
}

/** The convictions that hold in a project (its own and the global ones), as the session start gives them; '' when none. */
export function convictionsBlock(store: Store, project: string): string {
  const convictions = listConvictions(store, project, { given: true });
  if (convictions.length === 0) return '';
  const provenance = store.instincts.provenance(convictions.map((c) => c.instinct_id));
  return [CONVICTIONS_HEAD, ...convictionLines(convictions, provenance)].join('\n');
}

/** What session start gives: the block, and the instincts its lines name (the prompt hook does not give them again). */
export interface StartContext {
  text: string;
  keys: string[];
}

/**
 * How much of the store the lines give: "10 of 24 instincts shown", or, where a line merges
 * several, "8 lines give 15 of the 31 instincts" (8 bullets for 15 "shown" read as a mistake).
 */
export function shownCount(lines: number, given: number, total: number): string {
  if (lines === given) return `${given} of ${total} instincts shown`;
  return `${counted(lines, 'line')} ${lines === 1 ? 'gives' : 'give'} ${given} of the ${total} instincts`;
}

export function sessionStartContext(store: Store, input: StartContextInput): StartContext {
  const exported = input.exported ?? new Set<string>();
  const convictions = listConvictions(store, input.project.fingerprint, { given: true }).filter((c) => !exported.has(c.pattern));
  const selection = selectStartInstincts(store, input.project, input.stack, exported);
  if (convictions.length === 0 && selection.total === 0) return { text: '', keys: [] };
  const provenance = store.instincts.provenance([...convictions.map((c) => c.instinct_id), ...selection.shown.map((r) => r.id)]);
  const stack = input.stack.length ? ` (${input.stack.slice(0, 6).join(', ')})` : '';
  const last = lastSession(store, input.project.fingerprint, input.sessionId);
  // A directory nothing was learned in gets only what holds everywhere: it says so, not "established for other-project".
  const known = input.project.name && (last || selection.shown.some((r) => r.project === input.project.fingerprint));
  const head = [
    known
      ? `What earlier sessions with this user established for ${oneLine(input.project.name, 80)}${stack}, with where each item came from.`
      : `What earlier sessions with this user established that holds in any project (nothing yet for ${oneLine(input.project.name, 80) || 'this directory'}${stack}), with where each item came from.`,
  ];
  if (convictions.length) head.push('', CONVICTIONS_HEAD, ...convictionLines(convictions, provenance));
  const groups = mergeSimilar(
    seenHere(store, selection.shown, input.project).map((row) => fromRow(row, provenance, store.clock.now())),
  ).slice(0, START_LINES);
  const items = groups.map((group) => plainLine(group));
  // What the last session was about, for continuity; the prompt hook no longer repeats it.
  const tail: string[] = last ? [formatThread(last, THREAD_CHARS)] : [];
  // Counted from the lines given: rows past the last line are not shown either.
  const given = groups.reduce((n, group) => n + group.length, 0);
  if (selection.total > given) {
    const first = selection.ranked ? `, those about ${oneLine(input.stack.slice(0, 6).join(', '), 120)} first` : '';
    tail.push(`${shownCount(groups.length, given, selection.total)}${first}.`);
  }
  tail.push(`Evidence and history of each: \`homunculus list\`, or the files in ${store.paths.instincts}.`);
  const instinctHead = selection.total ? ['', 'Learned from how this user works (most useful first):'] : [];
  const budget = (input.budget ?? START_BUDGET) - FENCE_OVERHEAD;
  const fitted = fitToBudget([...head, ...instinctHead], items, ['', ...tail], budget);
  const keys = [...convictions.map((c) => c.pattern), ...groups.slice(0, fitted.shown).flatMap((group) => group.map((r) => r.name))];
  return { text: fenceMemory(fitted.text, { max: input.budget ?? START_BUDGET }), keys };
}
