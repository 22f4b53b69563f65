/**
 * What Codex's hooks leave out, read from its rollout (the payload's transcript_path), which
 * Codex writes before the hook runs. A shell call's exit code: the PostToolUse payload gives
 * its output as a plain string (a failing `exit 3` arrives as ""). And a patch the model ran
 * through the shell (`apply_patch <<'PATCH'` in exec_command): Codex applies it itself and
 * fires no hook, so without it a lint that failed, was fixed and passed looked like a flaky
 * lint that passed on a plain rerun.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { asObject, num, str } from '../core/fields.js';
import type { HookInput } from './agents.js';

/** How much of the rollout's end is read: the call just finished, so its line is near the end. */
const TAIL_BYTES = 512 * 1024;

/** The exit code the rollout recorded for a call: an item_completed command, or an older exec_command_end. */
export function rolloutExitCode(tail: string, callId: string): number | undefined {
  const lines = tail.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (!line.includes(callId) || !line.includes('exit_code')) continue;
    let payload: Record<string, unknown>;
    try {
      payload = asObject(asObject(JSON.parse(line)).payload);
    } catch {
      continue;
    }
    const item = asObject(payload.item);
    if (payload.type === 'item_completed' && str(item.id) === callId) return num(item.exit_code);
    if (payload.type === 'exec_command_end' && str(payload.call_id) === callId) return num(payload.exit_code);
  }
  return undefined;
}

/** The rollout's completed items, newest last (lines that are not one are skipped). */
function completedItems(tail: string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const line of tail.split('\n')) {
    if (!line.includes('item_completed')) continue;
    try {
      const payload = asObject(asObject(JSON.parse(line)).payload);
      if (payload.type === 'item_completed') items.push(asObject(payload.item));
    } catch {
      // A line cut by the tail's start, or not JSON.
    }
  }
  return items;
}

/** A patch Codex applied between the previous tool call and this one: its id and the files it changed. */
export interface RolloutPatch {
  id: string;
  files: string[];
  ok: boolean;
  output: string;
}

/** The patches applied since the tool call before `callId` (the hook of which saw none of them). Pure. */
export function rolloutPatches(tail: string, callId: string): RolloutPatch[] {
  const items = completedItems(tail);
  let at = items.findIndex((item) => str(item.id) === callId);
  if (at < 0) at = items.length;
  const patches: RolloutPatch[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const item = items[i] as Record<string, unknown>;
    if (item.type !== 'FileChange') {
      if (item.type === 'UserMessage' || item.type === 'CommandExecution' || item.type === 'McpToolCall') break;
      continue;
    }
    const id = str(item.id);
    if (!id) continue;
    patches.unshift({ id, files: Object.keys(asObject(item.changes)), ok: item.status === 'completed', output: str(item.stdout) ?? '' });
  }
  return patches;
}

function readTail(path: string, bytes = TAIL_BYTES): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * A Codex tool call as its rollout completes it: the call with its exit code, after the patches
 * applied since the call before it, each as the apply_patch call it was (a millisecond apart,
 * just before this one). Any other input, or an unreadable rollout: the call as it was, alone.
 */
export function withCodexRollout(input: HookInput): HookInput[] {
  const tool = input.tool;
  if (input.agent !== 'codex' || !tool || !input.transcriptPath) return [input];
  let tail: string;
  try {
    tail = readTail(input.transcriptPath);
  } catch {
    return [input];
  }
  const code = typeof tool.response === 'string' ? rolloutExitCode(tail, tool.toolUseId) : undefined;
  const call = code === undefined ? input : { ...input, tool: { ...tool, response: { exit_code: code, output: tool.response } } };
  const patches = rolloutPatches(tail, tool.toolUseId);
  const at = Date.parse(input.ts);
  const patchCalls = patches.map((p, i): HookInput => ({
    ...input,
    ts: Number.isNaN(at) ? input.ts : new Date(at - (patches.length - i)).toISOString(),
    tool: { name: 'apply_patch', toolUseId: p.id, input: { paths: p.files }, response: p.output, failed: !p.ok },
  }));
  return [...patchCalls, call];
}
