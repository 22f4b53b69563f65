/** The export half of seed 002: rules as JSON, CLAUDE.md, SKILL.md, platform files, injection, import. */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../../core/errors.js';
import { observe, raiseEvidence } from '../../learn/instincts.js';
import { toRecord } from '../../learn/records.js';
import type { Store } from '../../store/store.js';
import {
  PLATFORMS,
  countRuleBullets,
  injectBlock,
  parsePatternLines,
  renderClaudeMd,
  renderPlatform,
  renderSkill,
  sortRules,
} from '../../view/rules.js';
import { IDEMPOTENT_WRITE, READ_ONLY, type ToolContext, ADDITIVE, defineTool } from '../tool.js';
import { categoryFilter, record, textArg } from '../schemas.js';

const rulesOf = (store: Store) => sortRules(store.instincts.list({ minLevel: 2 }).map(toRecord));

/** Resolves a client-supplied path and refuses anything outside the allowed roots. */
export function resolveAllowedPath(ctx: ToolContext, target: string): string {
  if (!target.trim()) throw new UsageError('The path is empty.');
  if (target.includes('\u0000')) throw new UsageError('The path contains a NUL byte.');
  const absolute = resolve(ctx.allowedRoots[0] ?? process.cwd(), target);
  let parent: string;
  try {
    parent = realpathSync(dirname(absolute));
  } catch {
    throw new UsageError(`The directory of ${target} does not exist.`, 'Parent directories must exist.');
  }
  const real = resolve(parent, absolute.slice(dirname(absolute).length + 1));
  const inside = ctx.allowedRoots.some((root) => {
    let base: string;
    try {
      base = realpathSync(root);
    } catch {
      return false;
    }
    const rel = relative(base, real);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
  });
  if (!inside) {
    throw new UsageError(
      `${target} is outside the allowed directories (${ctx.allowedRoots.join(', ')}).`,
      'Use a path inside the project, or add the directory to "mcp": {"allowed_roots": [...]} in config.json.',
    );
  }
  return real;
}

const exportRules = defineTool({
  name: 'export_rules',
  title: 'Export rules as JSON',
  description:
    'Export promoted-level patterns (rule and universal, promoted >= 2) as structured JSON for programmatic use. Read-only, no parameters. Sorted by promoted, then confidence, descending. Empty rules means nothing reached rule level: run consolidate() first.',
  input: z.object({}),
  output: z.object({ rules: z.array(record), count: z.number().int(), hint: z.string() }),
  annotations: READ_ONLY,
  handler(ctx) {
    const rules = rulesOf(ctx.store);
    return {
      rules,
      count: rules.length,
      hint: rules.length
        ? 'export_claude_md(), export_platform(fmt) and export_skill() render these for agents.'
        : 'No rule yet: run consolidate() after enough observations, then retry.',
    };
  },
});

const exportClaudeMd = defineTool({
  name: 'export_claude_md',
  title: 'Render rules for CLAUDE.md',
  description:
    'Render rule-level patterns as a Markdown block to paste into CLAUDE.md: one bullet per rule with key, category tag, confidence count and explain text. No file is modified; for in-place updates use inject_claude_md(). Empty markdown when no rule exists.',
  input: z.object({}),
  output: z.object({ markdown: z.string(), rule_count: z.number().int() }),
  annotations: READ_ONLY,
  handler(ctx) {
    const rules = rulesOf(ctx.store);
    return { markdown: renderClaudeMd(rules), rule_count: rules.length };
  },
});

const exportSkill = defineTool({
  name: 'export_skill',
  title: 'Package rules as SKILL.md',
  description:
    'Build a SKILL.md (anthropics/skills format): YAML frontmatter name and description, then the rule-level patterns grouped by category with confidence and explain text. Read-only. description "" auto-generates "Learned patterns from N observations". On an empty store returns skill_md "" with a hint to run consolidate().',
  input: z.object({
    name: z.string().max(64).default('instinct-rules'),
    description: textArg.default(''),
    category: categoryFilter.default(''),
  }),
  output: z.object({ skill_md: z.string(), rule_count: z.number().int(), hint: z.string() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const skill = renderSkill(rulesOf(ctx.store), { name: args.name, description: args.description, category: args.category || undefined });
    return {
      skill_md: skill,
      rule_count: countRuleBullets(skill),
      hint: skill
        ? 'Write skill_md to <skills dir>/<name>/SKILL.md.'
        : 'No rule-level pattern (promoted >= 2) yet: run consolidate() so mature patterns can cross the threshold.',
    };
  },
});

const injectClaudeMd = defineTool({
  name: 'inject_claude_md',
  title: 'Inject rules into CLAUDE.md',
  description:
    'Idempotently write rule-level patterns into a CLAUDE.md file, replacing only the block between <!-- instinct:start --> and <!-- instinct:end -->; everything else is preserved. Creates the file and markers if missing. changed is false when the block already matched. target: path inside the project (parent directories must exist).',
  input: z.object({ target: z.string().min(1).max(4096) }),
  output: z.object({ target: z.string(), rule_count: z.number().int(), changed: z.boolean() }),
  annotations: IDEMPOTENT_WRITE,
  handler(ctx, args) {
    const path = resolveAllowedPath(ctx, args.target);
    const rules = rulesOf(ctx.store);
    const result = injectBlock(path, renderClaudeMd(rules), rules.length);
    return { ...result, target: args.target };
  },
});

const exportPlatform = defineTool({
  name: 'export_platform',
  title: 'Render rules for an editor',
  description:
    'Render rule-level patterns in a target platform\'s rules format: "claude-md" (default, same as export_claude_md), "cursorrules" (.cursorrules), "windsurfrules" (.windsurfrules) or "codex" (AGENTS.md). Unknown formats are rejected. Empty content when no rule exists.',
  input: z.object({ fmt: z.enum(PLATFORMS).default('claude-md') }),
  output: z.object({ content: z.string(), format: z.string(), rule_count: z.number().int() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const rules = rulesOf(ctx.store);
    return { content: renderPlatform(rules, args.fmt), format: args.fmt, rule_count: rules.length };
  },
});

const importClaudeMd = defineTool({
  name: 'import_claude_md',
  title: 'Import patterns from CLAUDE.md',
  description:
    'Parse a CLAUDE.md file for backtick-wrapped patterns (seq:..., pref:..., fix:..., combo:...) and import each as an observation, with the count ("(12)", "x12", "confidence: 12") and explain text found on its line. The source file is not modified. skipped counts pattern-like tokens that failed validation.',
  input: z.object({ source: z.string().min(1).max(4096) }),
  output: z.object({ imported: z.number().int(), merged: z.number().int(), skipped: z.number().int(), source: z.string() }),
  annotations: ADDITIVE,
  handler(ctx, args) {
    const path = resolveAllowedPath(ctx, args.source);
    if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`No such file: ${args.source}`);
    if (statSync(path).size > 5 * 1024 * 1024) throw new UsageError(`${args.source} is larger than 5 MB.`);
    const { patterns, skipped } = parsePatternLines(readFileSync(path, 'utf8'));
    let imported = 0;
    let merged = 0;
    ctx.store.transaction(() => {
      for (const p of patterns) {
        const result = observe(ctx.store, {
          pattern: p.pattern,
          category: p.category,
          source: 'claude-md',
          project: ctx.project,
          explain: p.explain,
        });
        if (p.confidence !== undefined)
          raiseEvidence(ctx.store, result.pattern, p.confidence, { source: 'claude-md', project: ctx.project, detail: 'import_claude_md' });
        if (result.created) imported++;
        else merged++;
      }
    });
    return { imported, merged, skipped, source: args.source };
  },
});

export const EXPORT_TOOLS = [exportRules, exportClaudeMd, exportSkill, injectClaudeMd, exportPlatform, importClaudeMd];
