/**
 * Codex's PostToolUse payload gives a shell call's output as a plain string, without its exit
 * code (a failing `exit 3` arrives as ""). Codex writes the code to its rollout (the payload's
 * transcript_path) before the hook runs, so the observe and recall hooks read it from there.
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

/** A Codex tool call with its exit code from the rollout; any other input, or an unreadable rollout, as it was. */
export function withCodexExitCode(input: HookInput): HookInput {
  const tool = input.tool;
  if (input.agent !== 'codex' || !tool || typeof tool.response !== 'string' || !input.transcriptPath) return input;
  let code: number | undefined;
  try {
    code = rolloutExitCode(readTail(input.transcriptPath), tool.toolUseId);
  } catch {
    return input;
  }
  if (code === undefined) return input;
  return { ...input, tool: { ...tool, response: { exit_code: code, output: tool.response } } };
}
