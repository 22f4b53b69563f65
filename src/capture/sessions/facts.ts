/**
 * What a session's observations say about it (the session summary): tools used and
 * how often, files changed, errors, prompts, and the deterministic summary paragraph. Pure.
 */
import { shellWrittenFiles } from '../../core/shell-writes.js';
import { counted, truncate } from '../../core/text.js';
import { parseStringArray } from '../../store/json.js';
import type { ObservationRow } from '../../store/observations.js';
import { absolutePath } from '../map/files.js';
import { CHANGING_KINDS, toolKind } from '../map/tool-kind.js';

interface SessionFacts {
  startedAt: string;
  endedAt: string;
  toolCounts: Record<string, number>;
  toolsUsed: string[];
  filesTouched: string[];
  errors: number;
  blocked: number;
  prompts: string[];
}

const MAX_FILES = 200;

type FactsRow = Pick<ObservationRow, 'ts' | 'event' | 'tool' | 'files' | 'outcome' | 'input' | 'cwd'>;

/** The files a call that went well changed: those an edit or write names, those a shell command wrote by redirection or tee. */
function changedFiles(row: FactsRow): string[] {
  if (row.outcome !== 'ok') return [];
  const kind = toolKind(row.tool);
  if (CHANGING_KINDS.has(kind)) return parseStringArray(row.files);
  return kind === 'shell' ? shellWrittenFiles(row.input).map((f) => absolutePath(f, row.cwd)) : [];
}

/** Pure: what a session's observations say about it. */
export function sessionFacts(rows: readonly FactsRow[], endedAt: string): SessionFacts {
  const toolCounts: Record<string, number> = {};
  const files = new Set<string>();
  const prompts: string[] = [];
  let errors = 0;
  let blocked = 0;
  let startedAt = endedAt;
  let lastAt = '';
  for (const row of rows) {
    if (row.ts < startedAt) startedAt = row.ts;
    if (row.ts > lastAt) lastAt = row.ts;
    if (row.event === 'prompt') prompts.push(row.input);
    if (row.event !== 'tool') continue;
    toolCounts[row.tool] = (toolCounts[row.tool] ?? 0) + 1;
    if (row.outcome === 'error') errors++;
    if (row.outcome === 'blocked') blocked++;
    for (const f of changedFiles(row)) if (files.size < MAX_FILES) files.add(f);
  }
  const toolsUsed = Object.keys(toolCounts).sort((a, b) => (toolCounts[b] ?? 0) - (toolCounts[a] ?? 0) || a.localeCompare(b));
  return {
    startedAt,
    endedAt: lastAt > endedAt ? lastAt : endedAt,
    toolCounts,
    toolsUsed,
    filesTouched: [...files],
    errors,
    blocked,
    prompts,
  };
}

/** How a summary quotes the session's first prompt (a session without one had none). */
export const FIRST_PROMPT = 'First prompt:';

/** Pure: the deterministic summary paragraph (the learning run may enrich it later). */
export function summaryText(facts: SessionFacts, title?: string): string {
  const calls = Object.values(facts.toolCounts).reduce((a, b) => a + b, 0);
  const parts: string[] = [];
  const top = facts.toolsUsed.slice(0, 5).map((t) => `${t} ${facts.toolCounts[t]}`);
  parts.push(
    `${counted(calls, 'tool call')}${top.length ? ` (${top.join(', ')})` : ''}, ${counted(facts.filesTouched.length, 'file')} changed`,
  );
  if (facts.errors) parts.push(`${counted(facts.errors, 'error')}`);
  if (facts.blocked) parts.push(`${facts.blocked} blocked`);
  const first = facts.prompts[0];
  const heading = title ? `${truncate(title.replace(/\s+/g, ' ').trim(), 200).replace(/\.?$/, '.')} ` : '';
  const text = `${heading}${parts.join(', ')}.`;
  return first ? `${text} ${FIRST_PROMPT} "${truncate(first.replace(/\s+/g, ' ').trim(), 240)}"` : text;
}
