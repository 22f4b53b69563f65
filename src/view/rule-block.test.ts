import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { editedByHand, filesHolding, injectBlock, markedBlock } from './rule-block.js';
import { MARKER_END, MARKER_START, type Rule, renderClaudeMd, sortRules } from './rules.js';

const rule = (pattern: string, evidence: number, level_rank: number, explain: string): Rule => ({
  pattern,
  category: 'preference',
  evidence,
  level_rank,
  explain,
});
const RULES = sortRules([rule('pref:pkg=pnpm', 15, 3, 'use pnpm, never npm'), rule('pref:lint=eslint', 12, 2, 'lint with eslint')]);

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

describe('injecting into CLAUDE.md', () => {
  it('keeps every byte outside the block of a file that is not UTF-8 (Latin-1), writing the block as UTF-8', () => {
    const target = join(dir.path, 'latin.md');
    const before = Buffer.from('Notes: caf\xe9 na\xefve\n', 'latin1');
    const after = Buffer.from('\nFin \xe0 la ligne \xa9\n', 'latin1');
    writeFileSync(target, Buffer.concat([before, Buffer.from(`${MARKER_START}\n${MARKER_END}\n`), after]));
    const rules = sortRules([rule('pref:naming=café', 15, 3, 'name it café, not cafe')]);
    expect(injectBlock(target, renderClaudeMd(rules), 1).changed).toBe(true);
    const written = readFileSync(target);
    const block = Buffer.from(markedBlock(renderClaudeMd(rules).trimEnd()), 'utf8');
    expect(written).toEqual(Buffer.concat([before, block, Buffer.from('\n'), after]));
    // The block it wrote is read back as its own (not as edited by hand), and taken out byte for byte.
    expect(injectBlock(target, renderClaudeMd(rules), 1).changed).toBe(false);
    expect(injectBlock(target, '', 0, { known: () => true })).toMatchObject({ changed: true, removed: true });
    expect(readFileSync(target)).toEqual(Buffer.from('Notes: caf\xe9 na\xefve\n\nFin \xe0 la ligne \xa9\n\n', 'latin1'));
  });

  it('creates the file with markers, then changes only the marked block, idempotently', () => {
    const target = join(dir.path, 'CLAUDE.md');
    const lines = renderClaudeMd(RULES)
      .split('\n')
      .filter((l) => l.startsWith('- ')).length;
    expect(injectBlock(target, renderClaudeMd(RULES), 2)).toEqual({ target, rule_count: 2, lines, changed: true });
    expect(readFileSync(target, 'utf8')).toBe(`${markedBlock(renderClaudeMd(RULES).trimEnd())}\n`);
    expect(injectBlock(target, renderClaudeMd(RULES), 2).changed).toBe(false);

    writeFileSync(target, `# Project\n\nHand-written notes.\n\n${MARKER_START}\nold\n${MARKER_END}\n\n## Footer\n`);
    expect(injectBlock(target, renderClaudeMd(RULES.slice(0, 1)), 1).changed).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(
      `# Project\n\nHand-written notes.\n\n${markedBlock(renderClaudeMd(RULES.slice(0, 1)).trimEnd())}\n\n## Footer\n`,
    );
    expect(injectBlock(target, renderClaudeMd(RULES.slice(0, 1)), 1).changed).toBe(false);
  });

  it('appends the block to a file without markers and refuses a lone marker', () => {
    const target = join(dir.path, 'CLAUDE.md');
    writeFileSync(target, '# Notes\n');
    injectBlock(target, '- `seq:a` [sequence] (10)\n', 1);
    expect(readFileSync(target, 'utf8')).toBe(`# Notes\n\n${markedBlock('- `seq:a` [sequence] (10)')}\n`);
    writeFileSync(target, `# Notes\n${MARKER_START}\n`);
    expect(() => injectBlock(target, 'x', 0)).toThrow(/unmatched instinct marker/);
    expect(readFileSync(target, 'utf8')).toBe(`# Notes\n${MARKER_START}\n`);
  });

  it('refuses a file with two blocks (each rule would be read twice), and gives a new .mdc rule the front matter Cursor needs', () => {
    const target = join(dir.path, 'CLAUDE.md');
    const two = `${MARKER_START}\nold\n${MARKER_END}\n\n${MARKER_START}\nolder\n${MARKER_END}\n`;
    writeFileSync(target, two);
    expect(() => injectBlock(target, renderClaudeMd(RULES), 2)).toThrow(/more than one instinct block/);
    expect(readFileSync(target, 'utf8')).toBe(two);
    const mdc = join(dir.path, 'homunculus.mdc');
    injectBlock(mdc, renderClaudeMd(RULES), 2);
    expect(readFileSync(mdc, 'utf8')).toMatch(/^---\ndescription: .+\nalwaysApply: true\n---\n\n<!-- instinct:start -->/);
    expect(injectBlock(mdc, renderClaudeMd(RULES), 2).changed).toBe(false);
  });

  it("leaves out the block's own title when the file has words of its own", () => {
    const target = join(dir.path, 'AGENTS.md');
    const block = '# AGENTS.md\n\n## Learned rules\n\n- one\n';
    injectBlock(target, block, 1);
    expect(readFileSync(target, 'utf8')).toBe(`${markedBlock(block.trimEnd())}\n`);
    writeFileSync(target, '# AGENTS.md\n\nOur notes.\n');
    injectBlock(target, block, 1);
    expect(readFileSync(target, 'utf8')).toBe(`# AGENTS.md\n\nOur notes.\n\n${markedBlock('## Learned rules\n\n- one')}\n`);
    expect(injectBlock(target, block, 1).changed).toBe(false);
    // The AGENTS.md format injected into a CLAUDE.md of the user's: no "# AGENTS.md" in it either.
    const claude = join(dir.path, 'CLAUDE.md');
    writeFileSync(claude, '# My Project\n');
    injectBlock(claude, block, 1);
    expect(readFileSync(claude, 'utf8')).not.toContain('# AGENTS.md');
    // Nor in a new GEMINI.md.
    const gemini = join(dir.path, 'GEMINI.md');
    injectBlock(gemini, block, 1);
    expect(readFileSync(gemini, 'utf8')).toBe(`${markedBlock('## Learned rules\n\n- one')}\n`);
  });

  it('refuses a read-only file with the fix, and keeps a CRLF file CRLF, idempotently', () => {
    const target = join(dir.path, 'CLAUDE.md');
    writeFileSync(target, '# Mine\n');
    chmodSync(target, 0o444);
    expect(() => injectBlock(target, '- one\n', 1)).toThrow(
      expect.objectContaining({ message: `${target} is read-only.`, hint: expect.stringMatching(/chmod u\+w/), exitCode: 1 }),
    );
    expect(readFileSync(target, 'utf8')).toBe('# Mine\n');
    expect(statSync(target).mode & 0o777).toBe(0o444);

    const crlf = join(dir.path, 'AGENTS.md');
    writeFileSync(crlf, '# Ours\r\nLast line\r\n');
    expect(injectBlock(crlf, '- one\n', 1).changed).toBe(true);
    expect(readFileSync(crlf, 'utf8')).toBe(`# Ours\r\nLast line\r\n\r\n${markedBlock('- one').replace(/\n/g, '\r\n')}\r\n`);
    expect(injectBlock(crlf, '- one\n', 1).changed).toBe(false);
    // A file that mixes keeps the user's lines as they were.
    const mixed = join(dir.path, 'GEMINI.md');
    writeFileSync(mixed, '# Ours\r\nsecond\nthird\n');
    injectBlock(mixed, '- one\n', 1);
    expect(readFileSync(mixed, 'utf8')).toBe(`# Ours\r\nsecond\nthird\n\n${markedBlock('- one')}\n`);
    // A folder that is not there is not made.
    expect(() => injectBlock(join(dir.path, 'nope', 'CLAUDE.md'), '- one\n', 1)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/The folder of .*nope\/CLAUDE\.md does not exist/), exitCode: 1 }),
    );
    expect(existsSync(join(dir.path, 'nope'))).toBe(false);
  });

  it('with no rule to write, takes out only a block of rules this store learned and took back', () => {
    const target = join(dir.path, 'CLAUDE.md');
    writeFileSync(target, '# Project\n\nOur words.\n');
    injectBlock(target, renderClaudeMd(RULES), 2);
    const before = readFileSync(target, 'utf8');
    // Rules this store never learned (a teammate's committed block, a fresh store): left as they are.
    const unknown = injectBlock(target, '', 0, { known: (k) => k === 'pref:pkg=pnpm' });
    expect(unknown).toEqual({ target, rule_count: 0, lines: 0, changed: false, kept: 'unknown' });
    expect(readFileSync(target, 'utf8')).toBe(before);
    // Every rule of the block learned here and taken back: the block goes, the file's own words stay.
    expect(injectBlock(target, '', 0, { known: () => true })).toMatchObject({ changed: true, removed: true });
    expect(readFileSync(target, 'utf8')).toBe('# Project\n\nOur words.\n');
    expect(injectBlock(target, '', 0, { known: () => true }).changed).toBe(false);
    expect(injectBlock(join(dir.path, 'NEW.md'), '', 0).changed).toBe(false);
    expect(existsSync(join(dir.path, 'NEW.md'))).toBe(false);
  });

  it('with no rule to write, keeps a block edited by hand unless forced', () => {
    const target = join(dir.path, 'CLAUDE.md');
    injectBlock(target, renderClaudeMd(RULES), 2);
    writeFileSync(target, readFileSync(target, 'utf8').replace('lint with eslint', 'lint with eslint --fix'));
    expect(injectBlock(target, '', 0, { known: () => true })).toMatchObject({ changed: false, kept: 'edited' });
    expect(injectBlock(target, '', 0, { known: () => false, force: true })).toMatchObject({ changed: true, removed: true });
    expect(readFileSync(target, 'utf8')).toBe('');
  });
});

describe('a block edited by hand', () => {
  it('is refused with the fix, the file untouched, and replaced only when forced', () => {
    const target = join(dir.path, 'CLAUDE.md');
    injectBlock(target, renderClaudeMd(RULES), 2);
    const written = readFileSync(target, 'utf8');
    expect(written).toMatch(/<!-- written by homunculus \([0-9a-f]{12}\); edits here are replaced/);
    // The user rewords a rule and adds a line of their own inside the markers.
    const edited = written.replace('use pnpm, never npm', 'use pnpm 9, never npm').replace(MARKER_END, `- my own rule\n${MARKER_END}`);
    writeFileSync(target, edited);
    expect(() => injectBlock(target, renderClaudeMd(RULES.slice(0, 1)), 1)).toThrow(
      expect.objectContaining({
        message: `The learned block of ${target} was edited by hand since Homunculus wrote it; writing it again would lose those edits.`,
        hint: expect.stringMatching(/Move lines of your own outside .*homunculus edit <key>.*--force/),
      }),
    );
    expect(readFileSync(target, 'utf8')).toBe(edited);
    expect(injectBlock(target, renderClaudeMd(RULES.slice(0, 1)), 1, { force: true }).changed).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(`${markedBlock(renderClaudeMd(RULES.slice(0, 1)).trimEnd())}\n`);
  });

  it('is told apart from one only re-saved with other line ends, or written before blocks carried a digest', () => {
    const body = renderClaudeMd(RULES).trimEnd();
    const inner = markedBlock(body).slice(MARKER_START.length, -MARKER_END.length);
    expect(editedByHand(inner)).toBe(false);
    expect(editedByHand(inner.replace(/\n/g, '\r\n'))).toBe(false);
    expect(editedByHand(inner.replace('eslint', 'biome'))).toBe(true);
    expect(editedByHand(`\n${body}\n- mine\n`)).toBe(false);
  });
});

// chattr +i needs root and a file system that keeps the flag; elsewhere there is nothing to test.
const canMakeImmutable = (() => {
  const probe = tempDir();
  try {
    writeFileSync(join(probe.path, 'probe'), '');
    execFileSync('chattr', ['+i', join(probe.path, 'probe')], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', join(probe.path, 'probe')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    probe.cleanup();
  }
})();

describe('an immutable file', () => {
  it.runIf(canMakeImmutable)('is refused saying chmod does not help, and how to lift the flag', () => {
    const target = join(dir.path, 'CLAUDE.md');
    writeFileSync(target, '# Mine\n');
    execFileSync('chattr', ['+i', target]);
    try {
      expect(() => injectBlock(target, '- one\n', 1)).toThrow(
        expect.objectContaining({
          message: `${target} is immutable (EPERM): no one may write it, root included, and chmod does not change that.`,
          hint: expect.stringContaining(`sudo chattr -i "${target}"`),
          exitCode: 1,
        }),
      );
    } finally {
      execFileSync('chattr', ['-i', target]);
    }
    expect(readFileSync(target, 'utf8')).toBe('# Mine\n');
  });
});

describe('the files still holding a rule', () => {
  it("names every file of the root export-rules --inject can write, not only the agents' own", () => {
    for (const file of ['CLAUDE.md', '.windsurfrules', '.cursorrules', 'SKILL.md', 'notes.txt', '.cursor/rules/homunculus.mdc']) {
      mkdirSync(join(dir.path, file, '..'), { recursive: true });
      injectBlock(join(dir.path, file), renderClaudeMd(RULES), 2);
    }
    writeFileSync(join(dir.path, 'README.md'), '# Shop\n\nUse pnpm: `pref:pkg=pnpm`.\n');
    writeFileSync(join(dir.path, 'script.sh'), markedBlock('<!-- `pref:pkg=pnpm` -->'));
    expect(filesHolding(dir.path, 'pref:pkg=pnpm')).toEqual([
      'CLAUDE.md',
      '.cursorrules',
      '.cursor/rules/homunculus.mdc',
      '.windsurfrules',
      'SKILL.md',
      'notes.txt',
    ]);
    expect(filesHolding(dir.path, 'pref:never=seen')).toEqual([]);
    expect(filesHolding('', 'pref:pkg=pnpm')).toEqual([]);
  });
});
