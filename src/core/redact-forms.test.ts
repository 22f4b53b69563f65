import { describe, expect, it } from 'vitest';
import { redact, redactDeep } from './redact.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const join = (...parts: string[]): string => parts.join('');
const AWS_SECRET = join('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');
const AWS_ID = join('AKIA', 'IOSFODNN7', 'EXAMPLE');
const GHP = join('ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8');
const GHO = join('gho_', 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2');
const GH_PAT = join('github_pat_', '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz');
const SLACK = join('xoxb-', '123456789012-', '1234567890123-', 'AbCdEfGhIjKlMnOpQrStUvWx');
const STRIPE = join('sk_live_', '4eC39HqLyjWDarjtT1zdp7dc');
const OPENAI = join('sk-', 'proj-', 'Zq8xV2mN4bT6yU1wE3rA5sD7fG9hJ0kL');
const ANTHROPIC = join('sk-ant-', 'api03-', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345');
const JWT = join('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c');
const PEM = join('-----BEGIN OPENSSH PRIVATE KEY-----\n', 'b3BlbnNzaC1rZXktdjEAAAAA\n', '-----END OPENSSH PRIVATE KEY-----');
const RANDOM20 = join('q7Rk2LmX9', 'vT4pZ8nW3yB');
const PW = 'Hunter2-x9';

// Every form names the secret that must be gone from the redacted text.
// prettier-ignore
const SECRET_FORMS: [string, string, string][] = [
  ['aws configure set secret', `aws configure set aws_secret_access_key ${AWS_SECRET} && make deploy`, AWS_SECRET],
  ['aws configure set with a profile', `aws configure set --profile prod aws_session_token ${RANDOM20}`, RANDOM20],
  ['AWS access key id', `export AWS_ACCESS_KEY_ID=${AWS_ID}`, AWS_ID],
  ['docker login -p', `docker login -u me -p ${PW} registry.example.com`, PW],
  ['docker login --password', `docker login --username me --password ${PW}`, PW],
  ['podman login -p', `podman login -p ${PW} quay.io`, PW],
  ['az login -p', `az login -u me@example.com -p ${PW}`, PW],
  ['mysql -pPW', `mysql -u root -p${PW} app`, PW],
  ['mysql --password=', `mysql --password=${PW} app`, PW],
  ['sshpass -p', `sshpass -p ${PW} ssh deploy@host`, PW],
  ['sshpass -pPW', `sshpass -p${PW} scp f host:`, PW],
  ['mongosh -p', `mongosh --host db -u admin -p ${PW}`, PW],
  ['sqlcmd -P', `sqlcmd -S db -U sa -P ${PW} -Q "select 1"`, PW],
  ['ldapsearch -w', `ldapsearch -x -D cn=admin,dc=x -w ${PW} -b dc=x`, PW],
  ['keytool -storepass', `keytool -list -keystore k.jks -storepass ${PW}`, PW],
  ['redis-cli -a', `redis-cli -h cache -a ${PW} ping`, PW],
  ['redis url', `redis-cli -u redis://default:${PW}@cache:6379`, PW],
  ['curl -u user:pw', `curl -u admin:${PW} https://api.example.com`, PW],
  ['curl --user user:pw', `curl --user=admin:${PW} https://api.example.com`, PW],
  ['wget --password=', `wget --user=me --password=${PW} https://x/f`, PW],
  ['url credentials', `git clone https://me:${PW}@git.example.com/o/r.git`, PW],
  ['--token', `deploy --token ${RANDOM20} --env prod`, RANDOM20],
  ['--secret=', `tool --secret=${PW}`, PW],
  ['--api-key', `tool --api-key "${PW}"`, PW],
  ['--pass', `openvpn --pass ${PW}`, PW],
  ['password on stdin', `echo '${PW}' | docker login -u me --password-stdin`, PW],
  ['kubectl literal', `kubectl create secret generic app --from-literal=db=${PW}`, PW],
  ['gh secret set --body', `gh secret set DEPLOY_KEY --body ${PW}`, PW],
  ['zip -P', `zip -P ${PW} out.zip notes.txt`, PW],
  ['openssl pass:', `openssl enc -aes256 -in f -passin pass:${PW}`, PW],
  ['npm _authToken', `npm config set //registry.npmjs.org/:_authToken ${RANDOM20}`, RANDOM20],
  ['git config token', `git config --global github.token ${RANDOM20}`, RANDOM20],
  ['json pw', `{"user": "me", "pw": "${PW}"}`, PW],
  ['json password', `{"password":"${PW}"}`, PW],
  ['json auth', `{"auths": {"r.io": {"auth": "${RANDOM20}"}}}`, RANDOM20],
  ['json inside a command', `curl -d "{\\"user\\":\\"me\\",\\"password\\":\\"${PW}\\"}" https://x`, PW],
  ['json client secret', `{"client_secret": "${PW}"}`, PW],
  ['export token', `export GITHUB_TOKEN=${PW}`, PW],
  ['env prefix', `FOO_SECRET=${PW} ./run.sh`, PW],
  ['DB_PASS', `DB_PASS=${PW} npm start`, PW],
  ['ini password', `password = ${PW}`, PW],
  ['yaml password', `db:\n  password: ${PW}\n`, PW],
  ['yaml api key quoted', `api_key: "${PW}"`, PW],
  ['Authorization Bearer', `curl -H "Authorization: Bearer ${RANDOM20}" https://x`, RANDOM20],
  ['X-Api-Key header', `curl -H 'X-Api-Key: ${RANDOM20}' https://x`, RANDOM20],
  ['prose: password is', `the password is ${PW}`, PW],
  ['prose: my password is', 'my password is Sup3rS3cret!', 'Sup3rS3cret'],
  ['prose: password:', `password: ${PW}`, PW],
  ['prose: my token', `my token ${RANDOM20}`, RANDOM20],
  ['prose: quoted api key', `the api key is 'opensesame'`, 'opensesame'],
  ['token near its name', `aws_secret_access_key ${AWS_SECRET}`, AWS_SECRET],
  ['hex token near its name', 'token 3f2a9c41d7e05b6a8c9d0e1f2a3b4c5d6e7f8a9b', '3f2a9c41d7e05b6a8c9d0e1f2a3b4c5d6e7f8a9b'],
  ['GitHub ghp_', `git remote set-url origin https://${GHP}@github.com/o/r`, GHP],
  ['GitHub gho_', `gh auth login --with-token ${GHO}`, GHO],
  ['GitHub github_pat_', `GH=${GH_PAT}`, GH_PAT],
  ['token as a file name', `./${GHP}.sh --x`, GHP],
  ['Slack', `post ${SLACK}`, SLACK],
  ['Stripe', `stripe login ${STRIPE}`, STRIPE],
  ['OpenAI', `use ${OPENAI}`, OPENAI],
  ['Anthropic', `use ${ANTHROPIC}`, ANTHROPIC],
  ['JWT', `cookie jwt=${JWT}`, JWT],
  ['private key block', `key:\n${PEM}`, 'b3BlbnNzaC1rZXktdjEAAAAA'],
  ['sudo -S from echo', `echo "${PW}" | sudo -S systemctl restart nginx`, PW],
  ['passwd --stdin', `printf '${PW}\\n' | passwd --stdin alice`, PW],
  ['chpasswd', `echo 'root:${PW}' | chpasswd`, PW],
  ['htpasswd -b', `htpasswd -bc .htpasswd admin ${PW}`, PW],
  ['openssl -k', `openssl enc -aes-256-cbc -k ${PW} -in a -out b`, PW],
  ['ssh-keygen -N', `ssh-keygen -t ed25519 -N '${PW}' -f key`, PW],
  ['unrar -pPW', `unrar x -p${PW} a.rar`, PW],
  ['smbclient -U user%pw', `smbclient //host/share -U admin%${PW}`, PW],
  ['sqlplus user/pw@db', `sqlplus scott/${PW}@orcl`, PW],
  ['SQL WITH PASSWORD', `ALTER USER app WITH PASSWORD '${PW}';`, PW],
  ['SQL IDENTIFIED BY', `CREATE USER app IDENTIFIED BY "${PW}";`, PW],
  ['nmcli password', `nmcli dev wifi connect Home password ${PW}`, PW],
  ['.netrc line', `machine api.example.com login me password ${PW}`, PW],
  ['Vault token header', `curl -H "X-Vault-Token: ${PW}" https://vault`, PW],
  ['prose: use password', `use password ${PW} for the staging db`, PW],
  ['prose: sentence starting with it', `Password ${PW} may be wrong.`, PW],
  ['prose: German', `das Passwort ist ${PW}`, PW],
  ['prose: French', `le mot de passe: ${PW}`, PW],
  ['sudo -S from a here-string', `sudo -S systemctl restart nginx <<< ${PW}`, PW],
  ['sudo --stdin', `echo "${PW}" | sudo --stdin make install`, PW],
  ['printf with a format to sudo -S', `printf '%s\\n' '${PW}' | sudo -S make install`, PW],
  ['chpasswd from a here-string', `chpasswd <<< 'admin:${PW}'`, PW],
  ['SQL SET PASSWORD FOR', `mysql -e "SET PASSWORD FOR 'app'@'%' = '${PW}'"`, PW],
  ['SQL CREATE ROLE PASSWORD', `psql -c "CREATE ROLE app LOGIN PASSWORD '${PW}'"`, PW],
  ["a tool's error: password X", `error: password ${PW} rejected`, PW],
];

// Ordinary commands, code and prose that only look like secrets: kept as they are.
// prettier-ignore
const BENIGN: [string, string][] = [
  ['git checkout of a commit', 'git checkout 8bfa3412e53647ba1f1e5203bedff558b482f178'],
  ['git log of a short sha', 'git log --oneline 8bfa341..HEAD'],
  ['a path with token in it', 'cat src/auth/token.go internal/secrets/store_test.go'],
  ['docker run -p', 'docker run -p 8080:80 -u 1000:1000 nginx'],
  ['psql -p port', 'psql -p 5432 -h localhost app'],
  ['unzip -p', 'unzip -p archive.zip notes.txt'],
  ['mysql prompting for the password', 'mysql -u root -p app'],
  ['go test run', 'go test ./... -run TestCalculateTokenUsage_ClaudeCode'],
  ['test verdict', '--- PASS: TestNewCheckpointID (0.00s)'],
  ['struct literal', 'TokenUsage: opts.TokenUsage, APIKey: cfg.APIKey,'],
  ['type annotation', 'password: string;'],
  ['plain prose', 'the password is wrong, and the token expired'],
  ['counts and lengths', 'max_tokens=100 TOKEN_TTL=3600 password_min_length: 12'],
  ['names of secrets', '--token-file ~/.tok --secret-name prod-db'],
  ['password on stdin from a variable', 'echo $TOKEN | docker login -u me --password-stdin'],
  ['a function call', 'token := getToken(ctx)'],
  ['a CI expression', 'github_token: ${{ secrets.GITHUB_TOKEN }}'],
  ['a command substitution', 'export GH_TOKEN="$(gh auth token)"'],
  ['variables as credentials', 'curl -u $USER:$PASS https://x'],
  ['a branch name', 'git push origin fix/gemini-token-usage-metadata-json'],
  ['two-pass', 'Two-Pass Processing: pass 1 runs all condensation'],
  ['the working directory', 'PWD=/home/me make build'],
  ['agent ids', 'srvtoolu_019kRbzovhgKUsT4XBF6HPJU toolu_01TDF99KTM3DvDn6N3pHKFJw'],
  ['placeholders', 'API_KEY=your_api_key secret=<your-secret> GH_TOKEN="github_pat_xxxx"'],
  ['tokenizer', 'tokenizer: cl100k_base'],
  ['credential helper', 'git config --global credential.helper store'],
  ['aws region', 'aws configure set region us-east-1'],
  ['a uuid and a digest', 'session 0240bd7a-75c0-4610-8e14-089e984d6001 sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['a Go test temp dir', '/tmp/TestHookLogging_WritesToSessionLogFile1442037719/001/.entire/logs'],
  ['bearer in prose', 'the API uses Bearer tokens'],
  ['npm flags', 'npm install --save-dev jest --passWithNoTests'],
  ['sudo -S reading a variable', 'echo "$PASS" | sudo -S apt-get update'],
  ['prose about a password', 'Password reset is broken. Use password managers, and pin the versions.'],
  ['ssh-keygen without a passphrase', "ssh-keygen -t ed25519 -N '' -f key"],
  ["a tool's error about a password", 'psql: error: password authentication failed for user admin; password for user app:'],
];

describe('redact: every secret form is hidden', () => {
  it.each(SECRET_FORMS)('%s', (_name, text, secret) => {
    const out = redact(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED');
    expect(redact(out)).toBe(out);
  });
});

describe('redact: look-alikes are kept', () => {
  it.each(BENIGN)('%s', (_name, text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('redactDeep: a secret named by its key', () => {
  it('hides the value of a secret-named field whatever it looks like', () => {
    const out = redactDeep({ user: 'me', pw: 'plainword', nested: { apiKey: 'k', tokens: 'many' } });
    expect(out).toEqual({ user: 'me', pw: '[REDACTED:secret]', nested: { apiKey: '[REDACTED:secret]', tokens: 'many' } });
  });

  it('keeps references and numbers under secret names', () => {
    expect(redactDeep({ password: '${DB_PASSWORD}', token_count: 3 })).toEqual({ password: '${DB_PASSWORD}', token_count: 3 });
  });
});
