/** What kind of tool an agent called, whatever its name in that agent. */
import { isShellTool } from '../../core/domain.js';

export type ToolKind = 'shell' | 'edit' | 'write' | 'read' | 'search' | 'list' | 'task' | 'web' | 'mcp' | 'bookkeeping' | 'other';

/** Tool names of Claude Code, Codex, Gemini CLI and Cursor, by kind (the shell's: core/domain.ts). */
const KIND_BY_NAME: Readonly<Record<string, ToolKind>> = {
  edit: 'edit',
  multiedit: 'edit',
  replace: 'edit',
  edit_file: 'edit',
  str_replace_editor: 'edit',
  str_replace_based_edit_tool: 'edit',
  apply_patch: 'edit',
  notebookedit: 'edit',
  search_replace: 'edit',
  write: 'write',
  write_file: 'write',
  create_file: 'write',
  read: 'read',
  read_file: 'read',
  read_many_files: 'read',
  view: 'read',
  notebookread: 'read',
  grep: 'search',
  glob: 'search',
  search_file_content: 'search',
  grep_search: 'search',
  file_search: 'search',
  codebase_search: 'search',
  lsp: 'search',
  ls: 'list',
  list_directory: 'list',
  list_dir: 'list',
  task: 'task',
  agent: 'task',
  skill: 'task',
  webfetch: 'web',
  websearch: 'web',
  web_fetch: 'web',
  google_web_search: 'web',
  web_search: 'web',
  todowrite: 'bookkeeping',
  todoread: 'bookkeeping',
  taskcreate: 'bookkeeping',
  taskupdate: 'bookkeeping',
  tasklist: 'bookkeeping',
  taskget: 'bookkeeping',
  taskoutput: 'bookkeeping',
  taskstop: 'bookkeeping',
  bashoutput: 'bookkeeping',
  killshell: 'bookkeeping',
  killbash: 'bookkeeping',
  enterplanmode: 'bookkeeping',
  exitplanmode: 'bookkeeping',
  write_todos: 'bookkeeping',
  update_plan: 'bookkeeping',
};

export function toolKind(name: string): ToolKind {
  // The shell tools are named once, for capture and learning alike.
  if (isShellTool(name)) return 'shell';
  const lower = name.toLowerCase();
  const known = KIND_BY_NAME[lower];
  if (known) return known;
  if (lower.startsWith('mcp__') || lower.startsWith('mcp:')) return 'mcp';
  return 'other';
}

/** Kinds whose files count as touched (changed), as opposed to merely looked at. */
export const CHANGING_KINDS: ReadonlySet<ToolKind> = new Set(['edit', 'write']);
