/** `homunculus agent agents` and `agent skills`: the personas and skills of the workspace, and why any was skipped. */
import type { Command } from 'commander';
import type { Skipped } from '../../agent/persona.js';
import { type AgentsReport, agentAgents, agentSkills } from '../../app/agent-team.js';
import { globals } from '../context.js';
import { emit, table } from '../output.js';
import { cliInput } from '../run.js';
import { setupContext } from './install.js';
import { counted } from '../../core/text.js';

const skippedLines = (skipped: Skipped[]): string[] => skipped.map((s) => `! skipped ${s.name}: ${s.reason}`);

function agentLines(r: AgentsReport): string[] {
  return [
    ...table([
      ['agent', 'model', 'tools', 'keywords', 'description'],
      ...r.agents.map((a) => [a.name, a.model, a.tools ? a.tools.join(', ') : 'all', a.keywords.join(', '), a.description]),
    ]),
    ...r.agents
      .filter((a) => a.unknownTools.length)
      .map((a) => `! ${a.name} names tools that do not exist (ignored): ${a.unknownTools.join(', ')}`),
    ...skippedLines(r.skipped),
  ];
}

export function registerAgentTeamCommands(agent: Command): void {
  agent
    .command('agents')
    .description(agentAgents.summary)
    .action((_o: unknown, cmd: Command) => {
      const r = agentAgents.run(setupContext(cmd), cliInput(agentAgents, {}));
      emit(globals(cmd), r, () => agentLines(r));
    });
  agent
    .command('skills')
    .description(agentSkills.summary)
    .action((_o: unknown, cmd: Command) => {
      const r = agentSkills.run(setupContext(cmd), cliInput(agentSkills, {}));
      emit(globals(cmd), r, () => [
        r.skills.length ? `${counted(r.skills.length, 'skill')} loaded:` : 'No skills loaded (workspace/skills/<name>/SKILL.md).',
        ...r.skills.map(
          (s) =>
            `  ${s.name}: ${s.description} (triggers: ${s.triggers.join(', ')}${s.tools.length ? `; tools: ${s.tools.join(', ')}` : ''})`,
        ),
        ...skippedLines(r.skipped),
      ]);
    });
}
