/** Cursor's payloads: camelCase events, conversation ids, and per-event fields instead of a tool call. */
import type { HookInput } from '../agents.js';
import { type Obj, num, str } from '../fields.js';
import { derivedId, validTs } from './stamps.js';

/** The tool call an event describes: shell and file edits have their own fields; MCP calls name a tool. */
function cursorTool(event: string, p: Obj): { name: string; input: unknown; response?: unknown } | undefined {
  if (event === 'afterShellExecution')
    return {
      name: 'Shell',
      input: { command: p.command, cwd: p.cwd },
      response: { output: p.output, exit_code: p.exit_code ?? p.exitCode },
    };
  if (event === 'afterFileEdit') return { name: str(p.tool_name) ?? 'Edit', input: { file_path: p.file_path, edits: p.edits } };
  if (str(p.tool_name))
    return { name: p.tool_name as string, input: p.tool_input, response: p.result_json ?? p.tool_output ?? p.tool_response };
  return undefined;
}

export function cursor(p: Obj, now: string): HookInput {
  const event = str(p.hook_event_name) ?? '';
  const sessionId = str(p.conversation_id) ?? str(p.session_id) ?? '';
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
  const reason = str(p.status) ?? str(p.reason);
  const input: HookInput = {
    agent: 'cursor',
    event,
    sessionId,
    cwd: str(p.cwd) ?? roots[0] ?? '',
    ts: validTs(p.timestamp, now),
    ...(str(p.cursor_version) ? { agentVersion: p.cursor_version as string } : {}),
    ...(str(p.prompt) ? { prompt: p.prompt as string } : {}),
    ...(reason ? { reason } : {}),
  };
  const tool = cursorTool(event, p);
  if (tool) {
    const error = str(p.error);
    input.tool = {
      name: tool.name,
      input: tool.input,
      response: tool.response,
      failed: error !== undefined,
      ...(error ? { error } : {}),
      toolUseId: str(p.tool_use_id) ?? derivedId(sessionId, str(p.generation_id) ?? '', event, tool.input),
      ...(num(p.duration) !== undefined ? { durationMs: p.duration as number } : {}),
    };
  }
  return input;
}
