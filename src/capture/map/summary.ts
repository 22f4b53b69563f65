/**
 * What a tool call did, in seed 000's per-tool terms: the input worth storing (a command, a
 * file, a pattern), the intent the agent gave, and data for the miners. Raw text: redact.ts
 * cleans it before anything is stored.
 */
import { type Obj, nonBlank } from '../fields.js';
import { baseCommand } from './command.js';
import { fileData } from './files.js';
import type { ToolKind } from './tool-kind.js';

export interface CallSummary {
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

export function summarise(kind: ToolKind, tool: string, input: Obj, files: readonly string[]): CallSummary {
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
