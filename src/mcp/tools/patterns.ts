/** The pattern half of the MCP contract: observe, suggest, list, get, search, stats, alias, import. */
import { z } from 'zod';
import {
  MATURE_EVIDENCE,
  alias,
  findInstinct,
  importPatternRows,
  listInstincts,
  observe,
  searchInstincts,
  stats,
  suggest,
} from '../../app/instincts.js';
import { projectKey, unknownProjectNote } from '../../app/project-ref.js';
import { fromView, mergeSimilar, plainLine } from '../../context/plain.js';
import { AGENT_REPORT, type InstinctView } from '../../learn/records.js';
import { NotFoundError, UsageError } from '../../core/errors.js';
import { contractRecord, contractStats } from '../records.js';
import { ADDITIVE, IDEMPOTENT_WRITE, READ_ONLY, type ToolContext, call, defineTool } from '../tool.js';
import { MAX_ARG, categoryFilter, compactRecord, keyArg, limitArg, orError, record, statsShape, textArg } from '../schemas.js';
import { counted } from '../../core/text.js';
import type { Category } from '../../core/domain.js';

const observeTool = defineTool({
  name: 'observe',
  title: 'Observe a pattern',
  description:
    'Record one observation of a behavioural pattern; increments its confidence counter. Use it for anything that may recur: a tool sequence that worked, a user preference, a recurring fix, tools used together. Call once per occurrence; repeated calls raise confidence (1 = new, 5 = mature, 10 = rule). Not for one-off notes. Idempotent on the pattern key: the same key merges into one entry. Keys follow prefix:body, e.g. "seq:lint->fix->lint", "pref:style=black", "fix:missing-import", "combo:pytest+coverage". project "" auto-detects from the working directory.',
  input: z.object({
    pattern: keyArg.describe('Pattern key prefix:body (seq:, pref:, fix:, combo:)'),
    category: categoryFilter.default('').describe('sequence | preference | fix_pattern | combo; "" = implied by the key prefix'),
    source: textArg.default('').describe('Originating agent, e.g. "claude-code"; "" = unknown'),
    project: textArg.default('').describe('Project fingerprint; "" auto-detects from cwd'),
    explain: textArg.default('').describe('One-line rationale shown in suggestions and exports'),
  }),
  output: z.object({
    pattern: z.string(),
    confidence: z.number().int(),
    level: z.enum(['seedling', 'mature', 'rule']),
    created: z.boolean(),
    /** Said when the project named is one no session knows (kept as written: a typo shows here). */
    note: z.string().optional(),
  }),
  annotations: ADDITIVE,
  handler(ctx, args) {
    const result = call(observe, ctx, {
      pattern: args.pattern,
      category: args.category || undefined,
      source: args.source,
      project: projectKey(ctx.store, args.project) || ctx.project,
      explain: args.explain || undefined,
      metadata: { ...AGENT_REPORT },
    });
    const level = result.level === 'raw' ? ('seedling' as const) : result.level === 'mature' ? ('mature' as const) : ('rule' as const);
    const note = 'note' in result && result.note ? { note: result.note } : {};
    return { pattern: result.pattern, confidence: result.evidence, level, created: result.created, ...note };
  },
});

/** The suggestions in plain words, the way session start shows them. */
const suggestionHint = (found: readonly InstinctView[]): string =>
  `In plain words:\n${mergeSimilar(found.map(fromView))
    .slice(0, 8)
    .map((group) => plainLine(group, 400))
    .join('\n')}\nCall get_instinct(pattern) for the full record and explain text.`;

/** Said when `project` names nothing this store knows: what is suggested is the global patterns alone. */
function unknownProjectHint(ctx: ToolContext, project: string): string | undefined {
  // A pattern may have been filed under a name no session knows: then it is known after all.
  const unknown = project && ctx.store.instincts.count({ project }) === 0 ? unknownProjectNote(ctx.store, project) : undefined;
  return unknown ? `${unknown} These are the global patterns only.` : undefined;
}

interface SuggestFilter {
  category?: Category;
  keyword?: string;
}

/**
 * Nothing mature here matched: say whether the filters left out what is here, and whether
 * mature patterns that match exist for other projects (never suggested here).
 */
function nothingHereHint(ctx: ToolContext, project: string, filter: SuggestFilter): string {
  const mature = (f: SuggestFilter) =>
    call(listInstincts, ctx, { minEvidence: MATURE_EVIDENCE, limit: 100_000, category: f.category, keyword: f.keyword }).instincts;
  const filtered = filter.category !== undefined || filter.keyword !== undefined;
  const here = filtered ? mature({}).filter((v) => v.project === project || v.project === '').length : 0;
  const said = [filter.category && `category ${filter.category}`, filter.keyword && `keyword "${filter.keyword}"`]
    .filter(Boolean)
    .join(' and ');
  // Younger patterns (seen in 3 sessions, under 5 observations) are given to agents already: say so, or this reads as "nothing learned".
  const young = filtered
    ? 0
    : call(listInstincts, ctx, { project, includeGlobal: true, limit: 100_000 }).instincts.filter((v) => v.evidence < MATURE_EVIDENCE)
        .length;
  const younger = young
    ? ` ${counted(young, 'younger pattern')} (fewer than ${MATURE_EVIDENCE} observations) ${young === 1 ? 'is' : 'are'} learned here and given to agents where ${young === 1 ? 'it applies' : 'they apply'}; list_instincts(project=...) reads ${young === 1 ? 'it' : 'them'}.`
    : '';
  const lead = here
    ? `No mature pattern for this project matches ${said}; ${counted(here, 'mature pattern')} here without that filter.`
    : `No mature pattern for this project yet.${younger}`;
  const elsewhere = mature(filter).filter((v) => v.project !== '' && v.project !== project);
  if (elsewhere.length === 0) return here || young ? lead : 'No mature pattern yet: observe() recurring patterns, then consolidate().';
  const projects = new Set(elsewhere.map((v) => v.project)).size;
  return `${lead} ${counted(elsewhere.length, filtered ? 'matching mature pattern' : 'mature pattern')} belong${elsewhere.length === 1 ? 's' : ''} to ${counted(projects, 'other project')} and ${elsewhere.length === 1 ? 'is' : 'are'} not suggested here; list_instincts(project=...) reads them.`;
}

const suggestTool = defineTool({
  name: 'suggest',
  title: 'Suggest mature patterns',
  description:
    'Retrieve mature patterns (confidence >= 5) to guide current behaviour: which tool sequences worked, what the user prefers, which fixes recur. Call at the start of a task. Sorted by confidence, most trusted first. project "" returns the current project\'s patterns plus global ones; category and keyword (case-insensitive substring of key, metadata and explain) filter. compact (default) returns key + confidence + level (~50 tokens each); compact=false returns full records. Each call is logged so later observations can confirm the suggestion (see effectiveness).',
  input: z.object({
    project: textArg.default(''),
    category: categoryFilter.default(''),
    keyword: textArg.default(''),
    compact: z.boolean().default(true),
  }),
  output: z.object({ suggestions: z.array(z.union([compactRecord, record])), count: z.number().int(), hint: z.string().optional() }),
  // Each call logs what it suggested (for effectiveness), so a second call is not a no-op.
  annotations: ADDITIVE,
  handler(ctx, args) {
    const project = projectKey(ctx.store, args.project) || ctx.project;
    const filter: SuggestFilter = { category: args.category || undefined, keyword: args.keyword || undefined };
    const found = call(suggest, ctx, { project, ...filter, source: 'mcp' });
    const records = found.map(contractRecord);
    const unknown = unknownProjectHint(ctx, args.project);
    if (!args.compact) return { suggestions: records, count: records.length, ...(unknown ? { hint: unknown } : {}) };
    const hint = records.length ? suggestionHint(found) : nothingHereHint(ctx, project, filter);
    return {
      suggestions: records.map((r) => ({ pattern: r.pattern, confidence: r.confidence, level: r.level })),
      count: records.length,
      hint: unknown ? `${unknown} ${hint}` : hint,
    };
  },
});

const listTool = defineTool({
  name: 'list_instincts',
  title: 'List patterns',
  description:
    'List recorded patterns with optional filters, seedlings included. Read-only; sorted by confidence descending, then last_seen descending. min_confidence is the minimum observation count (1 = everything, 5 = mature+, 10 = rules). project "" returns every project including the global "" bucket. For guidance prefer suggest(); for keyword search use search_instincts(); for one key use get_instinct().',
  input: z.object({
    min_confidence: z.number().int().min(0).default(1),
    category: categoryFilter.default(''),
    project: textArg.default(''),
    limit: limitArg(100_000, 50),
  }),
  output: z.object({ instincts: z.array(record), count: z.number().int(), hint: z.string() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const found = call(listInstincts, ctx, {
      minEvidence: args.min_confidence,
      category: args.category || undefined,
      project: projectKey(ctx.store, args.project) || undefined,
      limit: args.limit,
    });
    return {
      instincts: found.instincts.map(contractRecord),
      count: found.count,
      hint: 'Use suggest() for mature guidance, search_instincts(query) for keywords, get_instinct(pattern) for one record.',
    };
  },
});

const getTool = defineTool({
  name: 'get_instinct',
  title: 'Get one pattern',
  description:
    'Fetch the full record for one pattern by its exact, case-sensitive key including the prefix (e.g. "seq:lint->fix->lint"). Read-only. On a miss returns {"error": "Not found: <pattern>"}: check for the error key. Pair with history(pattern) for the confidence timeline.',
  input: z.object({ pattern: keyArg }),
  output: orError(record.shape),
  annotations: READ_ONLY,
  handler(ctx, args) {
    // The MCP contract: the exact key only (the CLI also follows aliases).
    const found = ctx.store.instincts.get(args.pattern) ? findInstinct(ctx.store, args.pattern) : undefined;
    return found ? contractRecord(found) : { error: `Not found: ${args.pattern}` };
  },
});

const searchTool = defineTool({
  name: 'search_instincts',
  title: 'Search patterns',
  description:
    'Find patterns by keyword across key, metadata and explain text with SQLite FTS5; falls back to substring matching when the query has characters FTS5 cannot parse. Syntax: bare word; "lint fix" (AND); "lint OR format"; \'"exact phrase"\'; "claude*" (prefix); "lint NOT prettier". Read-only; ordered by confidence descending.',
  input: z.object({ query: z.string().max(MAX_ARG), limit: limitArg(10_000, 20) }),
  output: z.object({ results: z.array(record), count: z.number().int(), hint: z.string() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const results = args.query.replaceAll('\u0000', '').trim() ? call(searchInstincts, ctx, args).results.map(contractRecord) : [];
    return {
      results,
      count: results.length,
      hint: results.length ? 'get_instinct(pattern) returns one full record.' : 'No match: try list_instincts() or a shorter keyword.',
    };
  },
});

const statsTool = defineTool({
  name: 'stats',
  title: 'Store statistics',
  description:
    'Summary of the instinct store: totals, level distribution (raw + mature + rules + universal == total), category breakdown, average and peak confidence. Read-only, no parameters; an empty store returns zeros.',
  input: z.object({}),
  output: statsShape,
  annotations: READ_ONLY,
  handler: (ctx) => contractStats(call(stats, ctx, {})),
});

const aliasTool = defineTool({
  name: 'alias_pattern',
  title: 'Alias a duplicate pattern',
  description:
    'Redirect all future observations of one pattern onto another, to merge duplicates (e.g. "seq:a -> b" into "seq:a->b"). Existing confidence is summed into the target so nothing is lost. The target must already exist; use find_duplicates() to discover candidates.',
  input: z.object({ pattern: keyArg, target: keyArg }),
  output: orError({ aliased: z.string(), target: z.string() }),
  // The aliased pattern's own record is deleted once its evidence moves to the target.
  annotations: { ...IDEMPOTENT_WRITE, destructiveHint: true },
  handler(ctx, args) {
    try {
      const result = call(alias, ctx, { ...args, source: 'mcp' });
      return { aliased: result.aliased, target: result.target };
    } catch (err) {
      if (err instanceof NotFoundError) return { error: `target pattern '${args.target}' not found` };
      if (err instanceof UsageError) return { error: err.message };
      throw err;
    }
  },
});

const importTool = defineTool({
  name: 'import_patterns',
  title: 'Import many patterns',
  description:
    'Bulk-insert patterns in one call, each routed through observe() so existing patterns are reinforced. A row whose "confidence" is above the stored count raises it to that value (never lowers). Rows: {"pattern" (required), "category", "source", "project", "metadata", "explain", "confidence" (default 1)}. Rows with a missing or empty pattern are counted as errors. Run consolidate() afterwards.',
  input: z.object({
    patterns: z
      .array(
        z
          .object({
            pattern: z.string().max(512).optional(),
            category: z.string().max(64).optional(),
            source: z.string().max(MAX_ARG).optional(),
            project: z.string().max(MAX_ARG).optional(),
            metadata: z.record(z.string(), z.unknown()).optional(),
            explain: z.string().max(MAX_ARG).optional(),
            // Checked row by row (a wrong one is skipped with its reason), not for the whole call.
            confidence: z.unknown().optional(),
          })
          .passthrough(),
      )
      .max(10_000),
  }),
  output: z.object({ imported: z.number().int(), updated: z.number().int(), errors: z.number().int(), hint: z.string() }),
  annotations: ADDITIVE,
  handler(ctx, args) {
    // A model's import is its report, like observe(): said so on every line it reaches, given after what was seen here.
    const rows = args.patterns.map(({ confidence, metadata, ...row }) => ({
      ...row,
      metadata: { ...(metadata ?? {}), ...AGENT_REPORT },
      ...(confidence !== undefined ? { evidence: confidence } : {}),
    }));
    const result = call(importPatternRows, ctx, { rows, project: ctx.project, source: '' });
    const skipped = result.reasons.length
      ? `Skipped ${counted(result.errors, 'row')}: ${result.reasons.slice(0, 5).join('; ')}${result.reasons.length > 5 ? '; …' : ''}. `
      : '';
    return {
      imported: result.imported,
      updated: result.updated,
      errors: result.errors,
      hint: `${skipped}Run consolidate() so suggest() and the exports see the new levels.`,
    };
  },
});

export const PATTERN_TOOLS = [observeTool, suggestTool, listTool, getTool, searchTool, statsTool, aliasTool, importTool];
