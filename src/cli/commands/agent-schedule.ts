/** `homunculus agent schedule add|list|remove|enable|disable|run`: the agent's scheduled jobs. */
import type { Command } from 'commander';
import { scheduleAdd, scheduleList, scheduleEnable, scheduleRemove, scheduleRun } from '../../app/agent-schedule.js';
import type { AgentJob } from '../../store/schedule.js';
import { table } from '../output.js';
import { type Options, runOperation, stringOption } from '../run.js';

/** The job's name is a positional argument, not an option: errors call it so. */
const NAMES = { names: { name: 'The job name' } };

const what = (j: AgentJob): string => (j.action === 'heartbeat' ? 'heartbeat (HEARTBEAT.md)' : `message: ${j.message}`);

function jobLines(jobs: AgentJob[]): string[] {
  if (!jobs.length)
    return ['No scheduled jobs. Add one: homunculus agent schedule add news --cron "0 8 * * *" --message "Summarise the news"'];
  return table([
    ['name', 'cron', 'time zone', 'missed', 'last run', 'next run', 'does'],
    ...jobs.map((j) => [j.name, j.cron, j.time_zone, j.missed, j.last_run ?? '-', j.enabled ? (j.next_run ?? '-') : 'disabled', what(j)]),
  ]);
}

export function registerScheduleCommands(agent: Command): void {
  const schedule = agent.command('schedule').description("The agent's scheduled jobs: cron expressions in a time zone");
  schedule
    .command('add <name>')
    .description(scheduleAdd.summary)
    .requiredOption('--cron <expression>', 'five fields: minute hour day month weekday, e.g. "0 9 * * 1-5"')
    .option('--time-zone <zone>', "IANA zone, e.g. Europe/Paris (default: agent.quietHours.timeZone, else this machine's)")
    .option('--message <text>', 'what the agent is asked each run')
    .option('--heartbeat', 'run the tasks of workspace/HEARTBEAT.md instead of a message')
    .option('--missed <policy>', 'a run missed while serve was down: run-once (on start) or skip (default: run-once)')
    .action(async (name: string, o: Options, cmd: Command) => {
      const raw = {
        name,
        cron: stringOption(o, 'cron'),
        timeZone: stringOption(o, 'timeZone'),
        message: stringOption(o, 'message'),
        heartbeat: o.heartbeat === true,
        missed: stringOption(o, 'missed'),
      };
      await runOperation(cmd, scheduleAdd, raw, (j) => [`Scheduled ${j.name}: ${what(j)}`, `  next run: ${j.next_run ?? 'never'}`], NAMES);
    });
  schedule
    .command('list')
    .description(scheduleList.summary)
    .action(async (_o: unknown, cmd: Command) => runOperation(cmd, scheduleList, {}, jobLines));
  schedule
    .command('remove <name>')
    .description(scheduleRemove.summary)
    .action(async (name: string, _o: unknown, cmd: Command) =>
      runOperation(cmd, scheduleRemove, { name }, (r) => `Removed ${r.removed}.`, NAMES),
    );
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    schedule
      .command(`${verb} <name>`)
      .description(enabled ? 'Turn a job back on' : 'Turn a job off without removing it (it neither runs nor counts as missed)')
      .action(async (name: string, _o: unknown, cmd: Command) =>
        runOperation(
          cmd,
          scheduleEnable,
          { name, enabled },
          (r) =>
            r.enabled
              ? `Enabled ${r.name}. Next run: ${r.next_run ?? 'never'}.`
              : `Disabled ${r.name}. It will not run until enabled again.`,
          NAMES,
        ),
      );
  schedule
    .command('run <name>')
    .description(scheduleRun.summary)
    .action(async (name: string, _o: unknown, cmd: Command) =>
      runOperation(cmd, scheduleRun, { name }, (r) => (r.note ? r.note : r.results.map((n) => `[${n.source}] ${n.text}`)), {
        ...NAMES,
        // A job or task that failed is a failed command, for scripts and cron alike.
        exitCode: (r) => (r.results.some((n) => n.failed) ? 1 : 0),
      }),
    );
}
