/** `homunculus agent ...`: the personal agent: init (its workspace), audit (its log), token, status and serve (its gateway). */
import type { Command } from 'commander';
import { type AuditReport, agentAudit, agentInit } from '../../app/agent.js';
import { type AgentStatus, agentStatus, agentToken } from '../../app/agent-gateway.js';
import { globals } from '../context.js';
import { emit, table } from '../output.js';
import { type Options, cliInput, num, stringOption } from '../run.js';
import { registerAgentBrainCommands } from './agent-chat.js';
import { registerAgentTeamCommands } from './agent-team.js';
import { registerScheduleCommands } from './agent-schedule.js';
import { setupContext } from './install.js';

function auditLines(r: AuditReport): string[] {
  const lines: string[] = [];
  const shown = r.entries.length + r.skipped.length;
  if (r.total === 0) lines.push(`The audit log is empty (${r.log}).`);
  else lines.push(`${r.total} ${r.skipped.length ? 'lines' : 'entries'} in ${r.log}${shown < r.total ? `, the last ${shown}:` : ':'}`);
  if (r.entries.length)
    lines.push(
      ...table([
        ['#', 'time (UTC)', 'action', 'subject', 'ok', 'session', 'ms', 'tokens in/out'],
        ...r.entries.map((e) => [
          String(e.seq),
          e.time,
          e.action,
          e.subject ?? '',
          e.ok ? 'yes' : 'no',
          e.session,
          String(e.duration_ms),
          e.tokens ? `${e.tokens.input}/${e.tokens.output}` : '',
        ]),
      ]).map((l) => `  ${l}`),
    );
  // --verify names the first broken line itself; without it, say which lines the listing left out.
  if (!r.verify)
    for (const s of r.skipped) lines.push(`! ${s.problem}: it was changed (\`homunculus agent audit --verify\` checks the log)`);
  if (r.verify?.ok)
    lines.push(`✓ verified: ${r.verify.entries} entries, each chained to the one before, none changed, inserted or removed.`);
  for (const p of r.verify?.problems ?? []) lines.push(`✗ ${p.problem}`);
  return lines;
}

function statusLines(s: AgentStatus): string[] {
  const mark = (ok: boolean) => (ok ? '✓' : '!');
  return [
    `${mark(s.workspace.exists)} workspace: ${s.workspace.path}${s.workspace.exists ? '' : ' (missing: run `homunculus agent init`)'}`,
    `${mark(s.token.set)} token: ${s.token.set ? 'set (only its bcrypt hash is stored)' : 'none (run `homunculus agent token`)'}`,
    s.gateway.running
      ? `✓ gateway: serving on ${s.gateway.url} (pid ${s.gateway.pid}, since ${s.gateway.started})`
      : '  gateway: not running (`homunculus agent serve` starts it)',
    `${mark(s.sandbox.ok)} sandbox: ${s.sandbox.detail}`,
    `  audit log: ${s.audit.entries} entries in ${s.audit.log}`,
    `  schedule: ${s.schedule.jobs} job(s)${s.schedule.next ? `, next ${s.schedule.next.name} at ${s.schedule.next.at}` : ''}, ${s.schedule.held} notification(s) held`,
    `${{ ok: '✓', warn: '!', fail: '✗' }[s.config.status]} config: ${s.config.detail}`,
    ...(s.config.fix ? [`    fix: ${s.config.fix}`] : []),
  ];
}

/** `agent token`, `agent status`, and `agent serve` listed for --help (bin.ts routes it to gateway/main.ts). */
function registerGatewayCommands(agent: Command): void {
  agent
    .command('token')
    .description(agentToken.summary)
    .action(async (_o: unknown, cmd: Command) => {
      const r = await agentToken.run(setupContext(cmd), cliInput(agentToken, {}));
      emit(globals(cmd), r, () => [
        r.rotated ? 'New gateway token (the old one no longer works):' : 'Gateway token:',
        `  ${r.token}`,
        'It is shown this once and stored only as a bcrypt hash: keep it in your password manager.',
        'Send it as Authorization: Bearer <token>, never in a URL.',
      ]);
    });
  agent
    .command('status')
    .description(agentStatus.summary)
    .action((_o: unknown, cmd: Command) => {
      const r = agentStatus.run(setupContext(cmd), cliInput(agentStatus, {}));
      emit(globals(cmd), r, () => statusLines(r));
      // A config the agent cannot start with is a failure, as `agent chat` and `agent serve` say it is.
      if (r.config.status === 'fail') process.exitCode = 1;
    });
  agent
    .command('serve')
    .description('Serve the HTTP gateway on 127.0.0.1 (chat, confirmations, status; bearer token); Ctrl-C stops it')
    .option('--port <n>', 'port on 127.0.0.1; 0 picks a free one (default: 7423)')
    .option('--host <address>', 'only 127.0.0.1 is served; any other address is refused');
  // Listed for --help; bin.ts routes it to telegram/main.ts.
  agent.command('telegram').description('Run the Telegram bot (long polling; agent.telegram in config.json); Ctrl-C stops it');
}

export function registerAgentCommands(program: Command): void {
  const agent = program.command('agent').description('The personal agent: its workspace, sandboxed tools and audit log');

  agent
    .command('init')
    .description(agentInit.summary)
    .action((_o: unknown, cmd: Command) => {
      const r = agentInit.run(setupContext(cmd), cliInput(agentInit, {}));
      emit(globals(cmd), r, () => [
        r.created.length ? `Created in ${r.workspace}:` : `The workspace ${r.workspace} is complete; nothing was created.`,
        ...r.created.map((p) => `  + ${p}`),
        ...(r.created.length && r.existing.length ? [`Kept as they were: ${r.existing.join(', ')}`] : []),
        r.sandbox.ok ? `✓ sandbox: ${r.sandbox.detail}` : `! sandbox: ${r.sandbox.detail}\n    fix: ${r.sandbox.fix}`,
        ...(r.sandbox.note ? [`! ${r.sandbox.note}`] : []),
      ]);
    });

  agent
    .command('audit')
    .description(agentAudit.summary)
    .option('--verify', 'check the hash chain; exit 1 and name the first broken line when it does not hold')
    .option('--limit <n>', 'how many of the newest entries to show (default: 20)')
    .action((o: Options, cmd: Command) => {
      const r = agentAudit.run(setupContext(cmd), cliInput(agentAudit, { verify: !!o.verify, limit: num(stringOption(o, 'limit')) }));
      emit(globals(cmd), r, () => auditLines(r));
      if (r.verify && !r.verify.ok) process.exitCode = 1;
    });

  registerGatewayCommands(agent);
  registerAgentBrainCommands(agent);
  registerAgentTeamCommands(agent);
  registerScheduleCommands(agent);
}
