/** The export half of the MCP contract: rules as JSON, CLAUDE.md, SKILL.md, platform files, injection, import. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { projectKey } from '../../app/project-ref.js';
import { importRules, injectRuleFile, listRules, renderRules } from '../../app/rules.js';
import { oneOf } from '../../app/schemas.js';
import { isInside, realDirectory, realTarget } from '../../core/confine.js';
import { UsageError } from '../../core/errors.js';
import { PLATFORMS, RULE_FILES } from '../../view/rules.js';
import { contractRecord } from '../records.js';
import { FILE_WRITE, READ_ONLY, type ToolContext, ADDITIVE, call, defineTool } from '../tool.js';
import { categoryFilter, record, textArg } from '../schemas.js';

/** Resolves a file the client names for reading and refuses anything outside the read roots. */
function resolveReadable(ctx: ToolContext, source: string): string {
  if (!source.trim()) throw new UsageError('The path is empty.');
  if (source.includes('\u0000')) throw new UsageError('The path contains a NUL byte.');
  const real = realTarget(resolve(ctx.root, source));
  if (!ctx.readRoots.some((root) => isInside(real, realDirectory(root) ?? resolve(root)))) {
    throw new UsageError(
      `${source} is outside the allowed directories (${ctx.readRoots.join(', ')}).`,
      'Use a path inside the project, or add the directory to "mcp": {"allowed_roots": [...]} in config.json.',
    );
  }
  return real;
}

/** Whose rules: a project by name or fingerprint; "" is the server's own project. */
const projectArg = textArg.default('').describe('project name or fingerprint; "" = this server\'s project');
const scopeOf = (ctx: ToolContext, project: string): string => projectKey(ctx.store, project) || ctx.project;

const exportRules = defineTool({
  name: 'export_rules',
  title: 'Export rules as JSON',
  description:
    'Export promoted-level patterns (rule and universal, promoted >= 2, and convictions a person promoted) as structured JSON for programmatic use. Read-only. project "" (default) is the current project with the global patterns; a name or fingerprint names another. Sorted by promoted, then confidence, descending. Empty rules means nothing reached rule level: run consolidate() first.',
  input: z.object({ project: projectArg }),
  output: z.object({ rules: z.array(record), count: z.number().int(), hint: z.string() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const rules = call(listRules, ctx, { project: scopeOf(ctx, args.project) }).map(contractRecord);
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
  input: z.object({ project: projectArg }),
  output: z.object({ markdown: z.string(), rule_count: z.number().int() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const r = call(renderRules, ctx, { format: 'claude-md', project: scopeOf(ctx, args.project) });
    return { markdown: r.content, rule_count: r.rule_count };
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
    project: projectArg,
    category: categoryFilter.default(''),
  }),
  output: z.object({ skill_md: z.string(), rule_count: z.number().int(), hint: z.string() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const r = call(renderRules, ctx, {
      format: 'skill',
      name: args.name,
      description: args.description,
      category: args.category || undefined,
      project: scopeOf(ctx, args.project),
    });
    const skill = r.content;
    return {
      skill_md: skill,
      rule_count: r.rule_count,
      hint: skill
        ? 'Write skill_md to <skills dir>/<name>/SKILL.md.'
        : 'No rule-level pattern (promoted >= 2) yet: run consolidate() so mature patterns can cross the threshold.',
    };
  },
});

const injectClaudeMd = defineTool({
  name: 'inject_claude_md',
  title: 'Inject rules into a rule file',
  description: `Write rule-level patterns into one of the project's rule files, replacing only the block between <!-- instinct:start --> and <!-- instinct:end -->; everything else is preserved; a block edited by hand since it was written is refused (ask the user). Creates the file and markers if missing; with no rule left, a block of rules this store learned and took back is removed; changed is false when the block already matched. target: a rule file named relative to the project root, e.g. "CLAUDE.md" or "packages/api/AGENTS.md"; its name must be one of ${Object.keys(RULE_FILES).join(', ')} (the format follows the name). Any other file, a path outside the project, inside .git or the Homunculus home, or a link leading there is refused.`,
  input: z.object({ target: z.string().min(1).max(1024), project: projectArg }),
  output: z.object({ target: z.string(), rule_count: z.number().int(), changed: z.boolean() }),
  annotations: FILE_WRITE,
  handler(ctx, args) {
    const result = call(injectRuleFile, ctx, { file: args.target, root: ctx.root, project: scopeOf(ctx, args.project) });
    return { target: args.target, rule_count: result.rule_count, changed: result.changed };
  },
});

const exportPlatform = defineTool({
  name: 'export_platform',
  title: 'Render rules for an editor',
  description:
    'Render rule-level patterns in the rules format of the platform `fmt` names: "claude-md" (default, same as export_claude_md), "cursorrules" (.cursorrules), "windsurfrules" (.windsurfrules) or "codex" (AGENTS.md; "agents-md", the CLI\'s name, is the same). A SKILL.md is export_skill(). Unknown formats and arguments are rejected. Empty content when no rule exists.',
  input: z.object({ fmt: oneOf([...PLATFORMS, 'agents-md']).default('claude-md'), project: projectArg }),
  output: z.object({ content: z.string(), format: z.string(), rule_count: z.number().int() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const format = args.fmt === 'codex' || args.fmt === 'agents-md' ? 'agents-md' : args.fmt;
    const r = call(renderRules, ctx, { format, project: scopeOf(ctx, args.project) });
    return { content: r.content, format: args.fmt, rule_count: r.rule_count };
  },
});

const importClaudeMd = defineTool({
  name: 'import_claude_md',
  title: 'Import patterns from CLAUDE.md',
  description:
    'Parse a CLAUDE.md file for backtick-wrapped patterns (seq:..., pref:..., fix:..., combo:...) and import each as an observation, with the count ("(12)", "x12", "confidence: 12") and explain text found on its line. The source file is not modified. skipped counts pattern-like tokens that failed validation, and the bullets Homunculus itself wrote for patterns this store already holds at that count (its own words read back add nothing).',
  input: z.object({ source: z.string().min(1).max(4096) }),
  output: z.object({ imported: z.number().int(), merged: z.number().int(), skipped: z.number().int(), source: z.string() }),
  annotations: ADDITIVE,
  handler(ctx, args) {
    const { unchanged, skipped, ...result } = call(importRules, ctx, { source: resolveReadable(ctx, args.source), project: ctx.project });
    return { ...result, skipped: skipped + unchanged, source: args.source };
  },
});

export const EXPORT_TOOLS = [exportRules, exportClaudeMd, exportSkill, injectClaudeMd, exportPlatform, importClaudeMd];
