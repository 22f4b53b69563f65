/** `homunculus mcp`: the instinct MCP server over stdio (default) or Streamable HTTP. */
import type { Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { openStore } from '../../store/store.js';
import { globals } from '../context.js';
import { parsePositiveInt } from '../output.js';

export function registerMcpCommands(program: Command, version: string): void {
  program
    .command('mcp')
    .description('Serve the 23-tool instinct MCP contract and the memory tools over stdio, or Streamable HTTP on 127.0.0.1 with --http')
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 instead of stdio')
    .option('--port <n>', 'HTTP port (default 7421; 0 picks a free one)', '7421')
    .action(async (o: { http?: boolean; port?: string }, cmd: Command) => {
      const port = parsePositiveInt('port', o.port, { allowZero: true }) ?? 7421;
      if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}.`);
      const { serveMcpHttp, serveMcpStdio, toolContext } = await import('../../mcp/serve.js');
      const store = openStore({ home: globals(cmd).home });
      const ctx = toolContext(store);
      if (o.http) {
        const handle = await serveMcpHttp(ctx, version, port);
        process.stderr.write(`homunculus mcp: serving ${handle.url}\n`);
        const stop = () =>
          void handle.close().then(() => {
            store.close();
            process.exit(0);
          });
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        await new Promise(() => undefined);
      }
      serveMcpStdio(ctx, version);
      await new Promise<void>((done) => process.stdin.once('close', () => done()).once('end', () => done()));
      store.close();
    });
}
