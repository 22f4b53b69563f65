/**
 * The one mapping from an agent's tool call (its input and its result) to an observation,
 * shared by the live hooks and the transcript import. Pure. The text it returns is raw:
 * build.ts passes every observation through redact.ts before anything stores it.
 */
import type { ProjectInfo } from '../../core/project.js';
import type { NewObservation } from '../../store/observations.js';
import { type Obj, asObject } from '../fields.js';
import { isNoiseCommand } from './command.js';
import { absolutePath, filePaths } from './files.js';
import { type CallResult, durationOf, resultFacts } from './outcome.js';
import { summarise } from './summary.js';
import { toolKind } from './tool-kind.js';

export interface ToolCall extends CallResult {
  source: string;
  sessionId: string;
  toolUseId: string;
  ts: string;
  cwd: string;
  tool: string;
  input: unknown;
  durationMs?: number;
  agentVersion?: string;
  project: ProjectInfo;
}

/** An observation (not yet redacted), or the reason the call is noise. */
export type Mapped = { kind: 'record'; observation: NewObservation } | { kind: 'noise'; reason: string };

export function mapToolCall(call: ToolCall): Mapped {
  const kind = toolKind(call.tool);
  const input = asObject(call.input);
  const facts = resultFacts(call);
  const files = filePaths(kind, input).map((f) => absolutePath(f, call.cwd));
  const s = summarise(kind, call.tool, input, files);
  if (facts.outcome === 'ok') {
    if (kind === 'bookkeeping' || kind === 'list') return { kind: 'noise', reason: `${call.tool} is bookkeeping` };
    if (kind === 'shell' && isNoiseCommand(s.input)) return { kind: 'noise', reason: `noisy command: ${s.data.base_command as string}` };
  }
  const data: Obj = { ...s.data, project_name: call.project.name };
  if (facts.exitCode !== undefined) data.exit_code = facts.exitCode;
  if (call.agentVersion) data.agent_version = call.agentVersion;
  return {
    kind: 'record',
    observation: {
      source: call.source,
      session_id: call.sessionId,
      tool_use_id: call.toolUseId,
      ts: call.ts,
      event: 'tool',
      project: call.project.fingerprint,
      cwd: call.cwd,
      tool: call.tool,
      intent: s.intent,
      input: s.input,
      files,
      outcome: facts.outcome,
      error: facts.error,
      duration_ms: durationOf(call),
      data,
    },
  };
}
