/** The tools every agent has; later parts add web_fetch, mqtt and memory tools to the same registry. */
import { datetimeNow, echo } from './basic.js';
import { type Tool, ToolRegistry } from './registry.js';
import { shellExec } from './shell.js';
import { workspaceList, workspaceRead, workspaceWrite } from './workspace.js';

export const BUILTIN_TOOLS: readonly Tool[] = [echo, datetimeNow, workspaceRead, workspaceWrite, workspaceList, shellExec];

export function builtinRegistry(): ToolRegistry {
  return new ToolRegistry(BUILTIN_TOOLS);
}
