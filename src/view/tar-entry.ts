/**
 * Reading one file out of a tarball someone handed us, without trusting it: nothing is
 * written to disk, the compressed file, the entry and the whole archive each have a size
 * limit checked before their bytes are read, and reading stops the moment one is crossed.
 * A gzip bomb or a manifest of gigabytes costs a header, not minutes and gigabytes.
 */
import { createReadStream, statSync } from 'node:fs';
import { Parser, type ReadEntry } from 'tar';

export interface TarLimits {
  /** The tarball as given (compressed). */
  maxFileBytes: number;
  /** The entry wanted, uncompressed. */
  maxEntryBytes: number;
  /** Every entry together, uncompressed. */
  maxTotalBytes: number;
  maxEntries: number;
}

export class TarLimitError extends Error {}

/** The content of entry `name`, or undefined when the archive has none. Throws TarLimitError past a limit. */
export function readTarEntry(file: string, name: string, limits: TarLimits): Promise<Buffer | undefined> {
  const size = statSync(file).size;
  if (size > limits.maxFileBytes)
    return Promise.reject(new TarLimitError(`the file is ${size} bytes, over the limit of ${limits.maxFileBytes}`));
  return new Promise((resolve, reject) => {
    const input = createReadStream(file);
    const parser = new Parser({ strict: true });
    let entries = 0;
    let total = 0;
    let found: Buffer | undefined;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      input.destroy();
      parser.abort(err);
      reject(err);
    };
    parser.on('entry', (entry: ReadEntry) => {
      entries++;
      total += entry.size;
      // `tar czf x.tgz -C dir .` names every entry `./…`: the same file.
      const wanted = (entry.path === name || entry.path === `./${name}`) && !found;
      if (wanted && entry.size > limits.maxEntryBytes)
        return fail(new TarLimitError(`${name} is ${entry.size} bytes, over the limit of ${limits.maxEntryBytes}`));
      if (entries > limits.maxEntries) return fail(new TarLimitError(`more than ${limits.maxEntries} entries`));
      if (total > limits.maxTotalBytes) return fail(new TarLimitError(`more than ${limits.maxTotalBytes} bytes once unpacked`));
      if (!wanted) return void entry.resume();
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => (found = Buffer.concat(chunks)));
    });
    parser.on('error', (err: Error) => fail(err));
    parser.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(found);
    });
    input.on('error', (err) => fail(err));
    input.pipe(parser);
  });
}
