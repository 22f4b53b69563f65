/** `homunculus agent chat` (a terminal conversation) and `agent budget` (today's spend). */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { BudgetReport } from '../../agent/budget.js';
import { UsageError } from '../../core/errors.js';
import { agentBudget, agentTurnInput, openAgent } from '../../app/agent-brain.js';
import { chatSession } from '../chat-session.js';
import { globals, withCommandStore } from '../context.js';
import { table } from '../output.js';
import { usd } from '../../core/text.js';
import { type Options, runOperation } from '../run.js';

function budgetLines(r: BudgetReport): string[] {
  const lines = [
    `Budget for ${r.day} (UTC): ${usd(r.spentUsd)} of ${usd(r.dailyUsd)} spent, ${usd(r.remainingUsd)} left; resets at ${r.resetsAt}.`,
    `Prices: $${r.prices.inputPerMTok} / $${r.prices.outputPerMTok} per million input / output tokens (remote model; local calls cost nothing).`,
  ];
  if (r.exhausted) lines.push('! Spent: the local model answers everything until the reset.');
  if (!r.models.length) lines.push('No model calls today.');
  else
    lines.push(
      ...table([
        ['route', 'provider', 'model', 'calls', 'input tokens', 'output tokens', 'cost'],
        ...r.models.map((m) => [
          m.route,
          m.provider,
          m.model,
          String(m.calls),
          String(m.input_tokens),
          String(m.output_tokens),
          usd(m.cost_usd),
        ]),
      ]).map((l) => `  ${l}`),
    );
  return lines;
}

export function registerAgentBrainCommands(agent: Command): void {
  agent
    .command('chat')
    .description('Talk with the personal agent in the terminal: streamed answers, tool calls shown, y/N before a dangerous tool')
    .option('--session <id>', 'continue under this session id (default: chat-<time>)')
    .option('--stdin-answers', 'without a terminal, read y/N answers from stdin (otherwise every confirmation is no)')
    .action(async (o: Options, cmd: Command) => {
      const g = globals(cmd);
      if (g.json)
        throw new UsageError('agent chat is a conversation: it has no --json output.', 'Drop --json; use the gateway for machine access.');
      // A session id every turn would refuse is said now, before any model is started.
      const named = typeof o.session === 'string' ? agentTurnInput.shape.session.safeParse(o.session) : undefined;
      if (named && !named.success) throw new UsageError(`--session ${named.error.issues[0]?.message ?? 'is not a session id'}.`);
      await withCommandStore(cmd, async (store) => {
        // Its tools work in the workspace: without one every file or shell call fails, said now rather than at the first tool.
        const workspace = store.paths.workspace;
        if (!existsSync(workspace))
          process.stderr.write(
            `! The workspace ${workspace} does not exist: the agent's file and shell tools will fail. Run \`homunculus agent init\`.\n`,
          );
        const agent = openAgent({ store, env: process.env });
        const session =
          typeof o.session === 'string'
            ? o.session
            : `chat-${store.clock
                .now()
                .toISOString()
                .replace(/[^0-9]/g, '')
                .slice(0, 14)}`;
        const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
        try {
          const failures = await chatSession(
            agent.runner,
            { input: process.stdin, output: process.stdout, interactive, stdinAnswers: o.stdinAnswers === true },
            session,
          );
          // Like `mind chat`: a script learns that a turn failed (the model unreachable, a missing key).
          if (failures) process.exitCode = 1;
        } finally {
          await agent.close();
        }
      });
    });

  agent
    .command('budget')
    .description(agentBudget.summary)
    .action(async (_o: unknown, cmd: Command) => {
      await runOperation(cmd, agentBudget, {}, (r) => budgetLines(r));
    });
}
