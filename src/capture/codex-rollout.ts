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

/** A patch Codex applied between the previous tool call and this one: its id and the files it changed. */
export interface RolloutPatch {
  id: string;
  files: string[];
  ok: boolean;
  output: string;
}

/** What the rollout adds to one call: its exit code, and the patches applied since the call before it. */
export interface RolloutFacts {
  exitCode?: number;
  patches: RolloutPatch[];
}

const payloadOf = (line: string): Record<string, unknown> | undefined => {
  try {
    return asObject(asObject(JSON.parse(line)).payload);
  } catch {
    return undefined; // a line cut by the tail's start, or not JSON
  }
};

/** The patches completed at or before line `from`, back to the call or message before them. */
function patchesBefore(lines: readonly string[], from: number): RolloutPatch[] {
  const patches: RolloutPatch[] = [];
  for (let i = from; i >= 0; i--) {
    const line = lines[i] as string;
    if (!line.includes('item_completed')) continue;
    const payload = payloadOf(line);
    if (payload?.type !== 'item_completed') continue;
    const item = asObject(payload.item);
    if (item.type === 'UserMessage' || item.type === 'CommandExecution' || item.type === 'McpToolCall') break;
    const id = str(item.id);
    if (item.type !== 'FileChange' || !id) continue;
    patches.unshift({ id, files: Object.keys(asObject(item.changes)), ok: item.status === 'completed', output: str(item.stdout) ?? '' });
  }
  return patches;
}

/**
 * One backward pass over the rollout's tail: lines after the call (later calls already written)
 * are passed over unparsed; the call's own line gives its exit code (an item_completed command,
 * or an older exec_command_end), and the patches are those just before it. A call the rollout
 * does not have yet sees the patches since the last call. Pure.
 */
export function rolloutFacts(tail: string, callId: string): RolloutFacts {
  const lines = tail.split('\n');
  let exitCode: number | undefined;
  let at = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (!line.includes(callId)) continue;
    const payload = payloadOf(line);
    const item = asObject(payload?.item);
    if (payload?.type === 'exec_command_end' && str(payload.call_id) === callId) exitCode ??= num(payload.exit_code);
    if (payload?.type === 'item_completed' && str(item.id) === callId) {
      exitCode ??= num(item.exit_code);
      at = i;
      break;
    }
  }
  return { exitCode, patches: patchesBefore(lines, at - 1) };
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

/** Each patch as the apply_patch call it was, a millisecond apart, just before `input`'s time. */
function patchCalls(input: HookInput, patches: readonly RolloutPatch[]): HookInput[] {
  const at = Date.parse(input.ts);
  return patches.map((p, i): HookInput => ({
    ...input,
    ts: Number.isNaN(at) ? input.ts : new Date(at - (patches.length - i)).toISOString(),
    tool: { name: 'apply_patch', toolUseId: p.id, input: { paths: p.files }, response: p.output, failed: !p.ok },
  }));
}

const tailOf = (input: HookInput): string | undefined => {
  if (input.agent !== 'codex' || !input.transcriptPath) return undefined;
  try {
    return readTail(input.transcriptPath);
  } catch {
    return undefined;
  }
};

/**
 * A Codex tool call as its rollout completes it: the call with its exit code, after the patches
 * applied since the call before it. Any other input, or an unreadable rollout: the call as it was, alone.
 */
export function withCodexRollout(input: HookInput): HookInput[] {
  const tool = input.tool;
  const tail = tool ? tailOf(input) : undefined;
  if (!tool || tail === undefined) return [input];
  const { exitCode, patches } = rolloutFacts(tail, tool.toolUseId);
  // Only a plain-string response lacks its code; a structured one already says it.
  const code = typeof tool.response === 'string' ? exitCode : undefined;
  const call = code === undefined ? input : { ...input, tool: { ...tool, response: { exit_code: code, output: tool.response } } };
  return [...patchCalls(input, patches), call];
}

/** Hands each call the rollout completes to `take`, the patches first; what it gives for the call itself. */
export function eachRolloutCall<T>(input: HookInput, take: (call: HookInput) => T): T {
  const calls = withCodexRollout(input);
  calls.slice(0, -1).forEach(take);
  return take(calls.at(-1) as HookInput);
}

/** At a turn's end (Stop): the patches after its last call, which no later hook sees, as apply_patch calls. */
export function codexTrailingPatches(input: HookInput): HookInput[] {
  const tail = tailOf(input);
  if (tail === undefined) return [];
  const lines = tail.split('\n');
  return patchCalls(input, patchesBefore(lines, lines.length - 1));
}
