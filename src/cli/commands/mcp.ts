/** `homunculus mcp` in the command list: the server itself is its own process (mcp/main.ts), routed by bin.ts. */
import type { Command } from 'commander';

export function registerMcpCommands(program: Command): void {
  program
    .command('mcp')
    .description('Serve the 23-tool instinct MCP contract and the memory tools over stdio, or Streamable HTTP on 127.0.0.1 with --http')
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 instead of stdio')
    .option('--port <n>', 'HTTP port; 0 picks a free one (default: 7421)');
}
