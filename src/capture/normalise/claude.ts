/** Claude Code's payloads, which Codex CLI shares and Gemini CLI extends (a timestamp, its own tool names). */
import type { Agent, HookInput } from '../agents.js';
import { type Obj, num, str } from '../fields.js';
import { derivedId, validTs } from './stamps.js';

export function claudeLike(agent: Agent, p: Obj, now: string): HookInput {
  const event = str(p.hook_event_name) ?? '';
  const sessionId = str(p.session_id) ?? '';
  const ts = validTs(p.timestamp, now);
  const reason = str(p.source) ?? str(p.reason) ?? str(p.trigger);
  const input: HookInput = {
    agent,
    event,
    sessionId,
    cwd: str(p.cwd) ?? '',
    ts,
    ...(str(p.transcript_path) ? { transcriptPath: p.transcript_path as string } : {}),
    ...(str(p.version) ? { agentVersion: p.version as string } : {}),
    ...(str(p.prompt) ? { prompt: p.prompt as string } : {}),
    ...(reason ? { reason } : {}),
  };
  const name = str(p.tool_name);
  if (name) {
    const error = str(p.error) ?? (typeof p.error === 'object' && p.error !== null ? JSON.stringify(p.error) : undefined);
    input.tool = {
      name,
      input: p.tool_input,
      response: p.tool_response,
      failed: event === 'PostToolUseFailure' || error !== undefined || p.is_interrupt === true,
      ...(error ? { error } : p.is_interrupt === true ? { error: 'interrupted by user' } : {}),
      toolUseId: str(p.tool_use_id) ?? derivedId(sessionId, ts, name, p.tool_input),
      ...(num(p.duration_ms) !== undefined ? { durationMs: p.duration_ms as number } : {}),
    };
  }
  return input;
}
