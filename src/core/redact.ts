/**
 * Secret redaction: pure functions applied to everything an agent sends before it is
 * stored. A redacted secret becomes `[REDACTED:kind]`; applying redaction twice changes
 * nothing more. The rules prefer hiding a harmless value over keeping a secret.
 */

/** Longest text redaction looks at: callers truncate anyway, and regexes stay fast. */
export const REDACT_SCAN_LIMIT = 64 * 1024;

const MARK = (kind: string): string => `[REDACTED:${kind}]`;

/** Words that make an assignment's or a flag's value a secret. */
const SECRET_WORD =
  '(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|auth[_-]?(?:token|key)|session[_-]?(?:token|key|secret)|signing[_-]?key|encryption[_-]?key|master[_-]?key|dsn)';

interface Rule {
  kind: string;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

/** A value that merely names a secret (a variable, a placeholder) is kept: it leaks nothing. */
function isReference(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, '');
  return (
    v === '' ||
    v.startsWith('[REDACTED') ||
    /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v) ||
    /^\$\(/.test(v) ||
    /^<[^>]*>$/.test(v) ||
    /^\{\{.*\}\}$/.test(v) ||
    /^\*+$/.test(v) ||
    /^%[a-z]$/i.test(v) ||
    /^(?:true|false|null|none|undefined|string|number|required|optional)$/i.test(v)
  );
}

const quoteAware = (value: string, kind: string): string => {
  const q = value[0] === '"' || value[0] === "'" ? value[0] : '';
  return `${q}${MARK(kind)}${q && value.endsWith(q) && value.length > 1 ? q : ''}`;
};

const RULES: Rule[] = [
  {
    kind: 'private-key',
    // A whole PEM block, or an unterminated one (the text was cut) up to the end.
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: () => MARK('private-key'),
  },
  {
    kind: 'connection-string',
    // scheme://user:password@host -> keep user and host, hide the password.
    pattern: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/@'"`]+):([^\s@'"`]+)@/gi,
    replace: (_m, scheme: string, user: string, password: string) =>
      password.startsWith('[REDACTED') ? _m : `${scheme}${user}:${MARK('password')}@`,
  },
  {
    kind: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: () => MARK('jwt'),
  },
  {
    kind: 'token',
    // Formats with a recognisable prefix: cloud keys, forge tokens, chat and payment APIs.
    pattern: new RegExp(
      // prettier-ignore
      [
        '\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\\b',
        '\\bgh[pousr]_[A-Za-z0-9]{30,}\\b',
        '\\bgithub_pat_[A-Za-z0-9_]{22,}\\b',
        '\\bglpat-[A-Za-z0-9_-]{20,}\\b',
        '\\bxox[abposr]-[A-Za-z0-9-]{10,}',
        '\\bhttps://hooks\\.slack\\.com/services/[A-Za-z0-9/_-]+',
        '\\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\\b',
        '\\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}',
        '\\bAIza[0-9A-Za-z_-]{35}\\b',
        '\\bya29\\.[0-9A-Za-z_-]{20,}',
        '\\bnpm_[A-Za-z0-9]{36}\\b',
        '\\bhf_[A-Za-z0-9]{30,}\\b',
        '\\bSG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}',
        '\\bdop_v1_[a-f0-9]{64}\\b',
        '\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\\b',
        '\\bpypi-[A-Za-z0-9_-]{40,}',
      ].join('|'),
      'g',
    ),
    replace: () => MARK('token'),
  },
  {
    kind: 'authorization',
    // HTTP headers carrying credentials, wherever they appear (curl -H, logs, code).
    pattern:
      /(?<![\w-])((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie|set-cookie)(["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|((?:bearer|basic|token|digest|bot)\s+)?[^\s"'`,;]+(?:[^\S\n]*;[^\S\n]*[^\s"'`,;]+)*)/gi,
    replace: (m, name: string, sep: string, value: string, scheme: string | undefined) => {
      if (value.startsWith('"') || value.startsWith("'")) {
        const inner = value.slice(1, -1);
        const s = /^(?:bearer|basic|token|digest|bot)\s+/i.exec(inner)?.[0] ?? '';
        return isReference(inner.slice(s.length)) ? m : `${name}${sep}${value[0]}${s}${MARK('authorization')}${value[0]}`;
      }
      const bare = value.slice((scheme ?? '').length);
      return isReference(bare) ? m : `${name}${sep}${scheme ?? ''}${MARK('authorization')}`;
    },
  },
  {
    kind: 'bearer',
    pattern: /\b(bearer\s+)([A-Za-z0-9._~+/=-]{12,})/gi,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${MARK('token')}`),
  },
  {
    kind: 'flag',
    // --password xyz, --token=xyz, --api-key "xyz"
    pattern: new RegExp(`(--?[A-Za-z0-9-]*${SECRET_WORD}[A-Za-z0-9-]*)(=|\\s+)("[^"]*"|'[^']*'|[^\\s"'\`|;&]+)`, 'gi'),
    replace: (m, flag: string, sep: string, value: string) =>
      isReference(value) || value.startsWith('-') ? m : `${flag}${sep}${quoteAware(value, 'secret')}`,
  },
  {
    kind: 'assignment',
    // PASSWORD=xyz, "apiKey": "xyz", secret: xyz, token => 'xyz'
    pattern: new RegExp(
      `((?:^|[^A-Za-z0-9])["']?[A-Za-z0-9_.-]*${SECRET_WORD}[A-Za-z0-9_]*["']?)(\\s*(?:=>|:=|=|:)\\s*)("[^"\\n]*"|'[^'\\n]*'|[^\\s"'\`,;&|)}\\]]+)`,
      'gi',
    ),
    replace: (m, key: string, sep: string, value: string) => {
      if (isReference(value) || value.includes('(')) return m;
      // `password: string` in a type annotation: a short lower-case word, not a value.
      if (sep.trim() === ':' && /^[a-z]+[?]?$/.test(value) && value.length < 12) return m;
      // max_tokens=100, tokens: 3: counts, not credentials.
      if (/tokens["']?$/i.test(key) && /^\d+$/.test(value)) return m;
      return `${key}${sep}${quoteAware(value, 'secret')}`;
    },
  },
  {
    kind: 'mysql-password',
    // mysql -pSECRET (the password glued to -p)
    pattern: /(\bmysql(?:dump|admin)?\b[^\n|;&]*?\s-p)([^\s-][^\s]*)/g,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${MARK('secret')}`),
  },
];

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

/**
 * A long random-looking token (mixed case and digits, high entropy) is treated as a secret
 * even without a known prefix. Hex strings (commit ids, hashes) and paths are kept.
 */
export function looksLikeRandomSecret(token: string): boolean {
  if (token.length < 32 || token.length > 512) return false;
  if (/^[0-9a-f]+$/i.test(token)) return false;
  const upper = (token.match(/[A-Z]/g) ?? []).length;
  const lower = (token.match(/[a-z]/g) ?? []).length;
  const digits = (token.match(/[0-9]/g) ?? []).length;
  if (upper < 2 || lower < 2 || digits < 2) return false;
  return entropy(token) >= 4.3;
}

function redactHighEntropy(text: string): string {
  return text.replace(/[A-Za-z0-9+_=-]{32,}/g, (token) => (looksLikeRandomSecret(token) ? MARK('high-entropy') : token));
}

/** Hides every secret the rules recognise. Text beyond REDACT_SCAN_LIMIT is dropped, never kept unscanned. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  let out = text.length > REDACT_SCAN_LIMIT ? text.slice(0, REDACT_SCAN_LIMIT) : text;
  for (const rule of RULES) out = out.replace(rule.pattern, rule.replace as (m: string, ...g: string[]) => string);
  return redactHighEntropy(out);
}

/**
 * `.env` content: every `KEY=value` line loses its value, whatever the key's name, since
 * the file's purpose is to hold secrets. Comments and blank lines stay.
 */
export function redactEnvAssignments(text: string): string {
  return text.replace(
    /(^|[\s;&|'"])((?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=)("[^"\n]*"|'[^'\n]*'|[^\s;&|'"]+)/gm,
    (m, lead: string, key: string, value: string) => (isReference(value) ? m : `${lead}${key}${quoteAware(value, 'env')}`),
  );
}

/** True when a command or path refers to a dotenv file (.env, .env.local, prod.env ...). */
export function mentionsEnvFile(text: string): boolean {
  return /(?:^|[\s/'"=<>])(?:\.env(?:\.[A-Za-z0-9_-]+)?|[A-Za-z0-9_-]+\.env)(?=$|[\s'";|&)>])/.test(text);
}

/** redactSecrets, plus value-blind redaction of assignments when the text touches a .env file. */
export function redact(text: string): string {
  const out = redactSecrets(text);
  return mentionsEnvFile(out) ? redactEnvAssignments(out) : out;
}

/** Redacts every string inside a JSON-like value (objects, arrays), leaving the shape intact. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}
