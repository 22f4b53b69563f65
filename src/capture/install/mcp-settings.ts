/** Our MCP server in an agent's JSON settings: added beside the others, and taken out again. */
import { isObj } from '../../core/fields.js';
import { type Json, invalid } from './json-file.js';

const MCP_NAME = 'homunculus';

/** Our MCP server entry: `node bin.js mcp`, told the home when it is not the one Homunculus finds by itself. */
export function mcpEntry(prefixWords: readonly string[], format: 'claude-json' | 'json', home?: string): Json {
  const [command, ...args] = prefixWords;
  return {
    ...(format === 'claude-json' ? { type: 'stdio' } : {}),
    command,
    args: [...args, 'mcp'],
    ...(home ? { env: { HOMUNCULUS_HOME: home } } : {}),
  };
}

/** An entry `init` wrote: `<node> <.../cli/bin.js> mcp`, or `homunculus mcp` with --command homunculus. Nothing else. */
const isOurServer = (entry: unknown): boolean => {
  if (!isObj(entry) || !Array.isArray(entry.args) || entry.args[entry.args.length - 1] !== 'mcp') return false;
  const words = [String(entry.command), ...entry.args.slice(0, -1).map(String)];
  return words.some((w) => /\/cli\/bin\.js$/.test(w)) || /(?:^|\/)homunculus$/.test(words[words.length - 1] ?? '');
};

/** Adds mcpServers.homunculus; a different server already under that name is left alone. */
export function mergeMcp(settings: Json, entry: Json, file: string): { settings: Json; conflict: boolean } {
  const out = structuredClone(settings);
  if (out.mcpServers !== undefined && !isObj(out.mcpServers)) throw invalid(file, '"mcpServers" is not an object');
  const servers = (out.mcpServers as Json | undefined) ?? {};
  const existing = servers[MCP_NAME];
  if (existing !== undefined && !isOurServer(existing)) return { settings: out, conflict: true };
  servers[MCP_NAME] = entry;
  out.mcpServers = servers;
  return { settings: out, conflict: false };
}

export function removeMcp(settings: Json): { settings: Json; changed: boolean } {
  const out = structuredClone(settings);
  if (!isObj(out.mcpServers) || !isOurServer(out.mcpServers[MCP_NAME])) return { settings: out, changed: false };
  delete out.mcpServers[MCP_NAME];
  if (Object.keys(out.mcpServers).length === 0) delete out.mcpServers;
  return { settings: out, changed: true };
}
