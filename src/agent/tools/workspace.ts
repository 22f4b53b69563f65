/**
 * workspace_read, workspace_write and workspace_list: file tools confined to the workspace.
 * Every path goes through resolveInWorkspace (text rules, then the real path); the final
 * open refuses a symbolic link (O_NOFOLLOW), so a link swapped in after the check is not
 * followed either.
 */
import { closeSync, constants, fstatSync, lchownSync, lstatSync, openSync, readSync, readdirSync, statSync, writeSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../../core/errors.js';
import { realTarget } from '../../core/confine.js';
import { ensureDir } from '../../core/fs.js';
import { dropTarget } from '../sandbox.js';
import { configurationEntry, resolveInWorkspace } from '../workspace.js';
import { defineTool } from './registry.js';

const MAX_READ = 1024 * 1024;
const MAX_ENTRIES = 1000;

const pathField = z.string().min(1).max(4096).describe('a path relative to the workspace, e.g. "notes/today.md"');

/**
 * Opens `real` without following a final symbolic link, with a clear error when it is one, and
 * without blocking: a FIFO planted in the workspace would otherwise hold the open, and the
 * worker with it, until the turn times out. Anything but a file or directory is refused.
 */
function openNoFollow(real: string, flags: number, shown: string): number {
  let fd: number;
  try {
    fd = openSync(real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENXIO') throw notAFile(shown);
    if (code === 'ELOOP') throw new UsageError(`Refusing the path ${JSON.stringify(shown)}: it became a symbolic link.`, 'Try again.');
    if (code === 'ENOENT') throw new UsageError(`No file ${JSON.stringify(shown)} in the workspace.`, 'List it with workspace_list.');
    if (code === 'EISDIR') throw new UsageError(`${JSON.stringify(shown)} is a directory.`, 'List it with workspace_list.');
    throw err;
  }
  const stat = fstatSync(fd);
  if (!stat.isFile() && !stat.isDirectory()) {
    closeSync(fd);
    throw notAFile(shown);
  }
  return fd;
}

const notAFile = (shown: string) =>
  new UsageError(`${JSON.stringify(shown)} is not a file (a pipe, socket or device).`, 'Read and write plain files only.');

/** The agent's own configuration (personas, skills, standing tasks) is the user's to change, never a tool's. */
function refuseConfiguration(workspace: string, real: string, shown: string): void {
  const first = configurationEntry(relative(realTarget(workspace), real).split(sep)[0] ?? '');
  if (first)
    throw new UsageError(
      `${JSON.stringify(shown)} is the agent's own configuration (${first}): no tool writes it.`,
      `Edit it yourself in ${join(workspace, first)}.`,
    );
}

export const workspaceRead = defineTool({
  name: 'workspace_read',
  description: 'Read a text file of the workspace (up to 256 kB unless max_bytes says otherwise, at most 1 MB).',
  input: z
    .object({
      path: pathField,
      max_bytes: z
        .number()
        .int()
        .min(1)
        .max(MAX_READ)
        .default(256 * 1024),
    })
    .strict(),
  trust: 'workspace',
  confirm: false,
  run: (ctx, input) => {
    const real = resolveInWorkspace(ctx.workspace, input.path);
    const fd = openNoFollow(real, constants.O_RDONLY, input.path);
    try {
      const stat = fstatSync(fd);
      if (stat.isDirectory()) throw new UsageError(`${JSON.stringify(input.path)} is a directory.`, 'List it with workspace_list.');
      const buffer = Buffer.alloc(Math.min(stat.size, input.max_bytes));
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      return { path: input.path, content: buffer.subarray(0, read).toString('utf8'), bytes: stat.size, truncated: stat.size > read };
    } finally {
      closeSync(fd);
    }
  },
});

export const workspaceWrite = defineTool({
  name: 'workspace_write',
  description: 'Write a text file of the workspace (creating its folders), replacing it or, with append, adding to its end.',
  input: z.object({ path: pathField, content: z.string().max(MAX_READ), append: z.boolean().default(false) }).strict(),
  trust: 'workspace',
  confirm: true,
  check: (ctx, input) => refuseConfiguration(ctx.workspace, resolveInWorkspace(ctx.workspace, input.path), input.path),
  run: (ctx, input) => {
    const real = resolveInWorkspace(ctx.workspace, input.path);
    refuseConfiguration(ctx.workspace, real, input.path);
    const newDirs = missingDirs(dirname(real));
    ensureDir(dirname(real));
    // The folders just created are checked again: nothing may have linked them elsewhere meanwhile.
    resolveInWorkspace(ctx.workspace, input.path);
    const created = !exists(real);
    const mode = input.append ? constants.O_APPEND : constants.O_TRUNC;
    const fd = openNoFollow(real, constants.O_WRONLY | constants.O_CREAT | mode, input.path);
    try {
      writeSync(fd, input.content);
    } finally {
      closeSync(fd);
    }
    giveToCommands(ctx.workspace, [...newDirs, ...(created ? [real] : [])]);
    return { path: input.path, bytes: Buffer.byteLength(input.content), created, appended: input.append };
  },
});

/** The folders of `dir` that do not exist yet, outermost first. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !exists(d) && d !== dirname(d); d = dirname(d)) out.unshift(d);
  return out;
}

/**
 * As root, what the agent writes belongs to the account its commands run as in the sandbox (the
 * workspace's owner): a file root made there could not be changed by the agent's own commands.
 */
function giveToCommands(workspace: string, paths: readonly string[]): void {
  if (process.getuid?.() !== 0 || paths.length === 0) return;
  const owner = statSync(workspace);
  // A workspace root owns is written by nobody's commands anyway (they cannot write it).
  const runner = owner.uid === 0 ? undefined : dropTarget(0, owner);
  if (!runner) return;
  for (const path of paths) lchownSync(path, runner.uid, runner.gid);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

type EntryType = 'file' | 'dir' | 'link' | 'other';

export const workspaceList = defineTool({
  name: 'workspace_list',
  description: 'List a folder of the workspace (default: its top): names, types and sizes.',
  input: z.object({ path: pathField.default('.') }).strict(),
  trust: 'workspace',
  confirm: false,
  run: (ctx, input) => {
    const real = resolveInWorkspace(ctx.workspace, input.path);
    if (!exists(real))
      throw new UsageError(`No folder ${JSON.stringify(input.path)} in the workspace.`, 'List the workspace top with path ".".');
    if (!statSync(real).isDirectory()) throw new UsageError(`${JSON.stringify(input.path)} is a file.`, 'Read it with workspace_read.');
    const dirents = readdirSync(real, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    const entries = dirents.slice(0, MAX_ENTRIES).map((d) => {
      const type: EntryType = d.isSymbolicLink() ? 'link' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
      return { name: d.name, type, ...(type === 'file' ? { size: lstatSync(join(real, d.name)).size } : {}) };
    });
    return { path: input.path, entries, truncated: dirents.length > MAX_ENTRIES };
  },
});
