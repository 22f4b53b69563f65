import { mkdirSync, renameSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes through a temporary file and a rename, so readers see the old or the new file, never half. */
export function writeFileAtomic(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** Writes only when the content differs; returns whether the file changed. */
export function writeFileIfChanged(path: string, content: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  writeFileAtomic(path, content);
  return true;
}
