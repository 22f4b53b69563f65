/** The vocabulary shared by every layer: categories, domains, levels, key convention. */
import { UsageError } from './errors.js';

export const CATEGORIES = ['sequence', 'preference', 'fix_pattern', 'combo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The tools that edit a file, in every agent: Claude Code's, Codex's `apply_patch`, Gemini CLI's `write_file` and `replace`. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set([
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'apply_patch',
  'write_file',
  'replace',
]);

/** The tools that run a shell command, in every agent (lower-cased): Claude Code's Bash, Gemini CLI's run_shell_command, Codex's shell tools. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'shell', 'run_shell_command', 'local_shell', 'exec_command', 'terminal']);

/** Whether a tool, by the name its agent gives it, runs a shell command (its stored input is the command). */
export const isShellTool = (name: string): boolean => SHELL_TOOLS.has(name.toLowerCase());

/** Key prefixes and the category each one implies. */
export const PREFIX_CATEGORY: Readonly<Record<string, Category>> = {
  seq: 'sequence',
  pref: 'preference',
  fix: 'fix_pattern',
  combo: 'combo',
};

/** The ten domains. */
// prettier-ignore
export const DOMAINS = [
  'code-style',
  'testing',
  'debugging',
  'git',
  'tooling',
  'architecture',
  'performance',
  'security',
  'documentation',
  'general',
] as const;
export type Domain = (typeof DOMAINS)[number];

export type Level = 'raw' | 'mature' | 'rule' | 'universal';

export const FEEDBACK = ['wrong', 'weak', 'strong'] as const;
export type Feedback = (typeof FEEDBACK)[number];

export const DEFAULT_DOMAIN_BY_CATEGORY: Readonly<Record<Category, Domain>> = {
  sequence: 'tooling',
  preference: 'general',
  fix_pattern: 'debugging',
  combo: 'tooling',
};

const MAX_KEY_LENGTH = 512;

interface ParsedKey {
  key: string;
  prefix: string;
  body: string;
  category: Category;
}

/** Validates a `prefix:body` pattern key and tells which category it implies. */
export function parseKey(raw: string): ParsedKey {
  const key = typeof raw === 'string' ? raw.trim() : '';
  if (!key) throw new UsageError('The pattern key is empty.', 'Give a key such as "seq:lint->fix->lint" or "pref:pkg=pnpm".');
  if (key.length > MAX_KEY_LENGTH) {
    throw new UsageError(`The pattern key is ${key.length} characters; the limit is ${MAX_KEY_LENGTH}.`);
  }
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new UsageError('The pattern key contains control characters.');
  // A key rides in rule files' HTML comments and in MCP instructions: nothing in it may end
  // the comment or start markup there.
  if (/[<`]|--/.test(key)) {
    throw new UsageError(
      `The pattern key ${JSON.stringify(key.slice(0, 80))} contains "<", a backtick or "--".`,
      'Keys are slugs such as "seq:lint->test" or "pref:pkg=pnpm": say the rest in --explain.',
    );
  }
  const colon = key.indexOf(':');
  const prefix = colon > 0 ? key.slice(0, colon) : '';
  const body = colon > 0 ? key.slice(colon + 1).trim() : '';
  const category = PREFIX_CATEGORY[prefix];
  if (!category || !body) {
    throw new UsageError(
      `"${key}" does not follow the prefix:body convention.`,
      `Start the key with one of ${Object.keys(PREFIX_CATEGORY)
        .map((p) => `${p}:`)
        .join(', ')} followed by a body, e.g. "fix:missing-import".`,
    );
  }
  return { key, prefix, body, category };
}

export function parseChoice<T extends string>(what: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`Invalid ${what}: ${JSON.stringify(value)}.`, `Use one of: ${choices.join(', ')}.`);
}
