/**
 * Secret redaction: pure functions applied to everything an agent sends before it is
 * stored. A redacted secret becomes `[REDACTED:kind]`; applying redaction twice changes
 * nothing more. The rules (redact-rules.ts) prefer hiding a harmless value over keeping a
 * secret; a last pass hides long random-looking tokens wherever they are.
 */
import { RULES } from './redact-rules.js';
import { isReference, isSecretName, looksLikeRandomSecret, mark, quoteAware } from './secret-values.js';

export { entropy, looksLikeRandomSecret } from './secret-values.js';

/** Longest text redaction looks at: callers truncate anyway, and regexes stay fast. */
export const REDACT_SCAN_LIMIT = 64 * 1024;

function redactHighEntropy(text: string): string {
  // The look-behind makes each run of token characters tried once, from its start.
  return text.replace(/(?<![A-Za-z0-9+_=-])[A-Za-z0-9+_=-]{32,}/g, (token) =>
    looksLikeRandomSecret(token) ? mark('high-entropy') : token,
  );
}

/** The rules as run: the catch-all for long random tokens, then the .env pass, last. */
const PIPELINE: readonly { name: string; apply: (text: string) => string }[] = [
  ...RULES.map((rule) => ({
    name: rule.name,
    apply: (text: string) =>
      rule.needs && !rule.needs.test(text) ? text : text.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string),
  })),
  { name: 'high-entropy', apply: (text: string) => (text.length < 32 ? text : redactHighEntropy(text)) },
  { name: 'env-file', apply: (text: string) => (mentionsEnvFile(text) ? redactEnvAssignments(text) : text) },
];

/** The names of every rule, in the order they run (for measurements). */
export const RULE_NAMES: readonly string[] = PIPELINE.map((p) => p.name);

/** redact, also saying which rules changed the text. */
export function explainRedaction(text: string): { text: string; rules: string[] } {
  if (!text) return { text, rules: [] };
  let out = text.length > REDACT_SCAN_LIMIT ? text.slice(0, REDACT_SCAN_LIMIT) : text;
  const rules: string[] = [];
  for (const step of PIPELINE) {
    const next = step.apply(out);
    if (next !== out) rules.push(step.name);
    out = next;
  }
  return { text: out, rules };
}

/**
 * `.env` content: every `KEY=value` line loses its value, whatever the key's name, since
 * the file's purpose is to hold secrets. Comments and blank lines stay; lower-case names
 * (href=, src= in prose that mentions a .env file) are not environment variables.
 */
export function redactEnvAssignments(text: string): string {
  return text.replace(
    /(^|[\s;&|'"])((?:export\s+)?[A-Z_][A-Z0-9_]*=)("[^"\n]*"|'[^'\n]*'|[^\s;&|'"]+)/gm,
    (m, lead: string, key: string, value: string) => (isReference(value) ? m : `${lead}${key}${quoteAware(value, 'env')}`),
  );
}

/** True when a command or path refers to a dotenv file (.env, .env.local, prod.env ...). */
export function mentionsEnvFile(text: string): boolean {
  return /(?:^|[\s/'"=<>])(?:\.env(?:\.[A-Za-z0-9_-]+)?|[A-Za-z0-9_-]+\.env)(?=$|[\s'";|&)>])/.test(text);
}

/**
 * Hides every secret the rules recognise, and every assignment's value when the text
 * touches a .env file. Text beyond REDACT_SCAN_LIMIT is dropped, never kept unscanned.
 */
export function redact(text: string): string {
  return explainRedaction(text).text;
}

/** A field whose name says it holds a secret loses its whole value: {"password": "x"}. */
const secretField = (key: string, value: unknown): boolean => typeof value === 'string' && isSecretName(key) && !isReference(value);

/**
 * Redacts every string inside a JSON-like value (objects, arrays), leaving the shape intact.
 * A string under a secret's name is hidden whole, since its context is the key. Strings are
 * cut to `maxChars` first.
 */
export function redactDeep<T>(value: T, maxChars = REDACT_SCAN_LIMIT): T {
  if (typeof value === 'string') return redact(value.length > maxChars ? value.slice(0, maxChars) : value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, maxChars)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, secretField(k, v) ? mark('secret') : redactDeep(v, maxChars)]),
    ) as T;
  }
  return value;
}

/** A user's home folder in a path: /Users/alex, /home/alex, C:\Users\alex. */
const HOME_FOLDER = /(?:\/Users|\/home)\/[^/\s'"`]+|\b[A-Za-z]:\\Users\\[^\\\s'"`]+/g;

/** Text to share: a home folder said as `~`, so a path does not give away a user name. */
export const withoutHomeFolders = (text: string): string => text.replace(HOME_FOLDER, '~');
