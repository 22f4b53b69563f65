/** `homunculus graph ...` (the knowledge graph) and `homunculus context` (what a prompt would get). */
import type { Command } from 'commander';
import {
  addFact,
  build,
  communities,
  dream,
  entities,
  invalidate,
  lifecycle,
  listFacts,
  promptContext,
  reconsolidate,
  showFact,
  supersede,
  timeline,
} from '../../app/graph.js';
import { truncate } from '../../core/text.js';
import type { AddFactResult } from '../../graph/add-fact.js';
import type { Fact } from '../../graph/facts.js';
import { ENTITY_TYPES, RELATIONS } from '../../graph/ontology.js';
import { table } from '../output.js';
import { type Options, num, runOperation, stringOption } from '../run.js';

function factLine(f: Fact): string {
  return `${f.source} ${f.relation} ${f.target}: ${f.description}`;
}

function factTable(facts: readonly Fact[]): string[] {
  if (facts.length === 0) return ['No facts match.'];
  return table([
    ['ID', 'VALID FROM', 'TYPE', 'CONF', 'FACT'],
    ...facts.map((f) => [
      String(f.id),
      f.valid_at.slice(0, 10),
      f.memory_type,
      f.confidence.toFixed(2),
      truncate(factLine(f), 110) + (f.expired_at ? `  [${f.expired_reason}]` : ''),
    ]),
  ]);
}

function describeAdd(r: AddFactResult): string {
  const what = `#${r.fact.id} (${r.fact.memory_type}): ${factLine(r.fact)}`;
  switch (r.action) {
    case 'duplicate':
      return `Already known as ${what} (reinforced; ${r.reason})`;
    case 'reconsolidated':
      return `Reconsolidated ${what} (version ${r.fact.reconsolidation_count + 1})`;
    case 'superseded':
      return `Added ${what}, superseding ${r.superseded.map((id) => `#${id}`).join(', ')} (${r.reason})`;
    case 'historical':
      return `Recorded past state ${what}, valid until ${r.fact.invalid_at}`;
    default:
      return `Added ${what}`;
  }
}

const ID = { id: '<id>' };

function addCommand(graph: Command): void {
  graph
    .command('add')
    .description('Add a fact (deduplicated, merged or superseding an older value as the graph decides)')
    .argument('<source>', 'source entity name')
    .argument('<relation>', `one of the ${RELATIONS.length} relations, e.g. uses, depends_on, prefers, solved_by`)
    .argument('<target>', 'target entity name')
    .requiredOption('--description <text>', 'what the fact states, as a sentence')
    .option('--source-type <type>', ENTITY_TYPES.join(' | '))
    .option('--target-type <type>', ENTITY_TYPES.join(' | '))
    .option('--confidence <x>', 'confidence 0..1 (default 0.7)')
    .option('--valid-at <instant>', 'when it became true (ISO-8601; default now)')
    .option('--project <fingerprint>', 'project fingerprint ("" = global)', '')
    .option('--correction', 'a user correction (decays more slowly)')
    .action(async (source: string, relation: string, target: string, o: Options, cmd: Command) => {
      const input = {
        source,
        sourceType: stringOption(o, 'sourceType'),
        relation,
        target,
        targetType: stringOption(o, 'targetType'),
        description: stringOption(o, 'description'),
        confidence: num(stringOption(o, 'confidence')),
        validAt: stringOption(o, 'validAt'),
        project: stringOption(o, 'project'),
        correction: o.correction === true,
      };
      await runOperation(cmd, addFact, input, describeAdd, { names: { source: '<source>', relation: '<relation>', target: '<target>' } });
    });
}

function factsCommand(graph: Command): void {
  graph
    .command('facts')
    .description('List current facts, or travel in time: --at (what was true then), --known-at (what the graph held then)')
    .option('--at <instant>', 'valid time: what was true at this instant')
    .option('--known-at <instant>', 'transaction time: what the graph knew at this instant')
    .option('--entity <name>', 'only facts about this entity')
    .option('--relation <relation>', 'only this relation')
    .option('--project <fingerprint>', 'only this project ("" = global facts)')
    .option('--limit <n>', 'maximum rows', '100')
    .action(async (o: Options, cmd: Command) => {
      const input = {
        at: stringOption(o, 'at'),
        knownAt: stringOption(o, 'knownAt'),
        entity: stringOption(o, 'entity'),
        relation: stringOption(o, 'relation'),
        project: stringOption(o, 'project'),
        limit: num(stringOption(o, 'limit')),
      };
      await runOperation(cmd, listFacts, input, (r) => [
        ...factTable(r.facts),
        ...(r.total > r.count ? [`${r.count} of ${r.total} shown; --limit N for more`] : []),
      ]);
    });
}

function showCommand(graph: Command): void {
  graph
    .command('show')
    .description('One fact with its history (reconsolidations) and what superseded it')
    .argument('<id>', 'fact id')
    .action(async (id: string, _o: Options, cmd: Command) => {
      await runOperation(
        cmd,
        showFact,
        { id: num(id) },
        (f) => [
          `#${f.id} ${factLine(f)}`,
          `  ${f.relation} (${f.category}), ${f.memory_type}, confidence ${f.confidence.toFixed(2)}, weight ${f.emotional_weight}, origin ${f.origin}`,
          `  valid ${f.valid_at} -> ${f.invalid_at ?? 'now'}; recorded ${f.created_at} -> ${f.expired_at ?? 'now'}${f.expired_reason ? ` (${f.expired_reason})` : ''}`,
          ...(f.superseded_by ? [`  superseded by #${f.superseded_by}`] : []),
          ...f.history.map((h) => `  was (until ${h.reconsolidated_at}, ${h.confidence.toFixed(2)}): ${h.description}`),
        ],
        { names: ID },
      );
    });
}

function timelineCommand(graph: Command): void {
  graph
    .command('timeline')
    .description('Every fact about an entity, current or not, in the order they became true')
    .argument('<entity>', 'entity name or id')
    .action(async (entity: string, _o: Options, cmd: Command) => {
      await runOperation(cmd, timeline, { entity }, (r) => factTable(r.facts), { names: { entity: '<entity>' } });
    });
}

function supersedeCommand(graph: Command): void {
  graph
    .command('supersede')
    .description('Close a fact in both time dimensions, optionally recording its replacement')
    .argument('<id>', 'fact id')
    .option('--description <text>', 'the replacement fact (keeps source, relation and target unless given)')
    .option('--target <name>', 'replacement target entity')
    .option('--relation <relation>', 'replacement relation')
    .option('--invalid-at <instant>', 'when the old fact stopped being true (default: the replacement valid time, else now)')
    .option('--valid-at <instant>', 'when the replacement became true (default now)')
    .action(async (id: string, o: Options, cmd: Command) => {
      const input = {
        id: num(id),
        description: stringOption(o, 'description'),
        target: stringOption(o, 'target'),
        relation: stringOption(o, 'relation'),
        invalidAt: stringOption(o, 'invalidAt'),
        validAt: stringOption(o, 'validAt'),
        by: 'cli',
      };
      await runOperation(
        cmd,
        supersede,
        input,
        (r) =>
          `Closed #${r.superseded.id} (valid until ${r.superseded.invalid_at})${r.replacement ? `; replaced by #${r.replacement.fact.id}: ${factLine(r.replacement.fact)}` : ''}`,
        { names: ID },
      );
    });
}

function invalidateCommand(graph: Command): void {
  graph
    .command('invalidate')
    .description('Retract a fact that was never true or no longer holds: closed as retracted (kept in its history), no replacement')
    .argument('<id>', 'fact id')
    .option('--invalid-at <instant>', 'when it stopped being true (ISO-8601; default now)')
    .action(async (id: string, o: Options, cmd: Command) => {
      await runOperation(
        cmd,
        invalidate,
        { id: num(id), invalidAt: stringOption(o, 'invalidAt'), by: 'cli' },
        (r) => `Retracted #${r.superseded.id} (valid until ${r.superseded.invalid_at}): ${factLine(r.superseded)}`,
        { names: ID },
      );
    });
}

function reconsolidateCommand(graph: Command): void {
  graph
    .command('reconsolidate')
    .description('Update a semantic or procedural fact in place, keeping its last 5 versions (episodic facts are immutable)')
    .argument('<id>', 'fact id')
    .option('--description <text>', 'the enriched description')
    .option('--confidence <x>', 'new confidence 0..1')
    .action(async (id: string, o: Options, cmd: Command) => {
      await runOperation(
        cmd,
        reconsolidate,
        { id: num(id), description: stringOption(o, 'description'), confidence: num(stringOption(o, 'confidence')) },
        (f) => `Reconsolidated #${f.id} (${f.reconsolidation_count} times, ${f.history.length} versions kept): ${factLine(f)}`,
        { names: ID },
      );
    });
}

function entitiesCommand(graph: Command): void {
  graph
    .command('entities')
    .description('List entities, most recently seen first')
    .option('--type <type>', ENTITY_TYPES.join(' | '))
    .option('--limit <n>', 'maximum rows', '100')
    .action(async (o: Options, cmd: Command) => {
      await runOperation(cmd, entities, { type: stringOption(o, 'type'), limit: num(stringOption(o, 'limit')) }, (r) =>
        r.entities.length
          ? table([['ID', 'TYPE', 'LAST SEEN', 'NAME'], ...r.entities.map((e) => [String(e.id), e.type, e.last_seen.slice(0, 10), e.name])])
          : ['No entities.'],
      );
    });
}

function buildCommand(graph: Command): void {
  graph
    .command('build')
    .description('Extract knowledge from a recorded session (observations, else its transcript) into the graph')
    .requiredOption('--session <id>', 'session id')
    .option('--transcript <path>', 'Claude Code transcript to read when the session has no observations')
    .option('--root <dir>', 'project root holding the manifests (default: the repository of the session cwd)')
    .option('--no-gc', 'skip the lifecycle GC that otherwise follows when 6 hours have passed')
    .action(async (o: Options, cmd: Command) => {
      await runOperation(
        cmd,
        build,
        {
          session: stringOption(o, 'session'),
          transcript: stringOption(o, 'transcript'),
          root: stringOption(o, 'root'),
          gc: o.gc !== false,
        },
        ({ build: r, gc }) => [
          r.source === 'none' && r.manifests.length === 0
            ? `Nothing recorded for session ${r.session}.`
            : `Session ${r.session} (${r.project.name}, from ${r.source}, ${r.events} events): ${r.actions.created} facts added, ${r.actions.duplicate} already known, ${r.actions.reconsolidated} reconsolidated, ${r.actions.superseded} superseding older ones, ${r.retired_dependencies.length} dependencies retired.`,
          ...(gc ? [gc.ran ? `Lifecycle GC ran: ${gc.expired.length} facts expired.` : `Lifecycle GC not due: ${gc.reason}.`] : []),
        ],
      );
    });
}

function dreamCommand(graph: Command): void {
  graph
    .command('dream')
    .description('Consolidate recent episodes: reinforce recurring facts, distil recurring entities into semantic facts')
    .action(async (_o: Options, cmd: Command) => {
      await runOperation(cmd, dream, {}, (r) => [
        r.ran
          ? `Dreamed over ${r.episodes} episodes: ${r.clusters} clusters, ${r.reinforced.length} facts reinforced, ${r.distilled.length} distilled, ${r.consolidated} episodes consolidated.`
          : `No dream: ${r.reason}.`,
        ...r.distilled.map((d) => `  #${d.fact} ${d.source} -> ${d.target} (${d.count} episodes, confidence ${d.confidence.toFixed(2)})`),
      ]);
    });
}

function communitiesCommand(graph: Command): void {
  graph
    .command('communities')
    .description('Detect communities of entities (label propagation) and list them by size')
    .action(async (_o: Options, cmd: Command) => {
      await runOperation(cmd, communities, {}, (r) =>
        r.communities.length
          ? r.communities.map(
              (c) => `${c.name} (${c.entities.length} entities, ${c.facts.length} facts): ${truncate(c.entities.join(', '), 120)}`,
            )
          : ['No community yet (needs connected facts).'],
      );
    });
}

function gcCommand(graph: Command): void {
  graph
    .command('gc')
    .description('The lifecycle GC: expire decayed facts (activation < -2), dream, communities; at most every 6 hours')
    .option('--force', 'run even if the last run was less than 6 hours ago')
    .action(async (o: Options, cmd: Command) => {
      await runOperation(cmd, lifecycle, { force: o.force === true }, (r) =>
        r.ran
          ? `GC done: ${r.expired.length} facts expired, ${r.access_rows_trimmed} access rows trimmed, dream: ${r.dream?.ran ? `${r.dream.distilled.length} distilled` : r.dream?.reason}, ${r.communities} communities. Next due ${r.next_due}.`
          : `GC skipped: ${r.reason}.`,
      );
    });
}

function contextCommand(program: Command): void {
  program
    .command('context')
    .description(
      "The knowledge graph's full context for a prompt, with ids, as MCP memory_context returns it: thread, task-aware facts, related projects (the prompt hook injects a stricter part of it beside the learned rules; the dashboard's Project view shows exactly what)",
    )
    .argument('<prompt...>', 'the prompt text')
    .option('--project <project>', 'project fingerprint or name (default: the repository of the current directory)')
    .option('--used <pct>', 'how full the agent context is, 0-100 (sets the budget level)', '0')
    .option('--session <id>', 'the current session (left out of thread continuity)')
    .option('--at <instant>', 'answer from the graph as true at this instant')
    .option('--no-record', 'do not count this as a retrieval (ACT-R access)')
    .action(async (words: string[], o: Options, cmd: Command) => {
      const input = {
        prompt: words.join(' '),
        project: stringOption(o, 'project'),
        used: num(stringOption(o, 'used')),
        session: stringOption(o, 'session'),
        at: stringOption(o, 'at'),
        record: o.record !== false,
      };
      await runOperation(cmd, promptContext, input, (r) => r.text || `(nothing to inject at the ${r.level} level)`, {
        names: { prompt: '<prompt...>' },
      });
    });
}

export function registerGraphCommands(program: Command): void {
  const graph = program.command('graph').description('The knowledge graph: entities, bi-temporal facts, dream cycle, communities');
  for (const register of [
    addCommand,
    factsCommand,
    showCommand,
    timelineCommand,
    supersedeCommand,
    invalidateCommand,
    reconsolidateCommand,
    entitiesCommand,
    buildCommand,
    dreamCommand,
    communitiesCommand,
    gcCommand,
  ])
    register(graph);
  contextCommand(program);
}
