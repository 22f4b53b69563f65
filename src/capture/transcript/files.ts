/** Which transcript files to import: those named (files, or directories searched), or Claude Code's own. */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Transcript files under the given paths (files, or directories searched recursively), sorted. */
export function transcriptFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.jsonl')) files.push(p);
    }
  };
  for (const raw of paths) {
    const p = resolve(raw);
    try {
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    } catch {
      missing.push(raw);
    }
  }
  return { files: [...new Set(files)].sort(), missing };
}

/** ~/.claude/projects/<slug>/<session>.jsonl: the default import set. */
export function defaultTranscriptFiles(home: string): string[] {
  const root = join(home, '.claude', 'projects');
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(join(root, d.name), { withFileTypes: true })
          .filter((f) => f.isFile() && f.name.endsWith('.jsonl'))
          .map((f) => join(root, d.name, f.name)),
      )
      .sort();
  } catch {
    return [];
  }
}
