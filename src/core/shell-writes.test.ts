import { describe, expect, it } from 'vitest';
import { shellWrittenFiles } from './shell-writes.js';

/**
 * Each line: a command line, then after " => " the files it writes ("" for none). A `\n` in a
 * command is a newline (a heredoc).
 */
const WRITES: Record<string, string> = {
  'names the targets of output redirections and tee, once each': `
    echo hello > out.txt => out.txt
    echo hello>out.txt && date >> log.txt => out.txt, log.txt
    make >| build.log; make &> all.log; make &>> all.log => build.log, all.log
    npm test 2> err.log => err.log
    echo x > "my notes.md" => my notes.md
    npm test | tee -a test.log report.txt | grep FAIL => test.log, report.txt
    echo key | sudo tee /etc/app.conf > /dev/null => /etc/app.conf`,
  'names no descriptor, device, expansion, process substitution, nor a name redacted or cut before it was stored': `
    npm test 2>&1 =>
    echo oops >&2; exec 3>&- =>
    make > /dev/null 2>&1 =>
    echo x > "$OUT"; echo y > ~/x; echo z > *.log; echo w > \`f\` =>
    diff a b > >(tee d) =>
    echo x > out-[REDACTED].txt; echo y > cut.t… =>`,
  'reads no > inside quotes, escaped, or comparing in a test or arithmetic': `
    echo "a > b"; echo 'c >> d'; git log --format='%h > %s' =>
    echo a \\> b =>
    if [[ $a > b ]]; then echo ok; fi; (( n > 3 )) && echo $((n > 2)) =>
    cat < in.txt; exec 3<> rw.txt =>`,
  'takes a heredoc marker for no file and reads no body as commands, a cut one included': `
    cat <<'EOF' > notes.md\\na > b\\nline >> c\\nEOF => notes.md
    cat > out.md <<EOF\\n<div>x</div> > y\\nEOF\\necho done > done.txt => out.md, done.txt
    cat <<EOF > first.md\\na > b\\nmore > c => first.md`,
  'leaves out what writes where its arguments say (cp, mv) and what writes nothing': `
    cp a.txt b.txt && mv c d =>
    npm test =>`,
};

const cases = (table: string): [string, string[]][] =>
  table
    .trim()
    .split('\n')
    .map((line) => {
      const [command = '', files = ''] = line.trim().split(/ =>(?: |$)/);
      return [command.replaceAll('\\n', '\n'), files ? files.split(', ') : []];
    });

describe('shellWrittenFiles', () => {
  for (const [title, table] of Object.entries(WRITES)) {
    it(title, () => {
      for (const [line, files] of cases(table)) expect(shellWrittenFiles(line), line).toEqual(files);
    });
  }
  it('gives nothing for an empty line', () => expect(shellWrittenFiles('')).toEqual([]));
});
