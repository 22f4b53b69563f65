/**
 * The redaction rules, in the order they run (redact.ts applies them). Each finds a secret
 * by its shape (a known token format, a key block, a JWT) or by its context (the name,
 * flag, header, command or sentence that carries it) and replaces the value alone, so the
 * command around it stays readable. Rules never touch a value already redacted.
 */
import {
  NAME_HINT,
  NAME_HINT_RE,
  SECRET_WORD,
  isReference,
  isSecretName,
  looksLikePath,
  looksLikeSecretValue,
  looksLikeWrittenSecret,
  mark,
  quoteAware,
} from './secret-values.js';

export interface Rule {
  /** Named for the measurements and the tests. */
  name: string;
  /**
   * A cheap test the text must pass for the rule to run: most texts skip most rules, and
   * a pattern never run is never compiled (a hook process runs each rule once at most).
   */
  needs?: RegExp;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

/** A value quoted with escaped quotes, as JSON written inside a string is: \\"xyz\\". */
const ESCAPED_QUOTED = '\\\\"(?:[^"\\\\\\n]|\\\\[^"])*\\\\"';
/** A command-line value: quoted, or up to the next space or shell operator. */
const VALUE = `("[^"\\n]*"|'[^'\\n]*'|[^\\s"'\`|;&]+)`;
/** The rest of one simple command: no newline, pipe or list operator in between. */
const SAME_COMMAND = `[^\\n|;&]*?`;

/** `prefix` kept, `value` hidden (quotes kept) unless it only refers to a secret. */
const hideValue =
  (kind: string) =>
  (m: string, prefix: string, value: string): string =>
    isReference(value) || value.startsWith('-') ? m : `${prefix}${quoteAware(value, kind)}`;

/** A rule hiding the value a command's option carries: `<command> ... <option> VALUE`. */
const optionRule = (name: string, needs: RegExp, command: string, option: string): Rule => ({
  name,
  needs,
  pattern: new RegExp(`(\\b${command}\\b${SAME_COMMAND}\\s${option})${VALUE}`, 'g'),
  replace: hideValue('password'),
});

/** The arguments of a `config set`: the word after a secret-named setting is hidden (flags skipped). */
function hideSettingValue(args: string): string {
  const parts = args.split(/(\s+)/);
  for (let i = 0; i + 2 < parts.length; i += 2) {
    const key = parts[i] ?? '';
    const value = parts[i + 2] ?? '';
    if (key.startsWith('-') || value.startsWith('-') || isReference(value) || !isSecretName(key)) continue;
    parts[i + 2] = quoteAware(value, 'secret');
  }
  return parts.join('');
}

const SHAPES: Rule[] = [
  {
    name: 'private-key',
    needs: /PRIVATE KEY/,
    // A whole PEM block, or an unterminated one (the text was cut) up to the end.
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: () => mark('private-key'),
  },
  {
    name: 'connection-string',
    needs: /:\/\//,
    // scheme://user:password@host -> keep user and host, hide the password.
    pattern: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/@'"`[\]]+):([^\s@'"`]+)@/gi,
    replace: (m, scheme: string, user: string, password: string) => (isReference(password) ? m : `${scheme}${user}:${mark('password')}@`),
  },
  {
    name: 'jwt',
    needs: /eyJ/,
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: () => mark('jwt'),
  },
  {
    name: 'token-format',
    // Formats with a recognisable prefix: cloud keys, forge tokens, chat and payment APIs.
    pattern: new RegExp(
      // prettier-ignore
      [
        '\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\\b',
        '\\bgh[pousr]_[A-Za-z0-9]{30,}\\b',
        '\\bgithub_pat_[A-Za-z0-9_]{22,}\\b',
        '\\bglpat-[A-Za-z0-9_-]{20,}\\b',
        '\\bxox[abposre]-[A-Za-z0-9-]{10,}',
        '\\bxapp-\\d-[A-Za-z0-9-]{10,}',
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
        '\\bhvs\\.[A-Za-z0-9_-]{24,}',
        '\\bdckr_pat_[A-Za-z0-9_-]{20,}',
      ].join('|'),
      'g',
    ),
    replace: () => mark('token'),
  },
];

const HEADERS: Rule[] = [
  {
    name: 'authorization-header',
    needs: /authorization|api-key|auth-token|token:|cookie/i,
    // HTTP headers carrying credentials, wherever they appear (curl -H, logs, code).
    pattern:
      /(?<![\w-])((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-vault-token|private-token|x-access-token|cookie|set-cookie)(["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|((?:bearer|basic|token|digest|bot)\s+)?[^\s"'`,;]+(?:[^\S\n]*;[^\S\n]*[^\s"'`,;]+)*)/gi,
    replace: (m, name: string, sep: string, value: string, scheme: string | undefined) => {
      if (value.startsWith('"') || value.startsWith("'")) {
        const inner = value.slice(1, -1);
        const s = /^(?:bearer|basic|token|digest|bot)\s+/i.exec(inner)?.[0] ?? '';
        return isReference(inner.slice(s.length)) ? m : `${name}${sep}${value[0]}${s}${mark('authorization')}${value[0]}`;
      }
      const bare = value.slice((scheme ?? '').length);
      return isReference(bare) ? m : `${name}${sep}${scheme ?? ''}${mark('authorization')}`;
    },
  },
  {
    name: 'bearer',
    needs: /bearer/i,
    pattern: /\b(bearer\s+)([A-Za-z0-9._~+/=-]{12,})/gi,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${mark('token')}`),
  },
];

/** Commands whose options carry a password under a name that says nothing (-p, -a, -P). */
const COMMANDS: Rule[] = [
  optionRule(
    'login-password',
    /login/,
    '(?:docker|podman|buildah|skopeo|nerdctl|oras|helm(?:\\s+registry)?|az|cf)\\s+login',
    '(?:-p|--password)(?:\\s+|=)',
  ),
  optionRule('sshpass', /sshpass/, 'sshpass', '-p\\s*'),
  optionRule('mongo-password', /mongo/, '(?:mongo|mongosh)', '(?:-p|--password)(?:\\s+|=)'),
  optionRule('sqlcmd-password', /sqlcmd/, 'sqlcmd', '-P\\s*'),
  optionRule('ldap-password', /ldap/, 'ldap(?:search|modify|add|delete|passwd|whoami)', '-w\\s+'),
  optionRule('redis-cli', /redis-cli/, 'redis-cli', '(?:-a|--pass)\\s+'),
  optionRule('zip-password', /-P/, '(?:zip|unzip)', '-P\\s+'),
  optionRule('gh-secret', /secret/, 'gh\\s+secret\\s+set', '(?:-b|--body)(?:\\s+|=)'),
  optionRule('kubectl-secret', /from-literal/, 'kubectl\\s+create\\s+secret', '--from-literal[= ][^=\\s]+='),
  {
    name: 'mysql-password',
    needs: /mysql|mariadb|7z|rar/,
    // mysql -pSECRET (the password glued to -p); 7z, rar and unrar -pSECRET likewise.
    pattern: /(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|7z|7za|rar|unrar)\b[^\n|;&]*?\s-p)([^\s-][^\s]*)/g,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${mark('password')}`),
  },
  {
    name: 'openssl-pass',
    needs: /pass:/,
    pattern: /(\s-pass(?:in|out)?\s+pass:)(\S+)/g,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${mark('password')}`),
  },
  {
    name: 'password-stdin',
    needs: /password-stdin|sudo|passwd/,
    // echo 'secret' | docker login --password-stdin; | sudo -S; | passwd --stdin; | chpasswd
    pattern:
      /(\b(?:echo|printf)\s+(?:-[a-z]+\s+)?(?:(?:"%[^"\n]*"|'%[^'\n]*'|%\S*)\s+)?)("[^"\n]*"|'[^'\n]*'|[^\s|;&]+)(?=\s*\|[^\n;&]*(?:--password-stdin|\bsudo\b[^\n|;&]*\s(?:-[A-Za-z]*S\b|--stdin\b)|\bpasswd\b[^\n|;&]*--stdin|\bchpasswd\b))/g,
    replace: hideValue('password'),
  },
  {
    name: 'here-string-password',
    needs: /<<</,
    // sudo -S cmd <<< secret; chpasswd <<< 'user:secret'; passwd --stdin user <<< secret
    pattern:
      /(\b(?:sudo\b[^\n|;&]*\s(?:-[A-Za-z]*S\b|--stdin\b)|chpasswd\b|passwd\b[^\n|;&]*--stdin)[^\n|;&]*<<<\s*)("[^"\n]*"|'[^'\n]*'|[^\s|;&]+)/g,
    replace: hideValue('password'),
  },
  optionRule('openssl-k', /openssl/, 'openssl', '-k\\s+'),
  optionRule('ssh-keygen-passphrase', /ssh-keygen/, 'ssh-keygen', '-[NP]\\s+'),
  optionRule('nmcli-password', /nmcli/, 'nmcli', '(?:password|wifi-sec\\.psk)\\s+'),
  optionRule('netrc-password', /machine/, 'machine\\s+\\S+\\s+login\\s+\\S+', 'password\\s+'),
  {
    name: 'htpasswd-batch',
    needs: /htpasswd/,
    // htpasswd -b[c] FILE USER PASSWORD: the password is the command's last word.
    pattern: /(\bhtpasswd\s+-[A-Za-z]*b[^\n|;&]*\s)("[^"\n]*"|'[^'\n]*'|[^\s"'`|;&]+)(?=[^\S\n]*(?:$|[\n|;&]))/gm,
    replace: hideValue('password'),
  },
  {
    name: 'user-percent-password',
    needs: /smbclient|rpcclient|-U/,
    // smbclient -U admin%secret
    pattern: /(\b(?:smbclient|rpcclient|smbmap|net)\b[^\n|;&]*?\s-U\s*["']?[^\s%"']+%)([^\s"']+)/g,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${mark('password')}`),
  },
  {
    name: 'sqlplus-login',
    needs: /sqlplus/,
    // sqlplus scott/secret@orcl
    pattern: /(\bsqlplus\s+(?:-\S+\s+)*["']?[A-Za-z0-9_$#]+\/)([^\s@"'/]+)/g,
    replace: (m, prefix: string, value: string) => (isReference(value) ? m : `${prefix}${mark('password')}`),
  },
  {
    name: 'sql-password',
    needs: /password|identified/i,
    // CREATE/ALTER USER ... WITH PASSWORD 'x' / IDENTIFIED BY 'x'; CREATE ROLE ... PASSWORD 'x'; SET PASSWORD FOR u = 'x'
    pattern: /(\b(?:(?:with\s+)?(?:encrypted\s+)?password|identified\s+by|set\s+password\s+for\s+\S+\s*=)\s*)('[^'\n]*'|"[^"\n]*")/gi,
    replace: hideValue('password'),
  },
  {
    name: 'user-password',
    needs: /--user|--proxy-user|curl/,
    // curl -u user:password, --user user:password, --proxy-user: keep the user, hide the password.
    pattern: /((?:\bcurl\b[^\n|;&]*?\s-u|\s--(?:proxy-)?user)(?:\s+|=)["']?)([^\s:"'@]+):([^\s"']+)/g,
    replace: (m, prefix: string, user: string, password: string) =>
      isReference(password) || /^\d+$/.test(password) ? m : `${prefix}${user}:${mark('password')}`,
  },
  {
    name: 'config-set',
    needs: /config/,
    // aws configure set aws_secret_access_key V, npm config set //host/:_authToken V, git config x.token V
    pattern: /(\b(?:(?:configure|config)\s+set|git\s+config)\b)([^\n|;&]+)/g,
    replace: (_m, command: string, args: string) => `${command}${hideSettingValue(args)}`,
  },
];

/** The flag names that carry a secret (--password, --api-key, --token=, --pass, -storepass). */
const SECRET_FLAG = `(?<![\\w-])--?(?:[A-Za-z0-9-]*${SECRET_WORD}[A-Za-z0-9-]*|(?:[A-Za-z0-9-]*-)?(?:pw|pass|(?:src|dest|new)?(?:store|key)pass)(?![A-Za-z0-9-]))`;

/** `password: string` in a type annotation: a short lower-case word after a colon, not a value. */
const isTypeAnnotation = (sep: string, value: string): boolean => sep.trim() === ':' && /^[a-z]+[?]?$/.test(value) && value.length < 12;

/**
 * Code rather than a value: a call, a field of an object (opts.Token, process.env.KEY), or
 * what `go test` prints (`--- PASS: TestName`).
 */
const looksLikeCode = (value: string): boolean =>
  value.includes('(') || /^&?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value) || looksLikePath(value);

/** `--- PASS: TestName` is what test runners print, not a password. */
const isTestVerdict = (name: string, sep: string): boolean => /^(?:PASS|FAIL)$/.test(name) && sep.trim() === ':';

/**
 * A name that may hold a secret; the rules then ask isSecretName. Trying the whole list of
 * secret words at every letter would cost far more.
 */
const ANY_NAME = `(?<![A-Za-z0-9_.-])${NAME_HINT}[A-Za-z0-9_.-]+`;

const NAMES: Rule[] = [
  {
    name: 'secret-flag',
    needs: NAME_HINT_RE,
    pattern: new RegExp(`(${SECRET_FLAG})(=|\\s+)${VALUE}`, 'gi'),
    replace: (m, flag: string, sep: string, value: string) =>
      !isSecretName(flag) || isReference(value) || value.startsWith('-') ? m : `${flag}${sep}${quoteAware(value, 'secret')}`,
  },
  {
    name: 'assignment',
    needs: NAME_HINT_RE,
    // PASSWORD=xyz, "apiKey": "xyz", secret: xyz, token => 'xyz', {"pw": "xyz"}, and JSON inside a string: {\"pw\": \"xyz\"}
    pattern: new RegExp(
      `((?:^|[^A-Za-z0-9])\\\\?["']?(${ANY_NAME})\\\\?["']?)([^\\S\\n]*(?:=>|:=|=|:)[^\\S\\n]*)(${ESCAPED_QUOTED}|"[^"\\n]*"|'[^'\\n]*'|[^\\s"'\`,;&|)}\\]{[(\\\\][^\\s"'\`,;&|)}\\]\\\\]*)`,
      'gi',
    ),
    replace: (m, key: string, name: string, sep: string, value: string) => {
      if (!isSecretName(name) || isTestVerdict(name, sep) || isReference(value) || looksLikeCode(value) || isTypeAnnotation(sep, value))
        return m;
      return `${key}${sep}${quoteAware(value, 'secret')}`;
    },
  },
  {
    name: 'secret-near-name',
    needs: NAME_HINT_RE,
    // A generated-looking value right after a secret's name: aws_secret_access_key wJalr..., "token abc123...".
    pattern: new RegExp(`((${ANY_NAME})["']?\\s+(?:(?:is|was|=|:)\\s+)?["']?)([A-Za-z0-9+/=_.~-]{16,})`, 'gi'),
    replace: (m, prefix: string, name: string, value: string) =>
      isSecretName(name) && looksLikeSecretValue(value) ? `${prefix}${mark('secret')}` : m,
  },
];

/** The words people use for a secret in a sentence. */
const PROSE_SECRET =
  '(?:pass(?:word|wd|wort|phrase|code)|mot de passe|contrase[ñn]a|pw|pin|secret|token|api[ _-]?key|access[ _-]?key|credentials?)';
const PROSE_VALUE = '("[^"\\n]*"|\'[^\'\\n]*\'|`[^`\\n]*`|[^\\s"\'`]+)';

const PROSE: Rule[] = [
  {
    name: 'prose',
    needs: /pass|pw|pin|secret|token|key|credential|mot de|contrase/i,
    // "my password is X", "the token was X", "password is: X", "my token X", "use password X",
    // "Passwort ist X", "mot de passe: X", a sentence that starts with the word: "Password X may be wrong",
    // and a bare password word, as a tool's error prints it: "error: password X rejected" (not a bare
    // "token" or "key": a count or a name follows those).
    pattern: new RegExp(
      `(\\b(?:(?:my|our|your|the|use|using|with|try)\\s+${PROSE_SECRET}(?:\\s+(?:is|was|ist|est|es))?|${PROSE_SECRET}\\s+(?:is|was|ist|est|es)|${PROSE_SECRET}\\s*:|(?:^|[.!?]\\s+)${PROSE_SECRET}|pass(?:word|wd|phrase))\\s*:?\\s+)${PROSE_VALUE}`,
      'gim',
    ),
    replace: (m, prefix: string, value: string) => (looksLikeWrittenSecret(value) ? `${prefix}${quoteAware(value, 'secret')}` : m),
  },
];

/** Every rule, in order: shapes first (they know the exact extent), then context, then prose. */
export const RULES: readonly Rule[] = [...SHAPES, ...HEADERS, ...COMMANDS, ...NAMES, ...PROSE];
