import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { ensureDir, regularInput, writeFileAtomic, writeFileIfChanged } from './fs.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('homunculus-fs-')));
afterEach(() => dir.cleanup());

describe('ensureDir', () => {
  it('creates missing levels, and is a no-op on an existing directory', () => {
    const deep = join(dir.path, 'a', 'b', 'c');
    ensureDir(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    ensureDir(deep);
    writeFileAtomic(join(dir.path, 'x', 'y', 'f.txt'), 'hi');
    expect(existsSync(join(dir.path, 'x', 'y', 'f.txt'))).toBe(true);
  });

  it('fails once, with the fix, where a recursive mkdir would spin or mislead', () => {
    writeFileSync(join(dir.path, 'file'), '');
    expect(() => ensureDir(join(dir.path, 'file', 'sub'))).toThrow(/exists and is not a directory[\s\S]*/);
    // Node's recursive mkdir never returns below /proc; this returns at once.
    expect(() => ensureDir('/proc/nonexistent/home')).toThrow(/Cannot create the directory \/proc\/nonexistent\/home/);
  });
});

describe('writeFileAtomic', () => {
  it("keeps a file's mode, and every hard link's view of the new text", () => {
    const private_ = join(dir.path, 'CLAUDE.local.md');
    writeFileSync(private_, 'old');
    chmodSync(private_, 0o600);
    writeFileAtomic(private_, 'new');
    expect(statSync(private_).mode & 0o777).toBe(0o600);
    expect(readFileSync(private_, 'utf8')).toBe('new');

    const linked = join(dir.path, 'linked.md');
    linkSync(private_, linked);
    writeFileAtomic(private_, 'newer');
    expect(readFileSync(linked, 'utf8')).toBe('newer');
    expect(statSync(linked).nlink).toBe(2);
  });
});

describe('regularInput', () => {
  it('refuses a named pipe, a folder and a missing file, each with the fix, and gives a file its stat', () => {
    const fifo = join(dir.path, 'pipe.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => regularInput(fifo, 'Give a JSONL file.')).toThrow(
      `${fifo} is a named pipe (FIFO), not a regular file: reading it could wait forever.`,
    );
    expect(() => regularInput(dir.path, 'Give a JSONL file.')).toThrow(`${dir.path} is a folder, not a file.`);
    expect(() => regularInput(join(dir.path, 'nope'), 'Give a JSONL file.')).toThrow('No such file');
    writeFileSync(join(dir.path, 'f.jsonl'), '{}\n');
    expect(regularInput(join(dir.path, 'f.jsonl'), 'Give a JSONL file.').size).toBe(3);
  });
});

describe('writing over what is no regular file', () => {
  it('refuses a named pipe or a folder, and leaves it as it was', () => {
    const fifo = join(dir.path, 'out.tar.gz');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => writeFileAtomic(fifo, 'x')).toThrow(`Refusing to write ${fifo}: it is a named pipe (FIFO), not a regular file`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    mkdirSync(join(dir.path, 'folder'));
    expect(() => writeFileAtomic(join(dir.path, 'folder'), 'x')).toThrow(/it is a folder, not a regular file/);
  });

  it('refuses a named pipe when writing only what changed, without reading it first', () => {
    const fifo = join(dir.path, 'rules.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => writeFileIfChanged(fifo, 'x')).toThrow(/it is a named pipe \(FIFO\), not a regular file/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });
});
