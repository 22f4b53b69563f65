/**
 * The MCP server process: `homunculus mcp [--http] [--port N] [--home DIR]`, reached from
 * bin.ts without the command-line framework. Over stdio, stdout carries protocol messages
 * only; everything for a person goes to stderr.
 */
import { portInUse } from '../core/local-request.js';
import { portFlag, readFlags } from '../core/flags.js';
import { packageVersion } from '../core/package.js';
import { reportError } from '../core/report.js';

const DEFAULT_PORT = 7421;

const MCP_USAGE = `Usage: homunculus mcp [--http] [--port <n>] [--home <dir>]

Serves the instinct MCP contract (23 tools) and 4 memory tools: over stdio by default
(protocol messages on stdout, logs on stderr), or Streamable HTTP at
http://127.0.0.1:<port>/mcp with --http, bound to loopback, refusing foreign Host and Origin,
and asking for the token in <home>/server-token (Authorization: Bearer ...).

Options:
  --http        serve Streamable HTTP instead of stdio
  --port <n>    HTTP port; 0 picks a free one (default: ${DEFAULT_PORT})
  --home <dir>  data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)
  -h, --help    display this help

Register it with Claude Code: claude mcp add homunculus -- homunculus mcp
`;

interface McpArgs {
  http: boolean;
  port: number;
  home?: string;
  help: boolean;
  json: boolean;
}

function parseMcpArgs(args: readonly string[]): McpArgs {
  const f = readFlags(args, { command: 'mcp', booleans: ['help', 'http', 'json'], values: ['home', 'port'] });
  return {
    http: f.http === true,
    port: typeof f.port === 'string' ? portFlag(f.port) : DEFAULT_PORT,
    home: typeof f.home === 'string' ? f.home : undefined,
    help: f.help === true,
    json: f.json === true,
  };
}

async function serve(args: McpArgs): Promise<void> {
  const [{ openStore, explainDatabaseError }, { serveMcpHttp, serveMcpStdio, toolContext }, { homePaths, resolveHome }] = await Promise.all(
    [import('../store/store.js'), import('./serve.js'), import('../core/paths.js')],
  );
  let store: Awaited<ReturnType<typeof openStore>>;
  let ctx: ReturnType<typeof toolContext>;
  try {
    store = openStore({ home: args.home });
    ctx = toolContext(store);
  } catch (err) {
    // The server never started: say what is wrong with the store, not "Connection closed".
    throw explainDatabaseError(err, homePaths(resolveHome(args.home)).db) ?? err;
  }
  if (args.http) {
    const { serverToken } = await import('../core/token.js');
    const handle = await serveMcpHttp(ctx, packageVersion(), serverToken(store.paths.serverToken), args.port).catch((err: unknown) => {
      store.close();
      throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? portInUse(args.port, err) : err;
    });
    process.stderr.write(
      `homunculus mcp: serving ${handle.url}\n` +
        `  clients send: Authorization: Bearer <the token in ${store.paths.serverToken}>\n` +
        `  e.g. claude mcp add --transport http homunculus ${handle.url} --header "Authorization: Bearer $(cat '${store.paths.serverToken}')"\n`,
    );
    await new Promise<void>((done) => {
      const stop = () => void handle.close().then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    store.close();
    return;
  }
  serveMcpStdio(ctx, packageVersion());
  await new Promise<void>((done) => process.stdin.once('close', () => done()).once('end', () => done()));
  store.close();
}

export async function main(args: readonly string[]): Promise<number> {
  let parsed: McpArgs | undefined;
  try {
    parsed = parseMcpArgs(args);
    if (parsed.help) {
      process.stdout.write(MCP_USAGE);
      return 0;
    }
    await serve(parsed);
    return 0;
  } catch (err) {
    return reportError(err, parsed?.json ?? args.includes('--json'));
  }
}
