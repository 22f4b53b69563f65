/** observe, list, get, search, feedback, alias, stats, consolidate (levels, chains, search index). */
import type { Command } from 'commander';
import { CATEGORIES, type Category, DOMAINS, type Domain, FEEDBACK, parseChoice } from '../../core/domain.js';
import { UsageError } from '../../core/errors.js';
import { aliasPattern, giveFeedback, observe, requireInstinct } from '../../learn/instincts.js';
import { consolidate } from '../../learn/maintenance.js';
import { type InstinctView, toView } from '../../learn/records.js';
import { instinctStats } from '../../learn/stats.js';
import { type GraphStats, graphStats } from '../../graph/stats.js';
import type { InstinctRow } from '../../store/instincts.js';
import type { Store } from '../../store/store.js';
import { withCommandStore } from '../context.js';
import { emit, parsePositiveInt, parseUnitInterval, table } from '../output.js';

/** The rendered view pulls in YAML; only commands that change records load it. */
const view = () => import('../../view/render.js');

const views = (store: Store, rows: readonly InstinctRow[]): InstinctView[] => {
  const now = store.clock.now();
  const projects = rows.length > 1 ? store.instincts.distinctProjectCounts() : undefined;
  return rows.map((r) => toView(r, now, projects ? (projects.get(r.id) ?? 0) : store.instincts.distinctProjects(r.id).length));
};

function instinctTable(items: readonly InstinctView[]): string[] {
  if (items.length === 0) return ['No instincts match.'];
  return table([
    ['SCORE', 'COUNT', 'LEVEL', 'DOMAIN', 'PATTERN'],
    ...items.map((v) => [v.score.toFixed(2), String(v.confidence), v.level, v.domain, v.pattern]),
  ]);
}

function graphStatsLines(s: GraphStats): string[] {
  const mark = (ok: boolean) => (ok ? 'ok' : 'check');
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

const category = (value: string | undefined): Category | undefined =>
  value === undefined ? undefined : parseChoice('category', value, CATEGORIES);

export function registerInstinctCommands(program: Command): void {
  program
    .command('observe')
    .description('Record one occurrence of a pattern (prefix:body key); repeated calls reinforce it')
    .argument('<pattern>', 'pattern key, e.g. "seq:lint->fix->lint", "pref:pkg=pnpm", "fix:missing-import", "combo:pytest+coverage"')
    .option('--category <category>', `one of ${CATEGORIES.join(', ')} (default: from the key prefix)`)
    .option('--source <source>', 'originating agent or tool, e.g. claude-code', '')
    .option('--project <project>', 'project fingerprint ("" = global)', '')
    .option('--explain <text>', 'one-line rationale shown in suggestions and exports')
    .option('--domain <domain>', `one of ${DOMAINS.join(', ')}`)
    .option('--count <n>', 'occurrences to record at once', '1')
    .action(async (pattern: string, o: Record<string, string | undefined>, cmd: Command) => {
      const { renderChanged } = await view();
      await withCommandStore(cmd, (store, g) => {
        const result = observe(store, {
          pattern,
          category: category(o.category),
          source: o.source,
          project: o.project,
          explain: o.explain,
          domain: o.domain as Domain | undefined,
          occurrences: parsePositiveInt('count', o.count),
        });
        renderChanged(store, [result.pattern]);
        emit(
          g,
          result,
          (r) =>
            `${r.created ? 'Created' : 'Reinforced'} ${r.pattern}: count ${r.confidence}, level ${r.level}, confidence ${r.score.toFixed(2)}`,
        );
      });
    });

  program
    .command('list')
    .description('List instincts, strongest evidence first')
    .option('--min-confidence <n>', 'minimum evidence count (1 = everything, 5 = mature+, 10 = rules)')
    .option('--min-score <x>', 'minimum confidence score 0..1 after decay')
    .option('--category <category>', CATEGORIES.join(' | '))
    .option('--project <project>', 'only this project fingerprint')
    .option('--limit <n>', 'maximum rows', '50')
    .action(async (o: Record<string, string | undefined>, cmd: Command) => {
      const minEvidence = parsePositiveInt('min-confidence', o.minConfidence, { allowZero: true });
      const minScore = parseUnitInterval('min-score', o.minScore);
      const limit = parsePositiveInt('limit', o.limit, { allowZero: true });
      const cat = category(o.category);
      await withCommandStore(cmd, (store, g) => {
        let items = views(store, store.instincts.list({ category: cat, project: o.project, minEvidence }));
        if (minScore !== undefined) items = items.filter((v) => v.score >= minScore);
        items = items.slice(0, limit);
        emit(g, { instincts: items, count: items.length }, (r) => instinctTable(r.instincts));
      });
    });

  program
    .command('get')
    .description('Show one instinct by its exact key')
    .argument('<pattern>', 'exact key including its prefix')
    .action(async (pattern: string, _o: unknown, cmd: Command) => {
      await withCommandStore(cmd, (store, g) => {
        const [view] = views(store, [requireInstinct(store, pattern)]);
        emit(g, view, (v) => {
          if (!v) return '';
          return [
            `${v.pattern}  (${v.category}, ${v.domain})`,
            `  trigger:    ${v.trigger}`,
            `  action:     ${v.action}`,
            `  confidence: ${v.score.toFixed(2)}   count: ${v.confidence}   level: ${v.level}${v.current_level !== v.level ? ` (evidence supports ${v.current_level}; run consolidate)` : ''}`,
            `  project:    ${v.project || '(global)'}   source: ${v.source || '(unknown)'}`,
            `  first seen: ${v.first_seen}   last seen: ${v.last_seen}`,
            ...(v.explain ? [`  explain:    ${v.explain}`] : []),
            ...(v.conviction ? [`  promoted to conviction${v.stale_conviction ? ' (possibly stale)' : ''}`] : []),
          ];
        });
      });
    });

  program
    .command('search')
    .description('Full-text search over keys, triggers, actions, explain text and metadata (FTS5 syntax; falls back to substring)')
    .argument('<query>', 'e.g. lint, "lint OR format", "claude*", "lint NOT prettier"')
    .option('--limit <n>', 'maximum results', '20')
    .action(async (query: string, o: Record<string, string | undefined>, cmd: Command) => {
      const limit = parsePositiveInt('limit', o.limit, { allowZero: true }) ?? 20;
      if (!query.trim()) throw new UsageError('The search query is empty.', 'Give a word to search for, e.g. `homunculus search lint`.');
      await withCommandStore(cmd, (store, g) => {
        const { rows, mode } = store.instincts.search(query, limit);
        const items = views(store, rows);
        emit(g, { results: items, count: items.length, mode }, (r) => instinctTable(r.results));
      });
    });

  program
    .command('feedback')
    .description('Correct an instinct: wrong (to 0.20), weak (-0.15), strong (+0.10, up to 0.90)')
    .argument('<pattern>', 'exact key')
    .argument('<verdict>', FEEDBACK.join(' | '))
    .action(async (pattern: string, verdict: string, _o: unknown, cmd: Command) => {
      const word = parseChoice('feedback', verdict, FEEDBACK);
      const { renderChanged } = await view();
      await withCommandStore(cmd, (store, g) => {
        const result = giveFeedback(store, pattern, word);
        renderChanged(store, [result.pattern]);
        emit(g, result, (r) => `${r.pattern}: ${r.feedback}, confidence ${r.before.toFixed(2)} -> ${r.after.toFixed(2)}`);
      });
    });

  program
    .command('alias')
    .description('Retire a duplicate key into a canonical one: evidence is summed, future observations rerouted')
    .argument('<pattern>', 'the key to retire')
    .argument('<target>', 'the canonical key (must exist)')
    .action(async (pattern: string, target: string, _o: unknown, cmd: Command) => {
      const { renderAll } = await view();
      await withCommandStore(cmd, (store, g) => {
        const result = aliasPattern(store, pattern, target);
        renderAll(store);
        emit(g, result, (r) => `${r.aliased} -> ${r.target} (${r.evidence_moved} observations moved)`);
      });
    });

  program
    .command('stats')
    .description('Totals, level distribution and category breakdown of the instinct store')
    .option('--graph', 'memory quality metrics of the knowledge graph instead')
    .action(async (o: { graph?: boolean }, cmd: Command) => {
      await withCommandStore(cmd, (store, g) => {
        if (o.graph) return emit(g, graphStats(store), graphStatsLines);
        emit(g, instinctStats(store), (s) => [
          `${s.total} instincts: ${s.raw} raw, ${s.mature} mature, ${s.rules} rules, ${s.universal} universal`,
          `evidence: average ${s.avg_confidence}, peak ${s.max_confidence}`,
          ...Object.entries(s.by_category).map(([c, v]) => `  ${c}: ${v?.count} (average ${v?.avg_confidence})`),
        ]);
      });
    });

  program
    .command('consolidate')
    .description('Store the level each instinct has reached (raw -> mature -> rule -> universal), detect chains, rebuild the search index')
    .action(async (_o: unknown, cmd: Command) => {
      const { renderAll } = await view();
      await withCommandStore(cmd, (store, g) => {
        const result = consolidate(store);
        renderAll(store);
        emit(g, result, (r) => [
          `Promoted ${r.promoted_to_mature} to mature, ${r.promoted_to_rule} to rule, ${r.promoted_to_universal} to universal (${r.total} instincts).`,
          `Chains: ${r.chains_detected} detected, ${r.chains_created} created. Search index rebuilt.`,
        ]);
      });
    });
}
