/** Rule operations: learned rules rendered for every agent's rule file, injected in place, or read back from one. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { isInside, realDirectory, realTarget, refuseProtected } from '../core/confine.js';
import { UsageError } from '../core/errors.js';
import { regularInput } from '../core/fs.js';
import { observeImported } from '../learn/bulk.js';
import { seenHere } from '../context/seen-here.js';
import { isDocumented } from '../learn/documented.js';
import type { InstinctView } from '../learn/records.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import {
  RULE_FORMATS,
  type RuleFormat,
  countRuleBullets,
  parsePatternLines,
  renderPlatform,
  renderSkill,
  ruleFileFormat,
  ruleFormatOf,
  sortRules,
  takesRuleBlock,
} from '../view/rules.js';
import { injectBlock } from '../view/rule-block.js';
import { checkImported } from './imported.js';
import { views } from './instincts.js';
import { defineOperation } from './operation.js';
import { projectName, resolveProject } from './project-ref.js';
import { category, oneOf, text } from './schemas.js';

const PLATFORM_OF: Record<Exclude<RuleFormat, 'skill'>, 'claude-md' | 'codex' | 'cursorrules' | 'windsurfrules'> = {
  'claude-md': 'claude-md',
  'agents-md': 'codex',
  cursorrules: 'cursorrules',
  windsurfrules: 'windsurfrules',
};

/**
 * Rule-level instincts (rule and universal) and convictions, strongest first: the project's and
 * the global ones when a project is named (another repository's rules do not belong in this
 * one's CLAUDE.md), every project's otherwise. What the project's own instructions already say
 * is left out. What a model reported with `observe` is in (the contract's observe, consolidate,
 * export) and says so on its line: a model that can call observe can edit the file anyway.
 */
function ruleViews(store: Store, project = ''): InstinctView[] {
  const rows = store.instincts
    .list({ unrefuted: true, ...(project ? { project, includeGlobal: true } : {}) })
    .filter((r) => (r.level >= 2 || r.promoted_at !== null) && !isDocumented(parseJsonObject(r.metadata)));
  // In this project's words, as its session start gives them: a rule filed under another
  // checkout of the repository does not say "checks in improve-status-cmd-output" here.
  const name = project ? projectName(store, project) : '';
  const here = name && name !== project ? seenHere(store, rows, { fingerprint: project, name }) : rows;
  return sortRules(views(store, here));
}

/** Whose rules an export holds: a project (fingerprint or name), else the repository of `cwd`, else every project's. */
const scope = {
  project: text(200).optional(),
  cwd: text(4096).optional(),
};
const scopeOf = (store: Store, input: { project?: string; cwd?: string }): string =>
  input.project !== undefined || input.cwd !== undefined ? resolveProject(store, input.project, input.cwd) : '';

const skillName = text(64).regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
  error: 'must be lower-case letters, digits and hyphens, e.g. "instinct-rules"',
});

/** Whether this store learned `key`: it holds it, or forgot it (its events stay). */
const learnedHere =
  (store: Store) =>
  (key: string): boolean =>
    store.instincts.get(store.instincts.resolveAlias(key)) !== undefined || store.instincts.forgottenEvents(key).length > 0;

/** For an export that found nothing in a folder no session ran in: the projects that have rules, by the name `--project` takes. */
function otherProjectsNote(store: Store, project: string): string | undefined {
  if (!project || store.sessions.seen(project)) return undefined;
  // The fingerprints the sessions already give; a name seen in two projects is the first, as `--project` takes it.
  const named = new Map<string, string>();
  for (const p of store.sessions.projects()) if (!named.has(p.project_name)) named.set(p.project_name, p.project);
  const names = [...named].filter(([name, fingerprint]) => name && ruleViews(store, fingerprint).length > 0).map(([name]) => name);
  if (names.length === 0) return undefined;
  return `No session ran in this folder's project; projects with rules: ${names.slice(0, 8).join(', ')} (e.g. \`--project ${names[0]}\`).`;
}

export const listRules = defineOperation({
  name: 'rules.list',
  summary: 'Rule-level instincts (rule and universal), strongest first',
  input: z.object(scope),
  run: ({ store }, input) => ruleViews(store, scopeOf(store, input)),
});

export const renderRules = defineOperation({
  name: 'rules.render',
  summary: 'Rule-level instincts as CLAUDE.md bullets, AGENTS.md, .cursorrules, .windsurfrules or a SKILL.md',
  input: z.object({
    format: oneOf(RULE_FORMATS).default('claude-md'),
    name: skillName.default('instinct-rules'),
    description: text().default(''),
    category: category().optional(),
    ...scope,
  }),
  run({ store }, input) {
    const project = scopeOf(store, input);
    const rules = ruleViews(store, project);
    const elsewhere = rules.length === 0 ? otherProjectsNote(store, project) : undefined;
    if (input.format !== 'skill')
      return {
        format: input.format,
        content: renderPlatform(rules, PLATFORM_OF[input.format]),
        rule_count: rules.length,
        ...(elsewhere ? { note: elsewhere } : {}),
      };
    const content = renderSkill(rules, { name: input.name, description: input.description, category: input.category });
    return { format: input.format, content, rule_count: countRuleBullets(content) };
  },
});

export const injectRules = defineOperation({
  name: 'rules.inject',
  summary: 'Rewrite only the <!-- instinct:start/end --> block of a rule file (created when missing)',
  input: z.object({
    /** A path the user named; never the store's home nor inside .git. */
    target: text(4096).min(1, { error: 'must not be empty' }),
    /** Left out: the format the file's name takes (AGENTS.md: agents-md), else claude-md. */
    format: oneOf(['claude-md', 'agents-md', 'cursorrules', 'windsurfrules'] as const).optional(),
    /** Replace a block edited by hand (refused otherwise). */
    force: z.boolean().default(false),
    ...scope,
  }),
  run({ store }, input) {
    const real = realTarget(input.target);
    refuseProtected(real, input.target, store.paths.home);
    // The block is markdown: written into package.json or a source file, it breaks the file.
    if (!takesRuleBlock(basename(real)))
      throw new UsageError(
        `Refusing to write the rule block into ${input.target}: it is not a rule file nor a markdown or text file.`,
        'Name a rule file (CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, .windsurfrules) or a .md, .mdc or .txt file.',
      );
    const format = input.format ?? ruleFormatOf(basename(real)) ?? 'claude-md';
    const rules = ruleViews(store, scopeOf(store, input));
    const block = renderPlatform(rules, PLATFORM_OF[format]);
    return { ...injectBlock(real, block, rules.length, { force: input.force, known: learnedHere(store) }), target: input.target, format };
  },
});

/**
 * The real path of one of the project's rule files, named relative to its root: symlinks
 * resolved, and the place they lead must still be a rule file inside the root, outside the
 * store and .git (a CLAUDE.md linked to the database or to .git/config is refused).
 */
function confineRuleFile(root: string, file: string, home: string): string {
  const realRoot = realDirectory(root);
  if (!realRoot) throw new UsageError(`The project directory ${root} does not exist.`);
  const real = realTarget(join(realRoot, file));
  if (!existsSync(dirname(real))) throw new UsageError(`The directory of ${file} does not exist.`, 'Parent directories must exist.');
  if (!isInside(real, realRoot)) throw new UsageError(`${file} leads outside the project (${real}).`, 'Rule files live in the project.');
  if (!ruleFormatOf(basename(real))) throw new UsageError(`${file} leads to ${real}, which is not a rule file.`);
  refuseProtected(real, file, home);
  if (existsSync(real) && !statSync(real).isFile()) throw new UsageError(`${file} is not a regular file.`);
  return real;
}

export const injectRuleFile = defineOperation({
  name: 'rules.inject-file',
  summary: "Rewrite the instinct block of one of the project's rule files, chosen by name (CLAUDE.md, AGENTS.md, ...)",
  input: z.object({
    /** Relative to the project root, e.g. "CLAUDE.md" or "packages/api/AGENTS.md". */
    file: text(1024).min(1, { error: 'must not be empty' }),
    /** The project root the file is named in. */
    root: text(4096).min(1, { error: 'must not be empty' }),
    ...scope,
  }),
  run({ store }, input) {
    const format = ruleFileFormat(input.file);
    const real = confineRuleFile(input.root, input.file, store.paths.home);
    const rules = ruleViews(store, scopeOf(store, input));
    const block = renderPlatform(rules, PLATFORM_OF[format]);
    return { ...injectBlock(real, block, rules.length, { known: learnedHere(store) }), target: input.file, format };
  },
});

export const importRules = defineOperation({
  name: 'rules.import',
  summary: 'Observe every backtick-wrapped pattern of a CLAUDE.md, raising its evidence to the count its line states',
  input: z.object({
    /** An absolute path the caller has already checked it may read. */
    source: text(4096).min(1, { error: 'must not be empty' }),
    project: text(200).default(''),
  }),
  run({ store }, input) {
    if (regularInput(input.source, 'Give the path of a CLAUDE.md (or another rule file).').size > 5 * 1024 * 1024)
      throw new UsageError(`${input.source} is larger than 5 MB.`);
    const parsed = parsePatternLines(readFileSync(input.source, 'utf8'));
    const result = { imported: 0, merged: 0, unchanged: 0, skipped: parsed.skipped };
    const now = store.clock.now();
    store.transaction(() => {
      for (const p of parsed.patterns) {
        // A bullet this store (or one that knew less) wrote is its own words read back: no new evidence.
        const held = p.written ? store.instincts.get(store.instincts.resolveAlias(p.pattern)) : undefined;
        if (held && held.evidence >= (p.evidence ?? 1)) {
          result.unchanged++;
          continue;
        }
        const checked = checkImported({ key: p.pattern, category: p.category, evidence: p.evidence, explain: p.explain }, now);
        if (!checked.ok) {
          result.skipped++;
          continue;
        }
        const outcome = observeImported(store, checked.instinct, {
          source: 'claude-md',
          project: input.project,
          detail: 'import_claude_md',
        });
        if (outcome.created) result.imported++;
        else result.merged++;
      }
    });
    return result;
  },
});
