/**
 * What a secret looks like, as pure predicates the redaction rules (redact-rules.ts) share:
 * names that make a value secret, values that only refer to one, and the shape of a random
 * token (character classes, Shannon entropy).
 */

/** The mark a hidden secret leaves: `[REDACTED:kind]`. */
export const mark = (kind: string): string => `[REDACTED:${kind}]`;

const MARKS = /\[REDACTED:([A-Za-z0-9_.-]{1,40})\]/g;

/** Adds the marks `text` holds to `counts`, by kind: what redaction hid, never the text around it. */
export function countMarks(text: string, counts: Map<string, number>): void {
  for (const m of text.matchAll(MARKS)) counts.set(m[1] as string, (counts.get(m[1] as string) ?? 0) + 1);
}

/**
 * Words that make a name's value a secret wherever they appear inside it (DB_PASSWORD,
 * apiKey, aws_secret_access_key, _authToken). Bare `pass` is left to SHORT_SECRET_NAME:
 * inside a word it is mostly bypass, passthrough, compass.
 */
export const SECRET_WORD =
  '(?:password|passwd|passphrase|passcode|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|account[_-]?key|client[_-]?secret|credentials?|auth[_-]?(?:token|key)|authtoken|session[_-]?(?:token|key|secret)|signing[_-]?key|encryption[_-]?key|master[_-]?key|dsn)';

/**
 * Names that are secret only as a whole name or its last part (DB_PASS, "pw", "auth",
 * keytool's -storepass):
 * inside a word they mean something else (bypass, author; PWD is the working directory).
 */
export const SHORT_SECRET_NAME = '(?:pw|pass|auth|(?<=[_-])pwd|(?:src|dest|new)?(?:store|key)pass)';

const SECRET_WORD_RE = new RegExp(SECRET_WORD, 'i');
const SHORT_NAME_RE = new RegExp(`(?:^|[_.-])${SHORT_SECRET_NAME}$`, 'i');

/**
 * The last word of a name that says something about a secret rather than holding one:
 * TOKEN_TTL, secretName, max_tokens, --password-stdin, tokenizer, password_min_length.
 */
const QUALIFIER =
  /^(?:tokens|tokeni[sz](?:e[drs]?|ation)|type|name|id|url|uri|path|file|dir|env|var|ref|len|length|ttl|timeout|expiry|expires|in|at|count|limit|max|min|usage|budget|estimate|index|kind|status|state|size|prefix|header|field|policy|helper|store|manager|provider|source|stdin|prompt|cmd|command|version|format|mode)$/i;

/** The words of a name's last part (branch.x-secrets.remote -> [remote]; apiKey -> [api, Key]). */
function nameWords(name: string): string[] {
  const last =
    name
      .replace(/^[-"'$]+|["']+$/g, '')
      .split(/[./:]/)
      .filter(Boolean)
      .pop() ?? '';
  return last
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_-]+/)
    .filter(Boolean);
}

/**
 * A name (of a variable, key, flag or setting) that holds a secret: a secret word among its
 * last three words (GITHUB_TOKEN_FOR_CI; not CalculateTokenUsageFromFile), and a last word
 * that is not a qualifier.
 */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  const tail = words.slice(-3).join('_');
  return (SECRET_WORD_RE.test(tail) || SHORT_NAME_RE.test(tail)) && !QUALIFIER.test(words.at(-1) ?? '');
}

/** Letters every secret's name holds: a cheap first test before isSecretName. */
const HINT_WORDS = 'pass|secret|token|key|pw|auth|credential|dsn';
export const NAME_HINT_RE = new RegExp(HINT_WORDS, 'i');
/** The same test inside a pattern, at the start of a name. */
export const NAME_HINT = `(?=[A-Za-z0-9_.-]*?(?:${HINT_WORDS}))`;

/** A value that merely names a secret (a variable, a placeholder, a type) leaks nothing. */
export function isReference(value: string): boolean {
  const v = value.replace(/^\\?["'`]|\\?["'`]$/g, '');
  return (
    v === '' ||
    /^\[?REDACTED/.test(v) ||
    // $VAR, ${VAR:-x}, $(cmd), ${{ secrets.X }}: expanded by the shell or the CI, not written here.
    /^\$[{(A-Za-z_]/.test(v) ||
    /^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v) ||
    /^<[^<>\s]+>/.test(v) ||
    /^\{\{.*\}\}$/.test(v) ||
    /^[^A-Za-z0-9]+$/.test(v) ||
    /^(?:x+|…)$/i.test(v) ||
    /x{4,}|\.{3}|…/i.test(v) ||
    /^(?:your|my)[_-]|^(?:example|placeholder|changeme|dummy)\b/i.test(v) ||
    /^%[a-z]$/i.test(v) ||
    /^(?:true|false|null|nil|none|undefined|string|number|required|optional|yes|no)$/i.test(v)
  );
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  if (!text) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const count = (text: string, re: RegExp): number => (text.match(re) ?? []).length;

/**
 * The share of a token made of words (Capitalised or lower-case runs of three letters or
 * more): high for identifiers (TestHookLogging_WritesToFile1442), low for random tokens.
 */
export function wordiness(token: string): number {
  const words = token.match(/[A-Z]?[a-z]{3,}/g) ?? [];
  return words.reduce((n, w) => n + w.length, 0) / (token.length || 1);
}

/** Ids the agents themselves make (tool calls, messages, requests): not secrets. */
const AGENT_ID = /^(?:srvtoolu|toolu|msg|req|call|chatcmpl|resp|file|batch)_/;

/**
 * A long random-looking token (mixed case and digits, high entropy) is treated as a secret
 * even without a known prefix. Hex strings (commit ids, hashes), identifiers and the
 * agents' own ids are kept.
 */
export function looksLikeRandomSecret(token: string): boolean {
  if (token.length < 32 || token.length > 512) return false;
  if (/^[0-9a-f]+$/i.test(token) || AGENT_ID.test(token)) return false;
  if (count(token, /[A-Z]/g) < 2 || count(token, /[a-z]/g) < 2 || count(token, /[0-9]/g) < 2) return false;
  return entropy(token) >= 4.3 && wordiness(token) < 0.5;
}

/**
 * A file path: relative or absolute, every part of it a name (letters, digits, dots,
 * dashes), none random-looking. A base64 secret holding slashes has random parts.
 */
export function looksLikePath(token: string): boolean {
  if (!/^(?:~|\.{1,2}|[A-Za-z]:)?[\\/]?(?:[\w.@-]+[\\/])+[\w.@-]*$/.test(token)) return false;
  return token.split(/[\\/]/).every((part) => !/[0-9]/.test(part) || !/[A-Z]/.test(part) || wordiness(part) >= 0.5);
}

/** A file path, a file name or a dotted name (src/auth/token.go, cfg.APIKey): code, not a credential. */
export function looksLikePathOrCode(token: string): boolean {
  if (looksLikePath(token)) return true;
  if (/^[\w-]+\.[a-z]{1,5}$/.test(token)) return true;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?$/.test(token)) return true;
  // Lower-case words joined by dashes or underscores, as in a slug: token-store-v2.
  return /^[a-z0-9]+(?:[_-][a-z0-9]+)+$/.test(token) && count(token, /[0-9]/g) <= 2;
}

/**
 * A value sitting right after a secret's name that looks generated rather than written:
 * at least 16 characters, letters and digits (a word or an identifier has no digits, a
 * number no letters), enough entropy, and not mostly words. Hex qualifies here: a hex
 * value named `token` is a token.
 */
export function looksLikeSecretValue(token: string): boolean {
  if (token.length < 16 || token.length > 512 || isReference(token) || looksLikePathOrCode(token)) return false;
  if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token)) return false;
  return entropy(token) >= 3.2 && wordiness(token) < 0.5;
}

/**
 * A value a person wrote after "password is": a word with a digit, a symbol or mixed case
 * inside, or anything quoted. Plain words ("the password is wrong") stay.
 */
export function looksLikeWrittenSecret(value: string): boolean {
  if (isReference(value)) return false;
  if (/^(["'`]).+\1$/.test(value)) return true;
  const v = value.replace(/[.,;:!?)]+$/, '');
  if (v.length < 6 || looksLikePathOrCode(v)) return false;
  return /[0-9]/.test(v) || /[^A-Za-z0-9]/.test(v) || /[a-z][A-Z]/.test(v);
}

/** The replacement for a value, keeping the quotes around it so the text still parses. */
export function quoteAware(value: string, kind: string): string {
  const q = /^(?:\\"|"|')/.exec(value)?.[0] ?? '';
  return `${q}${mark(kind)}${q && value.endsWith(q) && value.length > 1 ? q : ''}`;
}
