/**
 * Learned rules rendered for every agent's rule file (the MCP contract's exports): CLAUDE.md,
 * AGENTS.md (Codex), .cursorrules, .windsurfrules and SKILL.md, and the reverse parse of
 * backtick-wrapped patterns (rule-block.ts writes the block between markers).
 */
import YAML from 'yaml';
import { CATEGORIES, type Category, PREFIX_CATEGORY } from '../core/domain.js';
import { UsageError } from '../core/errors.js';
import type { InstinctView } from '../learn/records.js';
import { type PlainInstinct, fromView, mergeSimilar, plainLine } from '../context/plain.js';

/** What a rule file shows of an instinct. */
export type Rule = Pick<InstinctView, 'pattern' | 'category' | 'evidence' | 'level_rank' | 'explain'> &
  Partial<Pick<InstinctView, 'trigger' | 'action' | 'title' | 'origin' | 'metadata' | 'local_evidence' | 'verdict' | 'conviction'>>;

export const PLATFORMS = ['claude-md', 'cursorrules', 'windsurfrules', 'codex'] as const;
type Platform = (typeof PLATFORMS)[number];
export const RULE_FORMATS = ['claude-md', 'agents-md', 'cursorrules', 'windsurfrules', 'skill'] as const;
export type RuleFormat = (typeof RULE_FORMATS)[number];

/**
 * The rule files agents read, by name, and the format each takes: the only files a tool may
 * inject into. Claude Code reads CLAUDE.md (and CLAUDE.local.md), Codex AGENTS.md, Gemini
 * CLI GEMINI.md, Cursor .cursorrules, Windsurf .windsurfrules.
 */
export const RULE_FILES: Readonly<Record<string, Exclude<RuleFormat, 'skill'>>> = {
  'CLAUDE.md': 'claude-md',
  'CLAUDE.local.md': 'claude-md',
  'AGENTS.md': 'agents-md',
  'GEMINI.md': 'claude-md',
  '.cursorrules': 'cursorrules',
  '.windsurfrules': 'windsurfrules',
};

/**
 * Checks a rule file named relative to the project ("CLAUDE.md", "packages/api/AGENTS.md")
 * and returns the format it takes: a relative path without "..", not inside .git, whose
 * name is one of RULE_FILES. Pure: where the path really leads is checked by the caller.
 */
export function ruleFileFormat(relativePath: string): Exclude<RuleFormat, 'skill'> {
  const names = Object.keys(RULE_FILES).join(', ');
  const refuse = (why: string): never => {
    throw new UsageError(
      `${JSON.stringify(relativePath)} is not a rule file of the project: ${why}.`,
      `Name one of ${names}, e.g. "CLAUDE.md".`,
    );
  };
  // eslint-disable-next-line no-control-regex -- control characters never belong in a file name here
  if (/[\u0000-\u001f\u007f\\]/.test(relativePath)) refuse('it contains a control character or a backslash');
  if (relativePath.startsWith('/') || /^[A-Za-z]:/.test(relativePath)) refuse('it is an absolute path');
  const segments = relativePath.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) refuse('use a plain relative path without "." or ".." parts');
  if (segments.some((s) => s.toLowerCase() === '.git')) refuse('it is inside .git');
  const format = ruleFormatOf(segments[segments.length - 1] as string);
  if (!format) refuse('only rule files may be written');
  return format as Exclude<RuleFormat, 'skill'>;
}

/** The format of a rule file by its name, or undefined when the name is not a rule file's. */
export const ruleFormatOf = (name: string): Exclude<RuleFormat, 'skill'> | undefined =>
  Object.hasOwn(RULE_FILES, name) ? RULE_FILES[name] : undefined;

/** Whether a file may take the rule block: a rule file's name, or a text file an agent reads as rules (markdown, Cursor's .mdc). Pure. */
export const takesRuleBlock = (name: string): boolean => ruleFormatOf(name) !== undefined || /\.(md|mdc|markdown|txt)$/i.test(name);

export { MARKER_END, MARKER_START } from '../core/rule-markers.js';

const CATEGORY_TITLES: Record<Category, string> = {
  sequence: 'Sequences',
  preference: 'Preferences',
  fix_pattern: 'Fixes',
  combo: 'Combos',
};

/** Rule-level instincts and convictions sorted as export_rules promises: level desc, then evidence desc. */
export function sortRules<R extends Rule>(records: readonly R[]): R[] {
  return records
    .filter((r) => r.level_rank >= 2 || r.conviction)
    .sort((a, b) => b.level_rank - a.level_rank || b.evidence - a.evidence || a.pattern.localeCompare(b.pattern));
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** A rule without an action says its explain text. */
const plainOf = (r: Rule): PlainInstinct & { rule: Rule } => ({ ...fromView(r), action: r.action || oneLine(r.explain), rule: r });

/**
 * Bullets in plain words, rules that say the same thing for other code on one line. The keys
 * ride in an HTML comment on the line below, so import_claude_md reads a block back with its
 * keys and counts, and the model does not: Claude Code drops a comment on a line of its own
 * from CLAUDE.md, but keeps one at the end of a line.
 */
function bullets(rules: readonly Rule[]): string[] {
  return mergeSimilar(rules.map(plainOf)).map((group) => {
    // A key stored before keys were checked must not end the comment ("--" never appears in one now).
    const keys = group.map((g) => `\`${g.rule.pattern.replace(/--/g, '-\u2010')}\` (${g.rule.evidence})`).join(' ');
    return `${plainLine(group)}\n<!-- ${keys} -->`;
  });
}

/** The CLAUDE.md block: one bullet per rule (or group of rules), no surrounding header. */
export function renderClaudeMd(rules: readonly Rule[]): string {
  if (rules.length === 0) return '';
  return `${bullets(rules).join('\n')}\n`;
}

function renderPlainRules(rules: readonly Rule[], intro: string): string {
  if (rules.length === 0) return '';
  const lines = [intro, ''];
  for (const category of CATEGORIES) {
    const group = rules.filter((r) => r.category === category);
    if (group.length === 0) continue;
    lines.push(`${CATEGORY_TITLES[category]}:`, ...bullets(group), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function renderPlatform(rules: readonly Rule[], format: Platform): string {
  switch (format) {
    case 'claude-md':
      return renderClaudeMd(rules);
    case 'cursorrules':
      return renderPlainRules(rules, '# Learned rules (Homunculus). Follow these patterns observed in this codebase.');
    case 'windsurfrules':
      return renderPlainRules(rules, '# Learned rules (Homunculus) for Windsurf. Apply them when they match the task.');
    case 'codex':
      return rules.length === 0
        ? ''
        : `# AGENTS.md\n\n## Learned rules\n\nPatterns Homunculus learned from past sessions, strongest first.\n\n${renderClaudeMd(rules)}`;
  }
}

export function renderSkill(rules: readonly Rule[], options: { name?: string; description?: string; category?: Category } = {}): string {
  const selected = options.category ? rules.filter((r) => r.category === options.category) : [...rules];
  if (selected.length === 0) return '';
  const name = options.name?.trim() || 'instinct-rules';
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) {
    throw new UsageError(
      `Invalid skill name ${JSON.stringify(name)}.`,
      'Use lower-case letters, digits and hyphens (at most 64), e.g. "instinct-rules".',
    );
  }
  // The contract's wording; the count is of the observations behind the rules, not of the rules.
  const observations = selected.reduce((n, r) => n + r.evidence, 0);
  const description = oneLine(options.description ?? '') || `Learned patterns from ${observations} observations`;
  const front = YAML.stringify({ name, description }, { lineWidth: 0 }).trimEnd();
  const body = [`# ${name}`, '', 'Rules learned from repeated observation of real sessions. Apply them when the trigger matches.', ''];
  for (const category of CATEGORIES) {
    const group = selected.filter((r) => r.category === category);
    if (group.length === 0) continue;
    body.push(`## ${CATEGORY_TITLES[category]}`, '', ...bullets(group), '');
  }
  return `---\n${front}\n---\n\n${body.join('\n').trimEnd()}\n`;
}

/** Counts rule bullets in a rendered document (what export_skill reports as rule_count). */
/** The rules a rendered block holds: the keys of its bullets (in their comments, or leading an older bullet). */
export function countRuleBullets(markdown: string): number {
  const inComments = [...markdown.matchAll(/<!-- ((?:`[^`]+` \(\d+\) ?)+)-->/g)].reduce(
    (n, m) => n + (m[1]?.match(/`[^`]+`/g)?.length ?? 0),
    0,
  );
  return inComments + (markdown.match(/^- `[^`]+`/gm) ?? []).length;
}

interface ParsedPattern {
  pattern: string;
  category: Category;
  /** The count the line states, if any. */
  evidence?: number;
  explain?: string;
  /** A bullet Homunculus wrote (its keys in a trailing comment), rather than a line by hand. */
  written: boolean;
}

/**
 * Finds backtick-wrapped `prefix:body` patterns, one per line, with a count such as "(12)",
 * "x12", "12x", "evidence: 12" or "confidence: 12" (the MCP contract's word for the count) and the explain text after a dash or colon.
 * A backticked word:thing that is not a valid pattern counts as skipped. A bullet in plain
 * words (what export writes) keeps its keys and counts in an HTML comment on the line below it
 * (at its end, in blocks written before).
 */
export function parsePatternLines(markdown: string): { patterns: ParsedPattern[]; skipped: number } {
  const patterns: ParsedPattern[] = [];
  let skipped = 0;
  const lines = markdown.split(/\r?\n/);
  // Only a bullet without a comment of its own, above a comment line that names keys: not one
  // above the block's digest or a note by hand.
  const keysBelow = (i: number): boolean =>
    /^\s*- /.test(lines[i] ?? '') && !(lines[i] ?? '').includes('<!--') && /^<!--.*`[A-Za-z_]+:[^`]*`.*-->\s*$/.test(lines[i + 1] ?? '');
  for (const [i, full] of lines.entries()) {
    // A bullet whose keys are on the line below is read with them.
    if (keysBelow(i)) continue;
    // A bullet in plain words carries its keys in a comment, below it (or, written before, at its
    // end): the bullet's words are the explain.
    const comment = /^(.*?)<!--(.*?)-->\s*$/.exec(full);
    const line = comment ? (comment[2] ?? '') : full;
    // A merged bullet's words speak for its rules together, not for each key.
    const keys = [...line.matchAll(/`[A-Za-z_]+:[^`]*`/g)].length;
    const bullet = comment && !comment[1]?.trim() && keysBelow(i - 1) ? lines[i - 1] : comment?.[1];
    const said = comment
      ? (bullet ?? '')
          .replace(/^\s*-\s*/, '')
          .replace(/\s*\(seen [^)]*\)\s*$/, '')
          .trim()
      : '';
    for (const match of line.matchAll(/`([A-Za-z_]+):([^`]*)`/g)) {
      const prefix = match[1] ?? '';
      const body = (match[2] ?? '').trim();
      const category = PREFIX_CATEGORY[prefix];
      if (!category || !body || body.length > 500) {
        skipped++;
        continue;
      }
      const rest = line.slice((match.index ?? 0) + match[0].length);
      const count = /\((\d+)\)|\bx(\d+)\b|\b(\d+)x\b|(?:confidence|evidence)[:=]\s*(\d+)/i.exec(rest);
      const value = count ? Number(count[1] ?? count[2] ?? count[3] ?? count[4]) : undefined;
      const remainder = (count ? rest.replace(count[0], '') : rest).replace(/\[[a-z_]+\]/, '').replace(/`[^`]*`.*$/, '');
      const explain = comment ? (said !== body && keys === 1 ? said : undefined) : /(?:—|–|\s-\s|:)\s*(.+)$/.exec(remainder)?.[1]?.trim();
      patterns.push({
        pattern: `${prefix}:${body}`,
        category,
        evidence: value !== undefined && value > 0 ? value : undefined,
        explain: explain || undefined,
        written: comment !== null,
      });
    }
  }
  return { patterns, skipped };
}
