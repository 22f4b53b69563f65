/**
 * The one mapping from an agent's tool call (its input and its result) to an observation,
 * shared by the live hooks and the transcript import: the per-tool context (the
 * input worth storing, the intent, data for the miners), the files, the outcome. Pure. It
 * maps a call build.ts has already redacted, and build.ts redacts what it returns again.
 */
import type { ProjectInfo } from '../../core/project.js';
import type { NewObservation } from '../../store/observations.js';
import { type Obj, asObject, nonBlank } from '../../core/fields.js';
import { baseCommand, isNoiseCommand } from './command.js';
import { absolutePath, fileData, filePaths } from './files.js';
import { type CallResult, durationOf, resultFacts } from './outcome.js';
import { type ToolKind, toolKind } from './tool-kind.js';

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

interface CallSummary {
  input: string;
  intent: string;
  data: Obj;
}

/** The command of a shell call: a string, or an argv such as ["bash", "-lc", "make test"]. */
export function shellCommand(input: Obj): string {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.filter((x): x is string => typeof x === 'string');
    const shell = parts.findIndex((p) => p === '-c' || p === '-lc');
    return shell >= 0 && parts[shell + 1] !== undefined ? (parts[shell + 1] as string) : parts.join(' ');
  }
  return '';
}

/** What a tool call did, in per-tool terms: the input worth storing, the intent the agent gave, data for the miners. */
function summarise(kind: ToolKind, tool: string, input: Obj, files: readonly string[]): CallSummary {
  const description = nonBlank(input.description) ?? nonBlank(input.instruction) ?? nonBlank(input.explanation) ?? '';
  switch (kind) {
    case 'shell': {
      const command = shellCommand(input);
      return { input: command, intent: description, data: { base_command: baseCommand(command) } };
    }
    case 'edit':
    case 'write':
    case 'read': {
      const data = fileData(files[0]);
      if (Array.isArray(input.edits)) data.edits = input.edits.length;
      return { input: files.join(', '), intent: kind === 'read' ? '' : description, data };
    }
    case 'search': {
      const pattern = nonBlank(input.pattern) ?? nonBlank(input.query) ?? nonBlank(input.regex) ?? '';
      const where = nonBlank(input.path) ?? nonBlank(input.glob) ?? '';
      return { input: where ? `${pattern} in ${where}` : pattern, intent: '', data: { pattern } };
    }
    case 'task':
      return {
        input: nonBlank(input.prompt) ?? nonBlank(input.skill) ?? nonBlank(input.command) ?? '',
        intent: description,
        data: nonBlank(input.subagent_type) ? { subagent_type: input.subagent_type } : {},
      };
    case 'web':
      return { input: nonBlank(input.url) ?? nonBlank(input.query) ?? '', intent: nonBlank(input.prompt) ?? '', data: {} };
    default: {
      const server = /^mcp__(.+?)__/.exec(tool)?.[1];
      return {
        input: Object.keys(input).length ? JSON.stringify(input) : '',
        intent: description,
        data: server ? { mcp_server: server } : {},
      };
    }
  }
}

/** An observation (redacted again before it is stored), or the reason the call is noise. */
type Mapped = { kind: 'record'; observation: NewObservation } | { kind: 'noise'; reason: string };

export function mapToolCall(call: ToolCall): Mapped {
  const kind = toolKind(call.tool);
  const input = asObject(call.input);
  const facts = resultFacts(call);
  const files = filePaths(kind, input).map((f) => absolutePath(f, call.cwd));
  const s = summarise(kind, call.tool, input, files);
  // A call that reported failures is kept even when the command itself is usually noise.
  if (facts.outcome === 'ok' && !facts.error) {
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
