/**
 * What a learning run did, merged across sessions, and its two logs:
 * observer.log (one line per run, appended) and last-processing.log (the full account:
 * created, reinforced, episodes, rejected and why, skipped input).
 */
import type { DecayResult } from './instincts.js';
import { type SessionChanges, TAKEN_BACK } from './apply.js';
import type { DomainCluster } from './clusters.js';
import { counted } from '../core/text.js';

const MAX_EXAMPLES_PER_REASON = 25;

export interface LearnReport {
  status: 'done' | 'locked';
  run_id: number | null;
  started_at: string;
  finished_at: string;
  sessions: number;
  /** The sessions this run processed, for follow-up work such as building the graph. */
  session_ids: string[];
  observations: number;
  skipped: { count: number; reasons: Record<string, number> };
  created: SessionChanges['created'];
  reinforced: { pattern: string; times: number; confidence: number; evidence: number }[];
  episodes: { pattern: string; title: string; occurrences: number }[];
  rejected: { count: number; by_reason: Record<string, number>; examples: Record<string, string[]> };
  held: SessionChanges['held'];
  contradictions: SessionChanges['contradictions'];
  signals: number;
  decay: DecayResult;
  clusters: DomainCluster[];
  promotion_candidates: string[];
  llm: { mode: 'off' | 'on'; provider: string; calls: number; tokens: number; fallbacks: { session: string; reason: string }[] };
  errors: { session: string; message: string }[];
}

export function emptyReport(startedAt: string): LearnReport {
  return {
    status: 'done',
    run_id: null,
    started_at: startedAt,
    finished_at: startedAt,
    sessions: 0,
    session_ids: [],
    observations: 0,
    skipped: { count: 0, reasons: {} },
    created: [],
    reinforced: [],
    episodes: [],
    rejected: { count: 0, by_reason: {}, examples: {} },
    held: [],
    contradictions: [],
    signals: 0,
    decay: { decayed: 0, deleted: 0 },
    clusters: [],
    promotion_candidates: [],
    llm: { mode: 'off', provider: '', calls: 0, tokens: 0, fallbacks: [] },
    errors: [],
  };
}

export function addSkipped(report: LearnReport, reason: string): void {
  report.skipped.count++;
  report.skipped.reasons[reason] = (report.skipped.reasons[reason] ?? 0) + 1;
}

export function mergeChanges(report: LearnReport, changes: SessionChanges): void {
  report.created.push(...changes.created);
  for (const r of changes.reinforced) {
    const prior = report.reinforced.find((x) => x.pattern === r.pattern);
    if (prior) {
      prior.times++;
      prior.confidence = r.confidence;
      prior.evidence = r.evidence;
    } else report.reinforced.push({ pattern: r.pattern, times: 1, confidence: r.confidence, evidence: r.evidence });
  }
  for (const e of changes.episodes) {
    const prior = report.episodes.find((x) => x.pattern === e.pattern);
    if (prior) prior.occurrences = e.occurrences;
    else report.episodes.push({ ...e });
  }
  // An episode promoted later in the same run is an instinct now, not an episode.
  const created = new Set(report.created.map((c) => c.pattern));
  report.episodes = report.episodes.filter((e) => !created.has(e.pattern));
  for (const r of changes.rejected) {
    report.rejected.count++;
    const reason = r.reasons[0] ?? 'rejected';
    report.rejected.by_reason[reason] = (report.rejected.by_reason[reason] ?? 0) + 1;
    const examples = (report.rejected.examples[reason] ??= []);
    if (examples.length < MAX_EXAMPLES_PER_REASON && !examples.includes(r.pattern)) examples.push(r.pattern);
  }
  for (const h of changes.held) {
    const prior = report.held.find((x) => x.pattern === h.pattern);
    if (prior) prior.reason = h.reason;
    else report.held.push({ ...h });
  }
  // One line per pattern contradicted in several sessions: from where the run found it to where it left it.
  for (const c of changes.contradictions) {
    const prior = report.contradictions.find((x) => x.pattern === c.pattern);
    if (prior) prior.after = c.after;
    else report.contradictions.push({ ...c });
  }
  report.signals += changes.signals;
}

/** The instincts the run let go (a co-edit pair no longer edited together), named: a removal is said where the run is logged. */
function takenBack(report: LearnReport): string {
  const gone = report.held.filter((h) => h.reason.startsWith(TAKEN_BACK)).map((h) => h.pattern);
  return gone.length ? `, ${gone.length} taken back (${gone.slice(0, 3).join(', ')}${gone.length > 3 ? ', …' : ''})` : '';
}

export function observerLogLine(report: LearnReport): string {
  if (report.status === 'locked') return `${report.started_at} learn: another run holds the lock; nothing done`;
  const llm =
    report.llm.mode === 'on'
      ? `, llm ${report.llm.provider} ${report.llm.calls} call(s) ${report.llm.tokens} tokens${report.llm.fallbacks.length ? `, ${report.llm.fallbacks.length} fallback(s)` : ''}`
      : '';
  return (
    `${report.finished_at} learn run ${report.run_id ?? '-'}: ${report.sessions} session(s), ${report.observations} observation(s), ` +
    `${report.created.length} created, ${report.reinforced.length} reinforced, ${report.episodes.length} episode(s), ` +
    `${report.rejected.count} rejected, ${report.skipped.count} skipped, ${report.contradictions.length} contradiction(s), ` +
    `${report.decay.decayed} decayed${takenBack(report)}${llm}${report.errors.length ? `, ${report.errors.length} error(s)` : ''}`
  );
}

export function processingLog(report: LearnReport): string {
  const lines = [`# Last processing: ${report.finished_at}`, '', observerLogLine(report), ''];
  const section = (title: string, items: string[], count = items.length): void => {
    lines.push(`## ${title} (${count})`, '', ...(items.length ? items : ['(none)']), '');
  };
  section(
    'Created',
    report.created.map(
      (c) =>
        `- ${c.pattern} (${c.category}, confidence ${c.confidence.toFixed(2)}, ${c.evidence} sessions${c.from === 'episode' ? ', promoted from an episode' : ''}): ${c.title}`,
    ),
  );
  section(
    'Reinforced',
    report.reinforced.map((r) => `- ${r.pattern}: +${r.times}, now ${r.evidence} observations, confidence ${r.confidence.toFixed(2)}`),
  );
  section(
    'Episodes (below the 3-session threshold)',
    report.episodes.map((e) => `- ${e.pattern}: ${e.title} (${counted(e.occurrences, 'session')})`),
  );
  section(
    'Held back',
    report.held.map((h) => `- ${h.pattern}: ${h.reason}`),
  );
  section(
    'Contradictions',
    report.contradictions.map((c) => `- ${c.pattern}: ${c.before.toFixed(2)} -> ${c.after.toFixed(2)}`),
  );
  const rejected: string[] = [];
  for (const [reason, count] of Object.entries(report.rejected.by_reason).sort((a, b) => b[1] - a[1])) {
    rejected.push(`- ${reason}: ${count}`);
    for (const p of report.rejected.examples[reason] ?? []) rejected.push(`    ${p}`);
  }
  section('Rejected by the quality gate', rejected, report.rejected.count);
  section(
    'Skipped observations',
    Object.entries(report.skipped.reasons).map(([r, n]) => `- ${r}: ${n}`),
    report.skipped.count,
  );
  if (report.llm.mode === 'on')
    section(
      'LLM fallbacks',
      report.llm.fallbacks.map((f) => `- ${f.session}: ${f.reason}`),
    );
  if (report.errors.length)
    section(
      'Errors',
      report.errors.map((e) => `- ${e.session}: ${e.message}`),
    );
  section(
    'Domain clusters',
    report.clusters.map((c) => `- ${c.domain}: ${c.count} instincts, average confidence ${c.avg_confidence.toFixed(2)}`),
  );
  section(
    'Ready for promotion (homunculus evolve --promote)',
    report.promotion_candidates.map((p) => `- ${p}`),
  );
  return `${lines.join('\n').trimEnd()}\n`;
}
