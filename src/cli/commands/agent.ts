/** `homunculus agent ...`: the personal agent. This part: init (its workspace) and audit (its log). */
import type { Command } from 'commander';
import { type AuditReport, agentAudit, agentInit } from '../../app/agent.js';
import { globals } from '../context.js';
import { emit, table } from '../output.js';
import { type Options, cliInput, num, stringOption } from '../run.js';
import { registerAgentBrainCommands } from './agent-chat.js';
import { setupContext } from './install.js';

function auditLines(r: AuditReport): string[] {
  const lines: string[] = [];
  if (r.total === 0) lines.push(`The audit log is empty (${r.log}).`);
  else {
    lines.push(`${r.total} entries in ${r.log}${r.entries.length < r.total ? `, the last ${r.entries.length}:` : ':'}`);
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
  }
  if (r.verify?.ok)
    lines.push(`✓ verified: ${r.verify.entries} entries, each chained to the one before, none changed, inserted or removed.`);
  for (const p of r.verify?.problems ?? []) lines.push(`✗ ${p.problem}`);
  return lines;
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

  registerAgentBrainCommands(agent);
}
