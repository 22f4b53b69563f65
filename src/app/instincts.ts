/** Instinct operations: record, read, search, correct and merge learned patterns. */
import { z } from 'zod';
import { HomunculusError, NotFoundError } from '../core/errors.js';
import { detectProject } from '../core/project.js';
import { observeImported } from '../learn/bulk.js';
import { projectKey, projectNames, unknownProjectNote } from './project-ref.js';
import { editInstinct, forgetInstinct, instinctText } from '../learn/corrections.js';
import { aliasPattern, aliasedFrom, giveFeedback, observe as observePattern, requireInstinct } from '../learn/instincts.js';
import { recordSuggestions } from '../learn/insight.js';
import { consolidate as consolidateStore } from '../learn/maintenance.js';
import { type InstinctView, statusOf, storeViews } from '../learn/records.js';
import { instinctStats } from '../learn/stats.js';
import type { Store } from '../store/store.js';
import { filesHolding } from '../view/rule-block.js';
import { renderAll, renderChanged } from '../view/render.js';
import { checkImported } from './imported.js';
import { defineOperation } from './operation.js';
import { category, changeSource, domain, feedback as feedbackVerdict, patternKey, text, unitInterval, wholeNumber } from './schemas.js';

/** Evidence from which an instinct counts as mature. */
export const MATURE_EVIDENCE = 5;

export const views = storeViews;

/** Views with their status said (conviction, marked wrong): a list shows what sets each apart. */
const withStatus = (list: InstinctView[]) => list.map((v) => ({ ...v, status: statusOf(v) }));

export const observe = defineOperation({
  name: 'instincts.observe',
  summary: 'Record occurrences of a pattern (prefix:body key); repeated calls reinforce it',
  input: z.object({
    pattern: patternKey(),
    category: category().optional(),
    source: text(200).default(''),
    project: text(200).default(''),
    explain: text().optional(),
    domain: domain().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    count: wholeNumber(1, 1_000_000).default(1),
  }),
  run({ store }, input) {
    // A project named as its sessions know it ("cli") is filed under its fingerprint, as MCP does.
    const project = projectKey(store, input.project);
    const result = observePattern(store, { ...input, project, occurrences: input.count });
    renderChanged(store, [result.pattern]);
    // A name no session knows is kept as written (a project may be named before its first session), and said: "clii" for "cli" is a typo.
    const unknown = project === input.project ? unknownProjectNote(store, project) : undefined;
    return unknown ? { ...result, note: `${unknown} It was filed under ${JSON.stringify(project)} as written.` } : result;
  },
});

export const listInstincts = defineOperation({
  name: 'instincts.list',
  summary: 'Instincts, strongest evidence first, filtered by category, project, evidence and confidence',
  input: z.object({
    category: category().optional(),
    project: text(200).optional(),
    /** With a project: also the global instincts (project ''). */
    includeGlobal: z.boolean().default(false),
    minEvidence: wholeNumber(0).optional(),
    minConfidence: unitInterval().optional(),
    keyword: text().optional(),
    /** Words the trigger or the action must each hold (any case): the dashboard's Find, over the whole store. */
    find: text(500).optional(),
    limit: wholeNumber(1, 100_000).default(50),
  }),
  run({ store }, input) {
    const rows = store.instincts.list({
      words: input.find?.toLowerCase().split(/\s+/).filter(Boolean),
      category: input.category,
      // A name its sessions were seen under ("cli") lists that project, as its fingerprint does.
      project: input.project === undefined ? undefined : projectKey(store, input.project),
      includeGlobal: input.includeGlobal,
      minEvidence: input.minEvidence,
      keyword: input.keyword,
    });
    const all = views(store, rows).filter((v) => input.minConfidence === undefined || v.confidence >= input.minConfidence);
    const instincts = withStatus(all.slice(0, input.limit));
    return { instincts, count: instincts.length };
  },
});

export const getInstinct = defineOperation({
  name: 'instincts.get',
  summary: 'One instinct by its exact key (or a key aliased to it)',
  input: z.object({ pattern: patternKey() }),
  run({ store }, input): InstinctView & { given_in: GivenIn; aliased_from?: string } {
    const row = requireInstinct(store, input.pattern);
    const { global, projects } = store.instincts.givenIn(row.id);
    const name = projectNames(store);
    const given_in = { global, projects: projects.map((fingerprint) => ({ fingerprint, name: name(fingerprint) })) };
    // The key asked for was merged into this one: say so, or the answer looks like the wrong record.
    return { ...(views(store, [row])[0] as InstinctView), given_in, ...aliasedFrom(row.key, input.pattern) };
  },
});

/** Where the hooks give an instinct: every project (global), or only those named. */
export interface GivenIn {
  global: boolean;
  projects: { fingerprint: string; name: string }[];
}

/** The instinct, or undefined on a miss (for surfaces whose contract answers a miss without an error). */
export function findInstinct(store: Store, pattern: string): InstinctView | undefined {
  try {
    return getInstinct.run({ store, env: {} }, { pattern });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export const searchInstincts = defineOperation({
  name: 'instincts.search',
  summary: 'Full-text search over keys, triggers, actions, explain text and metadata (FTS5 syntax, substring fallback)',
  input: z.object({
    query: text().refine((q) => q.replaceAll('\u0000', '').trim() !== '', { error: 'must not be empty' }),
    limit: wholeNumber(1, 10_000).default(20),
  }),
  run({ store }, input) {
    const { rows, mode } = store.instincts.search(input.query.replaceAll('\u0000', ''), input.limit);
    return { results: withStatus(views(store, rows)), mode };
  },
});

export const feedback = defineOperation({
  name: 'instincts.feedback',
  summary: 'Correct an instinct: wrong (to 0.20), weak (-0.15), strong (+0.10, up to 0.90)',
  input: z.object({
    pattern: patternKey(),
    verdict: feedbackVerdict(),
    source: changeSource(),
    /** The folder asked from: a rule marked wrong that its project's rule files still hold is named with them. */
    cwd: text(4096).optional(),
  }),
  run({ store }, input) {
    const result = giveFeedback(store, input.pattern, input.verdict, input.source);
    renderChanged(store, [result.pattern]);
    if (input.verdict !== 'wrong' || input.cwd === undefined) return result;
    const still_in = filesHolding(detectProject(input.cwd).root, result.pattern);
    return still_in.length ? { ...result, still_in } : result;
  },
});

export const alias = defineOperation({
  name: 'instincts.alias',
  summary: 'Retire a duplicate key into a canonical one: evidence summed, future observations rerouted',
  input: z.object({ pattern: patternKey(), target: patternKey(), source: changeSource() }),
  run({ store }, input) {
    const result = aliasPattern(store, input.pattern, input.target, input.source);
    renderAll(store);
    return result;
  },
});

/** A new trigger or action: text that says something once trimmed. */
const instinctField = () => text(4000).refine((t) => instinctText(t) !== '', { error: 'must not be empty: say it in a few words' });

export const edit = defineOperation({
  name: 'instincts.edit',
  summary:
    'Rewrite an instinct in your own words: its trigger (when), action (what to do) and/or title; the log keeps the old text. A new trigger or action without a title makes the trigger the title',
  input: z
    .object({
      pattern: patternKey(),
      trigger: instinctField().optional(),
      action: instinctField().optional(),
      title: instinctField().optional(),
      source: changeSource(),
      /** The text the editor started from: refused when someone changed it meanwhile, so no edit is lost unseen. */
      was: z
        .object({ trigger: z.string().max(10_000), action: z.string().max(10_000) })
        .strict()
        .optional(),
    })
    .refine((i) => i.trigger !== undefined || i.action !== undefined || i.title !== undefined, {
      error: 'none of {trigger}, {action} and {title} was given: give a new trigger, a new action, a title, or some of them',
    }),
  run({ store }, input) {
    const now = store.instincts.get(store.instincts.resolveAlias(input.pattern));
    if (input.was && now && (now.trigger !== input.was.trigger || now.action !== input.was.action))
      // Not a bad input but a record that moved on: a conflict (409), as docs/dashboard.md says.
      throw new HomunculusError(
        'stale',
        `“${input.was.trigger}” was changed while you edited it: it now reads “${now.trigger}: ${now.action}”.`,
        { hint: 'Open it again to edit what it says now; nothing was saved.' },
      );
    const result = editInstinct(store, input.pattern, { trigger: input.trigger, action: input.action, title: input.title }, input.source);
    if (result.changed.length) renderChanged(store, [result.pattern]);
    return result;
  },
});

export const forget = defineOperation({
  name: 'instincts.forget',
  summary: 'Forget an instinct (and its conviction): the log keeps what it was; learning counts only what happens afterwards',
  input: z.object({ pattern: patternKey(), source: changeSource() }),
  run({ store }, input) {
    const result = forgetInstinct(store, input.pattern, input.source);
    renderAll(store);
    return result;
  },
});

export const stats = defineOperation({
  name: 'instincts.stats',
  summary: 'Totals, level distribution and category breakdown',
  input: z.object({}),
  run: ({ store }) => instinctStats(store),
});

export const consolidate = defineOperation({
  name: 'instincts.consolidate',
  summary: 'Store the level each instinct reached, detect chains, rebuild the search index',
  input: z.object({}),
  run({ store }) {
    const result = consolidateStore(store);
    renderAll(store);
    return result;
  },
});

export const suggest = defineOperation({
  name: 'instincts.suggest',
  summary: 'Mature instincts of a project (and global ones) to guide the next task; logged so later observations confirm them',
  input: z.object({
    project: text(200).default(''),
    category: category().optional(),
    keyword: text().optional(),
    source: text(200).default(''),
  }),
  run({ store }, input) {
    const rows = store.instincts.list({
      minEvidence: MATURE_EVIDENCE,
      unrefuted: true,
      project: input.project,
      includeGlobal: true,
      category: input.category,
      keyword: input.keyword,
    });
    const found = views(store, rows);
    recordSuggestions(
      store,
      found.map((v) => v.pattern),
      { project: input.project, source: input.source },
    );
    return found;
  },
});

export const importPatternRows = defineOperation({
  name: 'instincts.import',
  summary: 'Bulk observe: each row reinforces its pattern and raises its evidence to the stated count (never lowers)',
  input: z.object({
    rows: z.array(z.record(z.string(), z.unknown())).max(10_000, { error: 'must hold at most 10000 rows' }),
    project: text(200).default(''),
    source: text(200).default(''),
  }),
  run({ store }, input) {
    const result = { imported: 0, updated: 0, errors: 0, reasons: [] as string[] };
    const now = store.clock.now();
    store.transaction(() => {
      input.rows.forEach((row, index) => {
        const { pattern, ...rest } = row;
        const checked = checkImported({ ...rest, key: pattern }, now, { key: 'pattern' });
        if (!checked.ok) {
          result.errors++;
          result.reasons.push(`row ${index}: ${checked.reason}`);
          return;
        }
        const outcome = observeImported(store, checked.instinct, {
          source: input.source,
          project: input.project,
          detail: 'import_patterns',
        });
        if (outcome.created) result.imported++;
        else result.updated++;
      });
    });
    renderAll(store);
    return result;
  },
});
