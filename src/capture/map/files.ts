/** The files a tool call names, made absolute against the call's directory without touching the filesystem. */
import { type Obj, nonBlank } from '../../core/fields.js';
import type { ToolKind } from './tool-kind.js';

/** Files named in an apply_patch body ("*** Update File: path"). */
export function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
}

export function filePaths(kind: ToolKind, input: Obj): string[] {
  const one =
    nonBlank(input.file_path) ??
    nonBlank(input.filePath) ??
    nonBlank(input.absolute_path) ??
    nonBlank(input.notebook_path) ??
    nonBlank(input.target_file);
  if (one) return [one];
  if (Array.isArray(input.paths)) return input.paths.filter((p): p is string => typeof p === 'string');
  const patch = nonBlank(input.patch) ?? nonBlank(input.input);
  if (patch && patch.includes('*** ')) return patchFiles(patch);
  if ((kind === 'edit' || kind === 'write' || kind === 'read') && nonBlank(input.path)) return [input.path as string];
  return [];
}

/** Resolves a path against the call's cwd without touching the filesystem. */
export function absolutePath(path: string, cwd: string): string {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || !cwd) return path;
  const parts = `${cwd.replace(/\/+$/, '')}/${path}`.split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return `/${out.join('/')}`;
}

/** The file's name and lower-case extension, for sequence mining. */
export function fileData(path: string | undefined): Obj {
  if (!path) return {};
  const filename = path.split(/[\\/]/).pop() ?? path;
  const dot = filename.lastIndexOf('.');
  return { filename, extension: dot > 0 ? filename.slice(dot + 1).toLowerCase() : '' };
}
