import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { TarLimitError, type TarLimits, readTarEntry } from './tar-entry.js';

const LIMITS: TarLimits = { maxFileBytes: 1 << 20, maxEntryBytes: 4096, maxTotalBytes: 16_384, maxEntries: 10 };

/** A tar of the given entries; `claim` makes a header state a size other than the bytes that follow. */
function tarOf(entries: { path: string; body: Buffer; claim?: number }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const header = new Header({ path: e.path, size: e.claim ?? e.body.length, type: 'File', mode: 0o644, mtime: new Date(0) });
    header.encode();
    blocks.push(header.block as Buffer, e.body, Buffer.alloc((512 - (e.body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('homunculus-tar-')));
afterEach(() => dir.cleanup());
const write = (name: string, bytes: Buffer): string => {
  const file = join(dir.path, name);
  writeFileSync(file, bytes);
  return file;
};

describe('reading one entry of an untrusted tarball', () => {
  it('returns the entry, gzipped or not, and nothing when it is absent', async () => {
    const tar = tarOf([
      { path: 'other.txt', body: Buffer.from('x') },
      { path: 'manifest.json', body: Buffer.from('{"a":1}') },
    ]);
    expect((await readTarEntry(write('a.tar', tar), 'manifest.json', LIMITS))?.toString()).toBe('{"a":1}');
    expect((await readTarEntry(write('a.tar.gz', gzipSync(tar)), 'manifest.json', LIMITS))?.toString()).toBe('{"a":1}');
    expect(
      await readTarEntry(write('b.tar.gz', gzipSync(tarOf([{ path: 'x', body: Buffer.from('y') }]))), 'manifest.json', LIMITS),
    ).toBeUndefined();
  });

  it('reads an entry named with a leading ./ (an archive repacked with `tar czf x.tgz -C dir .`)', async () => {
    const tar = tarOf([
      { path: './instincts/a.md', body: Buffer.from('# a') },
      { path: './manifest.json', body: Buffer.from('{"a":2}') },
    ]);
    expect((await readTarEntry(write('dot.tar.gz', gzipSync(tar)), 'manifest.json', LIMITS))?.toString()).toBe('{"a":2}');
    const nested = tarOf([{ path: 'x/manifest.json', body: Buffer.from('{}') }]);
    expect(await readTarEntry(write('nested.tar.gz', gzipSync(nested)), 'manifest.json', LIMITS)).toBeUndefined();
  });

  it.each([
    [
      'an entry that says it is huge (a gzip bomb), refused from its header',
      [{ path: 'manifest.json', body: Buffer.alloc(8192), claim: 3 * 1024 ** 3 }],
      /over the limit/,
    ],
    ['an entry over the entry limit', [{ path: 'manifest.json', body: Buffer.alloc(5000) }], /over the limit of 4096/],
    [
      'too much before the manifest',
      Array.from({ length: 5 }, (_, i) => ({ path: `f${i}`, body: Buffer.alloc(4000) })),
      /more than 16384 bytes/,
    ],
    ['too many entries', Array.from({ length: 11 }, (_, i) => ({ path: `f${i}`, body: Buffer.from('x') })), /more than 10 entries/],
  ])('refuses %s', async (_what, entries, message) => {
    const started = Date.now();
    const file = write('bad.tar.gz', gzipSync(tarOf(entries)));
    await expect(readTarEntry(file, 'manifest.json', LIMITS)).rejects.toThrow(message);
    await expect(readTarEntry(file, 'manifest.json', LIMITS)).rejects.toBeInstanceOf(TarLimitError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a file over the size limit before reading it, and fails on bytes that are no tarball', async () => {
    await expect(readTarEntry(write('big.tar.gz', Buffer.alloc(LIMITS.maxFileBytes + 1)), 'manifest.json', LIMITS)).rejects.toThrow(
      /over the limit/,
    );
    await expect(readTarEntry(write('junk.tar.gz', Buffer.from('\u001f\u008bnot really gzip')), 'manifest.json', LIMITS)).rejects.toThrow();
  });
});
