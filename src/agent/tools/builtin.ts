/** The tools every agent has, with seed 001's trust levels and confirmation flags (each tool's file declares its own). */
import { datetimeNow, echo } from './basic.js';
import { memoryDailyLog, memorySave, memorySearch } from './memory.js';
import { mqttPublish, mqttSubscribe } from './mqtt.js';
import { type Tool, ToolRegistry } from './registry.js';
import { shellExec } from './shell.js';
import { webFetch } from './web-fetch.js';
import { workspaceList, workspaceRead, workspaceWrite } from './workspace.js';

export const BUILTIN_TOOLS: readonly Tool[] = [
  echo,
  datetimeNow,
  workspaceRead,
  workspaceWrite,
  workspaceList,
  shellExec,
  webFetch,
  mqttPublish,
  mqttSubscribe,
  memorySearch,
  memorySave,
  memoryDailyLog,
];

export function builtinRegistry(): ToolRegistry {
  return new ToolRegistry(BUILTIN_TOOLS);
}
