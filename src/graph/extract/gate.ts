/**
 * The quality gate for what the graph extracts, in the spirit of the instinct gate: an entity
 * must name something a reader could look up, and a fact must not come from scratch space.
 * Pure functions; each says why it refuses.
 */

/** Words that are a subcommand or a shell habit, never a tool of the project. */
const GENERIC_TOOLS = new Set(['repo', 'pr', 'show', 'run', 'test', 'bash', 'sh', 'zsh', 'ide', 'main', 'status', 'view', 'list']);
/** A program name: a word, maybe dotted or dashed; an MCP server keeps its suffix. */
const TOOL_NAME = /^[A-Za-z][\w.+-]*(?: MCP server)?$/;
/** Temporary folders and the agent's own plan files: what lives there is not the project. */
const SCRATCH = /^(?:\/tmp\/|\/private\/(?:tmp|var)\/|\/var\/folders\/)|(?:^|\/)\.claude\/plans\//;

export function toolProblem(name: string): string | undefined {
  if (!TOOL_NAME.test(name)) return 'a tool named by punctuation or a fragment of a command line';
  if (GENERIC_TOOLS.has(name.toLowerCase())) return 'a generic word, not a tool';
  return undefined;
}

export function fileProblem(path: string): string | undefined {
  return SCRATCH.test(path) ? 'a temporary file or the agent plan, not part of the project' : undefined;
}
