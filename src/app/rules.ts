/** Rule operations: learned rules rendered for every agent's rule file, injected in place, or read back from one. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { observe, raiseEvidence } from '../learn/instincts.js';
import type { InstinctView } from '../learn/records.js';
import type { Store } from '../store/store.js';
import {
  RULE_FORMATS,
  type RuleFormat,
  countRuleBullets,
  injectBlock,
  parsePatternLines,
  renderPlatform,
  renderSkill,
  sortRules,
} from '../view/rules.js';
import { views } from './instincts.js';
import { defineOperation } from './operation.js';
import { category, oneOf, text } from './schemas.js';

const PLATFORM_OF: Record<Exclude<RuleFormat, 'skill'>, 'claude-md' | 'codex' | 'cursorrules' | 'windsurfrules'> = {
  'claude-md': 'claude-md',
  'agents-md': 'codex',
  cursorrules: 'cursorrules',
  windsurfrules: 'windsurfrules',
};

/** Rule-level instincts (rule and universal), strongest first. */
const ruleViews = (store: Store): InstinctView[] => sortRules(views(store, store.instincts.list({ minLevel: 2 })));

const skillName = text(64).regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
  error: 'must be lower-case letters, digits and hyphens, e.g. "instinct-rules"',
});

export const listRules = defineOperation({
  name: 'rules.list',
  summary: 'Rule-level instincts (rule and universal), strongest first',
  input: z.object({}),
  run: ({ store }) => ruleViews(store),
});

export const renderRules = defineOperation({
  name: 'rules.render',
  summary: 'Rule-level instincts as CLAUDE.md bullets, AGENTS.md, .cursorrules, .windsurfrules or a SKILL.md',
  input: z.object({
    format: oneOf(RULE_FORMATS).default('claude-md'),
    name: skillName.default('instinct-rules'),
    description: text().default(''),
    category: category().optional(),
  }),
  run({ store }, input) {
    const rules = ruleViews(store);
    if (input.format !== 'skill')
      return { format: input.format, content: renderPlatform(rules, PLATFORM_OF[input.format]), rule_count: rules.length };
    const content = renderSkill(rules, { name: input.name, description: input.description, category: input.category });
    return { format: input.format, content, rule_count: countRuleBullets(content) };
  },
});

export const injectRules = defineOperation({
  name: 'rules.inject',
  summary: 'Rewrite only the <!-- instinct:start/end --> block of a rule file (created when missing)',
  input: z.object({
    /** An absolute path the caller has already checked it may write. */
    target: text(4096).min(1, { error: 'must not be empty' }),
    format: oneOf(['claude-md', 'agents-md', 'cursorrules', 'windsurfrules'] as const).default('claude-md'),
  }),
  run({ store }, input) {
    const rules = ruleViews(store);
    return injectBlock(input.target, renderPlatform(rules, PLATFORM_OF[input.format]), rules.length);
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
    if (!existsSync(input.source) || !statSync(input.source).isFile()) throw new UsageError(`No such file: ${input.source}`);
    if (statSync(input.source).size > 5 * 1024 * 1024) throw new UsageError(`${input.source} is larger than 5 MB.`);
    const { patterns, skipped } = parsePatternLines(readFileSync(input.source, 'utf8'));
    let imported = 0;
    let merged = 0;
    store.transaction(() => {
      for (const p of patterns) {
        const result = observe(store, {
          pattern: p.pattern,
          category: p.category,
          source: 'claude-md',
          project: input.project,
          explain: p.explain,
        });
        if (p.evidence !== undefined)
          raiseEvidence(store, result.pattern, p.evidence, { source: 'claude-md', project: input.project, detail: 'import_claude_md' });
        if (result.created) imported++;
        else merged++;
      }
    });
    return { imported, merged, skipped };
  },
});
