/**
 * Session-start context (the start hook): convictions first, then a compact index of
 * instincts (trigger + confidence, not the action), skipping promoted ones, the count of
 * pending observations and where the full instinct files are. Above QMD_THRESHOLD instincts
 * it shows the START_TOP ranked for this project (its name and detected stack).
 */
import type { ProjectInfo } from '../core/project.js';
import { listConvictions } from '../learn/evolve.js';
import { isDocumented } from '../learn/documented.js';
import { currentConfidence } from '../learn/records.js';
import type { InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { FENCE_OVERHEAD, fenceMemory } from './fence.js';
import { fitToBudget, instinctSource, oneLine, shortKey } from './format.js';
import { matchInstincts } from './rank.js';

const QMD_THRESHOLD = 30;
const START_TOP = 15;
const START_BUDGET = 9_000;

interface StartContextInput {
  project: ProjectInfo;
  stack: readonly string[];
  budget?: number;
}

interface StartSelection {
  shown: InstinctRow[];
  total: number;
  ranked: boolean;
}

/** The instincts to index: all of them up to the threshold, else the best START_TOP for the project. */
export function selectStartInstincts(store: Store, project: ProjectInfo, stack: readonly string[]): StartSelection {
  const now = store.clock.now();
  const rows = store.instincts
    .list({ unpromoted: true, project: project.fingerprint, includeGlobal: true })
    .filter((r) => !isDocumented(parseJsonObject(r.metadata)));
  const byScore = rows
    .map((row) => ({ row, score: currentConfidence(row, now) }))
    .sort((a, b) => b.score - a.score || b.row.evidence - a.row.evidence || a.row.key.localeCompare(b.row.key))
    .map((x) => x.row);
  if (rows.length <= QMD_THRESHOLD) return { shown: byScore, total: rows.length, ranked: false };
  // Ranked hits first, then the strongest of the rest: never fewer than START_TOP lines.
  const query = [project.name, ...stack].join(' ');
  const hits = matchInstincts(store.instincts, { text: query, project: project.fingerprint, limit: START_TOP }).map((r) => r.row);
  const seen = new Set(hits.map((r) => r.id));
  const shown = [...hits, ...byScore.filter((r) => !seen.has(r.id))].slice(0, START_TOP);
  return { shown, total: rows.length, ranked: hits.length > 0 };
}

export function sessionStartContext(store: Store, input: StartContextInput): string {
  const now = store.clock.now();
  const convictions = listConvictions(store);
  const selection = selectStartInstincts(store, input.project, input.stack);
  if (convictions.length === 0 && selection.total === 0) return '';
  const provenance = store.instincts.provenance([...convictions.map((c) => c.instinct_id), ...selection.shown.map((r) => r.id)]);
  const stack = input.stack.length ? ` (${input.stack.slice(0, 6).join(', ')})` : '';
  const head = [
    `What earlier sessions with this user established for ${oneLine(input.project.name, 80)}${stack}, with where each item came from.`,
  ];
  if (convictions.length) {
    head.push('', 'Convictions (established over weeks; they do not decay):');
    for (const c of convictions) {
      const source = `conviction, ${instinctSource(provenance.get(c.instinct_id))}${c.stale ? ', may be stale' : ''}`;
      head.push(`- ${oneLine(c.title, 120)}: ${oneLine(c.rule, 300)} (${source})`);
    }
  }
  const items = selection.shown.map(
    (row) =>
      `- ${currentConfidence(row, now).toFixed(2)} ${oneLine(row.trigger || row.title || row.key, 160)} [${shortKey(row.key)}] (${instinctSource(provenance.get(row.id))})`,
  );
  const pending = store.observations.count({ pendingOnly: true });
  const tail: string[] = [];
  if (selection.total > selection.shown.length) {
    tail.push(
      `${selection.shown.length} of ${selection.total} instincts shown${selection.ranked ? `, ranked for ${oneLine(input.project.name, 80)}` : ''}.`,
    );
  }
  if (pending) tail.push(`${pending} observation${pending === 1 ? ' is' : 's are'} waiting for the next learning run.`);
  tail.push(`Each instinct's action and evidence: ${store.paths.instincts}/NAME.md, or \`homunculus get KEY\`.`);
  const instinctHead = selection.total ? ['', 'Instincts (confidence 0.20-0.95, trigger, [key], source):'] : [];
  const budget = (input.budget ?? START_BUDGET) - FENCE_OVERHEAD;
  return fenceMemory(fitToBudget([...head, ...instinctHead], items, ['', ...tail], budget).text, { max: input.budget ?? START_BUDGET });
}
