import { describe, expect, it } from 'vitest';
import { REDACT_SCAN_LIMIT, entropy, looksLikeRandomSecret, mentionsEnvFile, redact, redactDeep, redactEnvAssignments } from './redact.js';

// Test secrets are assembled from pieces so the source never holds one verbatim.
const join = (...parts: string[]): string => parts.join('');
const AWS = join('AKIA', 'IOSFODNN7', 'EXAMPLE');
const GH = join('ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8');
const OPENAI = join('sk-', 'proj-', 'Zq8xV2mN4bT6yU1wE3rA5sD7fG9hJ0kL');
const ANTHROPIC = join('sk-ant-', 'api03-', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345');
const STRIPE = join('sk_live_', '4eC39HqLyjWDarjtT1zdp7dc');
const SLACK = join('xoxb-', '123456789012-', '1234567890123-', 'AbCdEfGhIjKlMnOpQrStUvWx');
const GOOGLE = join('AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q');
const JWT = join(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.',
  'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ',
  '.',
  'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
);
const PEM = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA7Vx9q', 'zD3f0aB1c2', '-----END RSA PRIVATE KEY-----'].join('\n');

function expectHidden(text: string, secret: string): string {
  const out = redact(text);
  expect(out).not.toContain(secret);
  expect(out).toContain('[REDACTED');
  return out;
}

describe('redact: known token formats', () => {
  it.each([
    ['AWS access key', `aws configure set aws_access_key_id ${AWS}`, AWS],
    ['GitHub token', `git clone https://${GH}@github.com/o/r.git`, GH],
    ['OpenAI key', `curl api.openai.com -d x ${OPENAI}`, OPENAI],
    ['Anthropic key', `claude --key ${ANTHROPIC}`, ANTHROPIC],
    ['Stripe key', `stripe login ${STRIPE}`, STRIPE],
    ['Slack bot token', `post ${SLACK} message`, SLACK],
    ['Google API key', `maps?key=${GOOGLE}`, GOOGLE],
    ['JWT', `curl -d '{"jwt":"${JWT}"}' localhost`, JWT],
  ])('hides a %s', (_name, text, secret) => {
    expectHidden(text, secret);
  });

  it('hides a whole PEM private key, and a cut one up to the end', () => {
    expect(redact(`key:\n${PEM}\nafter`)).toBe('key:\n[REDACTED:private-key]\nafter');
    const cut = PEM.slice(0, 50);
    expect(redact(`before ${cut}`)).toBe('before [REDACTED:private-key]');
  });
});

describe('redact: headers, connection strings, assignments', () => {
  it('hides Authorization header values but keeps the scheme', () => {
    const out = redact(`curl -H "Authorization: Bearer abcdefghijklmnop123" https://x`);
    expect(out).toBe('curl -H "Authorization: Bearer [REDACTED:authorization]" https://x');
    expect(redact('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe('Authorization: Basic [REDACTED:authorization]');
    expect(redact('x-api-key: 0123456789abcdef')).toBe('x-api-key: [REDACTED:authorization]');
  });

  it('hides a bare bearer token', () => {
    expect(redact('token is Bearer abc.def-ghi_jkl012')).toContain('Bearer [REDACTED:token]');
  });

  it('hides the password of a connection string, keeping user and host', () => {
    expect(redact('psql postgres://admin:s3cr3t-pw@db.internal:5432/app')).toBe(
      'psql postgres://admin:[REDACTED:password]@db.internal:5432/app',
    );
    expect(redact('mongodb+srv://u:p%40ss@cluster0.mongodb.net')).toBe('mongodb+srv://u:[REDACTED:password]@cluster0.mongodb.net');
  });

  it('hides values of secret-named assignments and flags', () => {
    expect(redact('DB_PASSWORD=hunter2 npm start')).toBe('DB_PASSWORD=[REDACTED:secret] npm start');
    expect(redact('export GITHUB_TOKEN="abc123def"')).toBe('export GITHUB_TOKEN="[REDACTED:secret]"');
    expect(redact('{"apiKey": "k-123-456", "name": "x"}')).toBe('{"apiKey": "[REDACTED:secret]", "name": "x"}');
    expect(redact('mytool --password hunter2 --verbose')).toBe('mytool --password [REDACTED:secret] --verbose');
    expect(redact("mytool --api-key='abc 123'")).toBe("mytool --api-key='[REDACTED:secret]'");
    expect(redact('mysql -u root -phunter2 app')).toBe('mysql -u root -p[REDACTED:password] app');
    expect(redact('https://api.example.com/v1?access_token=abcdef123&page=2')).toBe(
      'https://api.example.com/v1?access_token=[REDACTED:secret]&page=2',
    );
  });

  it('keeps references, placeholders, types and counts', () => {
    for (const text of [
      'DB_PASSWORD=$DB_PASSWORD make deploy',
      'TOKEN=${TOKEN} ./run',
      'password: string;',
      'token := getToken(ctx)',
      'max_tokens=100',
      'secret=<your-secret>',
      'git commit -m "rotate the api key handling"',
    ]) {
      expect(redact(text)).toBe(text);
    }
  });
});

describe('redact: .env files', () => {
  it('detects dotenv references', () => {
    expect(mentionsEnvFile('cat .env')).toBe(true);
    expect(mentionsEnvFile('source ./config/.env.local && run')).toBe(true);
    expect(mentionsEnvFile('cp prod.env /tmp')).toBe(true);
    expect(mentionsEnvFile('console.log(process.env.HOME)')).toBe(false);
    expect(mentionsEnvFile('vim environment.ts')).toBe(false);
  });

  it('hides every value written to or read from a .env file, whatever the key', () => {
    const out = redact('echo "DATABASE_URL=postgres://localhost/app" >> .env && echo PLAIN=value >> .env');
    expect(out).not.toContain('postgres://localhost/app');
    expect(out).not.toContain('PLAIN=value');
    expect(out).toContain('DATABASE_URL=[REDACTED:env]');
  });

  it('redactEnvAssignments keeps comments and references', () => {
    expect(redactEnvAssignments('# comment\nA=1\nB=$A\nexport C="x y"')).toBe(
      '# comment\nA=[REDACTED:env]\nB=$A\nexport C="[REDACTED:env]"',
    );
  });
});

describe('redact: high-entropy strings', () => {
  it('hides random-looking tokens but keeps hashes, paths and identifiers', () => {
    const random = join('Qm9vbGVhbkV4cHJlc3Npb24', 'x7Kp2Lz9Wq4Rt8Yu');
    expect(looksLikeRandomSecret(random)).toBe(true);
    expect(redact(`use ${random} now`)).toBe('use [REDACTED:high-entropy] now');
    expect(looksLikeRandomSecret('e53647ba1f1e5203bedff558b482f178db045555')).toBe(false);
    expect(looksLikeRandomSecret('TestCalculateAttributionWithAccumulatedLines')).toBe(false);
    expect(redact('cmd/entire/cli/strategy/manual_commit_condensation_test.go')).toBe(
      'cmd/entire/cli/strategy/manual_commit_condensation_test.go',
    );
  });

  it('computes entropy in bits per character', () => {
    expect(entropy('')).toBe(0);
    expect(entropy('aaaa')).toBe(0);
    expect(entropy('abcd')).toBeCloseTo(2);
  });
});

describe('redact: properties', () => {
  const samples = [
    `curl -H "Authorization: Bearer ${OPENAI}" https://x`,
    `PASSWORD=${GH} ./deploy`,
    `postgres://me:${STRIPE}@h/db`,
    PEM,
    `cat .env && API=${AWS}`,
    'plain text with nothing secret',
  ];

  it('is idempotent', () => {
    for (const s of samples) expect(redact(redact(s))).toBe(redact(s));
  });

  it('returns empty and short text unchanged', () => {
    expect(redact('')).toBe('');
    expect(redact('ls -la')).toBe('ls -la');
  });

  it('never keeps text beyond the scan limit unscanned', () => {
    const long = `${'x'.repeat(REDACT_SCAN_LIMIT)} ${AWS}`;
    const out = redact(long);
    expect(out.length).toBe(REDACT_SCAN_LIMIT);
    expect(out).not.toContain(AWS);
  });

  it('redactDeep walks objects and arrays', () => {
    const out = redactDeep({ a: [`token=${GH}`], b: { c: AWS }, n: 3, z: null });
    expect(JSON.stringify(out)).not.toContain(GH);
    expect(JSON.stringify(out)).not.toContain(AWS);
    expect(out.n).toBe(3);
    expect(out.z).toBeNull();
  });
});

describe('redact: quoted header values', () => {
  it('hides a quoted header value entirely', () => {
    expect(redact(`{"Authorization": "Bearer abc def 123"}`)).toBe('{"Authorization": "Bearer [REDACTED:authorization]"}');
    expect(redact(`x-api-key='abc 123'`)).toBe(`x-api-key='[REDACTED:authorization]'`);
  });
});
