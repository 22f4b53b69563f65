/** observe, list, get, search, feedback, edit, alias, forget, stats, consolidate: the instinct operations on the command line. */
import type { Command } from 'commander';
import {
  alias,
  consolidate,
  edit,
  feedback,
  forget,
  getInstinct,
  type GivenIn,
  listInstincts,
  observe,
  searchInstincts,
  stats,
} from '../../app/instincts.js';
import { CATEGORIES, DOMAINS, FEEDBACK } from '../../core/domain.js';
import { UsageError } from '../../core/errors.js';
import { stats as graphStats } from '../../app/graph.js';
import type { GraphStats } from '../../graph/stats.js';
import type { InstinctView } from '../../learn/records.js';
import { table } from '../output.js';
import { type Options, num, runOperation, stringOption } from '../run.js';
import { counted } from '../../core/text.js';

const PATTERN = { pattern: '<pattern>', target: '<target>', verdict: '<verdict>', query: '<query>' };

function instinctTable(items: readonly (InstinctView & { status: string[] })[]): string[] {
  if (items.length === 0) return ['No instincts match.'];
  return table([
    ['CONFIDENCE', 'EVIDENCE', 'LEVEL', 'DOMAIN', 'PATTERN', 'STATUS'],
    ...items.map((v) => [v.confidence.toFixed(2), String(v.evidence), v.level, v.domain, v.pattern, v.status.join('; ')]),
  ]);
}

function graphStatsLines(s: GraphStats): string[] {
  const mark = (ok: boolean | null) => (ok === null ? 'not measured yet' : ok ? 'ok' : 'check');
  return [
    `${s.entities} entities, ${s.facts.current} current facts (${s.facts.total} in all: ${s.facts.superseded} superseded, ${s.facts.decayed} decayed), ${s.episodes.total} episodes, ${s.communities} communities`,
    `dedup ratio          ${s.dedup_ratio}  (healthy < 0.3: ${mark(s.healthy.dedup_ratio)})`,
    `embedding coverage   ${s.embedding_coverage}  (> 0.8: ${mark(s.healthy.embedding_coverage)})`,
    `average activation   ${s.average_activation ?? 'n/a'}  (> -1.0: ${mark(s.healthy.average_activation)})`,
    `reconsolidation rate ${s.reconsolidation_rate}  (0.1-0.3: ${mark(s.healthy.reconsolidation_rate)})`,
    `retrieval hit rate   ${s.retrieval_hit_rate}  (> 0.5: ${mark(s.healthy.retrieval_hit_rate)})`,
    `dream efficiency     ${s.dream_efficiency}  (> 0.1: ${mark(s.healthy.dream_efficiency)})`,
    `average confidence   ${s.average_confidence ?? 'n/a'}  (> 0.6: ${mark(s.healthy.average_confidence)})`,
    `memory types         episodic ${s.memory_types.episodic}, semantic ${s.memory_types.semantic}, procedural ${s.memory_types.procedural}`,
  ];
}

/** Where it is given, by name; the project it is filed under when that differs. */
function projectLine(v: InstinctView & { given_in?: GivenIn }): string {
  const g = v.given_in;
  if (!g) return v.project || '(global)';
  const names = g.projects.map((p) => p.name);
  if (g.global) return names.length ? `(global; seen in ${names.join(', ')})` : '(global)';
  const filed = v.project ? (g.projects.find((p) => p.fingerprint === v.project)?.name ?? v.project) : '';
  const only = names.length === 1 ? 'only ' : '';
  return `given ${only}in ${names.join(', ')}${v.project === '' ? ' (filed for every project; seen only there)' : names.length > 1 && filed ? ` (filed under ${filed})` : ''}`;
}

function instinctLines(v: InstinctView & { given_in?: GivenIn; aliased_from?: string }): string[] {
  const pending = v.current_level !== v.level ? ` (evidence supports ${v.current_level}; run consolidate)` : '';
  return [
    ...(v.aliased_from ? [`${v.aliased_from} was merged into ${v.pattern}; showing ${v.pattern}.`] : []),
    `${v.pattern}  (${v.category}, ${v.domain})`,
    `  trigger:    ${v.trigger}`,
    `  action:     ${v.action}`,
    `  confidence: ${v.confidence.toFixed(2)}   evidence: ${v.evidence}   level: ${v.level}${pending}`,
    `  project:    ${projectLine(v)}   source: ${v.source || '(unknown)'}`,
    `  first seen: ${v.first_seen}   last seen: ${v.last_seen}`,
    ...(v.explain ? [`  explain:    ${v.explain}`] : []),
    ...(v.conviction ? [`  promoted to conviction${v.stale_conviction ? ' (possibly stale)' : ''}`] : []),
    ...(v.verdict ? [`  marked ${v.verdict} by the user${v.verdict === 'wrong' ? ': never given to an agent' : ''}`] : []),
  ];
}

/** `--min-confidence` used to take the evidence count: say so when it gets a count. */
function checkMinConfidence(value: string | undefined): void {
  const n = Number(value);
  if (value !== undefined && Number.isInteger(n) && n > 1) {
    throw new UsageError(
      `--min-confidence is the 0-1 confidence score, got ${JSON.stringify(value)}.`,
      `For the number of observations use --min-evidence ${n}.`,
    );
  }
}

function observeCommand(program: Command): void {
  program
    .command('observe')
    .description('Record one occurrence of a pattern (prefix:body key); repeated calls reinforce it')
    .argument('<pattern>', 'pattern key, e.g. "seq:lint->fix->lint", "pref:pkg=pnpm", "fix:missing-import", "combo:pytest+coverage"')
    .option('--category <category>', `one of ${CATEGORIES.join(', ')} (default: from the key prefix)`)
    .option('--source <source>', 'originating agent or tool, e.g. claude-code', '')
    .option('--project <project>', 'project: its name as sessions know it ("cli") or its fingerprint; "" = global', '')
    .option('--explain <text>', 'one-line rationale shown in suggestions and exports')
    .option('--domain <domain>', `one of ${DOMAINS.join(', ')}`)
    .option('--count <n>', 'occurrences to record at once', '1')
    .action(async (pattern: string, o: Record<string, string | undefined>, cmd: Command) => {
      await runOperation(
        cmd,
        observe,
        { pattern, category: o.category, source: o.source, project: o.project, explain: o.explain, domain: o.domain, count: num(o.count) },
        (r) => [
          `${r.created ? 'Created' : 'Reinforced'} ${r.pattern}: evidence ${r.evidence}, level ${r.level}, confidence ${r.confidence.toFixed(2)}`,
          ...('note' in r && r.note ? [r.note] : []),
        ],
        { names: PATTERN },
      );
    });
}

function listCommand(program: Command): void {
  program
    .command('list')
    .description('List instincts, strongest evidence first')
    .option('--min-evidence <n>', 'minimum number of observations (1 = everything, 5 = mature+, 10 = rules)')
    .option('--min-confidence <x>', 'minimum confidence score 0..1 after decay')
    .option('--category <category>', CATEGORIES.join(' | '))
    .option('--project <project>', 'only this project: a fingerprint or a name its sessions were seen under')
    .option('--limit <n>', 'maximum rows', '50')
    .action(async (o: Record<string, string | undefined>, cmd: Command) => {
      checkMinConfidence(o.minConfidence);
      const input = {
        minEvidence: num(o.minEvidence),
        minConfidence: num(o.minConfidence),
        category: o.category,
        project: o.project,
        limit: num(o.limit),
      };
      await runOperation(cmd, listInstincts, input, (r) => instinctTable(r.instincts));
    });
}

function getCommand(program: Command): void {
  program
    .command('get')
    .description('Show one instinct by its exact key')
    .argument('<pattern>', 'exact key including its prefix')
    .action(async (pattern: string, _o: unknown, cmd: Command) => {
      await runOperation(cmd, getInstinct, { pattern }, instinctLines, { names: PATTERN });
    });
}

function searchCommand(program: Command): void {
  program
    .command('search')
    .description('Full-text search over keys, triggers, actions, explain text and metadata (FTS5 syntax; falls back to substring)')
    .argument('<query>', 'e.g. lint, "lint OR format", "claude*", "lint NOT prettier"')
    .option('--limit <n>', 'maximum results', '20')
    .action(async (query: string, o: Record<string, string | undefined>, cmd: Command) => {
      await runOperation(cmd, searchInstincts, { query, limit: num(o.limit) }, (r) => instinctTable(r.results), { names: PATTERN });
    });
}

function feedbackCommand(program: Command): void {
  program
    .command('feedback')
    .description('Correct an instinct: wrong (to 0.20), weak (-0.15), strong (+0.10, up to 0.90)')
    .argument('<pattern>', 'exact key')
    .argument('<verdict>', FEEDBACK.join(' | '))
    .action(async (pattern: string, verdict: string, _o: unknown, cmd: Command) => {
      await runOperation(
        cmd,
        feedback,
        { pattern, verdict, source: 'cli', cwd: process.cwd() },
        (r) =>
          [
            r.aliased_from ? `${r.aliased_from} was merged into ${r.pattern}: the feedback applied to ${r.pattern}.` : undefined,
            `${r.pattern}: ${r.feedback}, confidence ${r.before.toFixed(2)} -> ${r.after.toFixed(2)}`,
            r.note,
            'still_in' in r && r.still_in
              ? `It is still written in ${r.still_in.join(', ')}, which the agent reads: \`homunculus export-rules --inject ${r.still_in[0]}\` takes it out.`
              : undefined,
          ]
            .filter(Boolean)
            .join('\n'),
        { names: PATTERN },
      );
    });
}

function aliasCommand(program: Command): void {
  program
    .command('alias')
    .description('Retire a duplicate key into a canonical one: evidence is summed, future observations rerouted')
    .argument('<pattern>', 'the key to retire')
    .argument('<target>', 'the canonical key (must exist)')
    .action(async (pattern: string, target: string, _o: unknown, cmd: Command) => {
      await runOperation(
        cmd,
        alias,
        { pattern, target, source: 'cli' },
        (r) => `${r.aliased} -> ${r.target} (${r.evidence_moved} observations moved)`,
        {
          names: PATTERN,
        },
      );
    });
}

function editCommand(program: Command): void {
  program
    .command('edit')
    .description(
      'Rewrite an instinct in your own words: its trigger (when it applies), its action (what to do) and/or its title; a new trigger or action without --title makes the trigger its title',
    )
    .argument('<pattern>', 'exact key')
    .option('--trigger <text>', 'the new trigger, e.g. "when you run the tests in webapp"')
    .option('--action <text>', 'the new action, e.g. "Use `npm test -- --run`."')
    .option('--title <text>', 'the new title (what a conviction is headed with), e.g. "run the tests in webapp"')
    .action(async (pattern: string, o: Options, cmd: Command) => {
      const [trigger, action, title] = (['trigger', 'action', 'title'] as const).map((k) => stringOption(o, k));
      await runOperation(
        cmd,
        edit,
        { pattern, trigger, action, title, source: 'cli' },
        (r) =>
          r.changed.length === 0
            ? `${r.pattern}: nothing changed (the text was already that).`
            : [`Edited ${r.pattern} (the history keeps the old text):`, ...r.changed.map((f) => `  ${f}: ${r.before[f]}  ->  ${r[f]}`)],
        { names: PATTERN },
      );
    });
}

function forgetCommand(program: Command): void {
  program
    .command('forget')
    .description('Forget an instinct (and its conviction); the history keeps what it was, and learning counts only what happens afterwards')
    .argument('<pattern>', 'exact key')
    .action(async (pattern: string, _o: unknown, cmd: Command) => {
      await runOperation(
        cmd,
        forget,
        { pattern, source: 'cli' },
        (r) =>
          `Forgot ${r.pattern} (${counted(r.evidence, 'observation')}${r.conviction ? ', and its conviction' : ''}): "${r.trigger}: ${r.action}"`,
        { names: PATTERN },
      );
    });
}

function statsCommand(program: Command): void {
  program
    .command('stats')
    .description('Totals, level distribution and category breakdown of the instinct store')
    .option('--graph', 'memory quality metrics of the knowledge graph instead')
    .action(async (o: { graph?: boolean }, cmd: Command) => {
      if (o.graph) return runOperation(cmd, graphStats, {}, graphStatsLines);
      await runOperation(cmd, stats, {}, (s) => [
        `${s.total} instincts: ${s.raw} raw, ${s.mature} mature, ${s.rules} rules, ${s.universal} universal`,
        `evidence: average ${s.avg_evidence}, peak ${s.max_evidence}`,
        ...Object.entries(s.by_category).map(([c, v]) => `  ${c}: ${v?.count} (average evidence ${v?.avg_evidence})`),
      ]);
    });
}

function consolidateCommand(program: Command): void {
  program
    .command('consolidate')
    .description('Store the level each instinct has reached (raw -> mature -> rule -> universal), detect chains, rebuild the search index')
    .action(async (_o: unknown, cmd: Command) => {
      await runOperation(cmd, consolidate, {}, (r) => [
        `Promoted ${r.promoted_to_mature} to mature, ${r.promoted_to_rule} to rule, ${r.promoted_to_universal} to universal (${r.total} instincts).`,
        `Chains: ${r.chains_detected} detected, ${r.chains_created} created. Search index rebuilt.`,
      ]);
    });
}

export function registerInstinctCommands(program: Command): void {
  for (const register of [
    observeCommand,
    listCommand,
    getCommand,
    searchCommand,
    feedbackCommand,
    editCommand,
    aliasCommand,
    forgetCommand,
    statsCommand,
    consolidateCommand,
  ])
    register(program);
}
