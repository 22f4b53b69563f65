/** Which transcript files to import: those named (files, or directories searched), or Claude Code's own. */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What an entry is once a symbolic link is followed (a linked transcript is a transcript); undefined when it leads nowhere. */
function kind(dir: string, e: Dirent): 'file' | 'directory' | undefined {
  if (!e.isSymbolicLink()) return e.isFile() ? 'file' : e.isDirectory() ? 'directory' : undefined;
  try {
    const s = statSync(join(dir, e.name));
    return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

const isTranscript = (dir: string, e: Dirent): boolean => e.name.endsWith('.jsonl') && kind(dir, e) === 'file';

/** Transcript files under the given paths (files, or directories searched recursively), sorted; a folder that cannot be read throws. */
export function transcriptFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      // Linked folders are not walked (a link back up would never end); linked files are read.
      if (e.isDirectory()) walk(p);
      else if (isTranscript(dir, e)) files.push(p);
    }
  };
  for (const raw of paths) {
    const p = resolve(raw);
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (err) {
      // Only what is not there is missing: a folder that cannot be read says so (the report explains it).
      if (!['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
      missing.push(raw);
      continue;
    }
    if (isDir) walk(p);
    else files.push(p);
  }
  return { files: [...new Set(files)].sort(), missing };
}

/** ~/.claude/projects/<slug>/<session>.jsonl: the default import set. */
export function defaultTranscriptFiles(home: string): string[] {
  const root = join(home, '.claude', 'projects');
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => kind(root, d) === 'directory')
      .flatMap((d) =>
        readdirSync(join(root, d.name), { withFileTypes: true })
          .filter((f) => isTranscript(join(root, d.name), f))
          .map((f) => join(root, d.name, f.name)),
      )
      .sort();
  } catch {
    return [];
  }
}
