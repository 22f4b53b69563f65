/** `homunculus mind init|about`: the self-evolving mind of seed 004. */
import type { Command } from 'commander';
import { createInterface } from 'node:readline';
import { type MindAbout, type MindContext, mindAbout, mindCommit, mindInit } from '../../app/mind.js';
import { type ChatTurn, mindChatTurn, mindRun, mindTrigger } from '../../app/mind-loops.js';
import { UsageError } from '../../core/errors.js';
import { reportError } from '../../core/report.js';
import type { LoopReport } from '../../mind/loops.js';
import { resolveHome } from '../../core/paths.js';
import { counted, truncate, withoutControls } from '../../core/text.js';
import type { Memory } from '../../mind/schemas.js';
import { globals } from '../context.js';
import { emit, table } from '../output.js';
import { cliInput, num, type Options, stringOption } from '../run.js';

const mindContext = (cmd: Command): MindContext => ({
  home: resolveHome(globals(cmd).home),
  env: process.env,
  note: (text) => process.stderr.write(`homunculus: ${text}\n`),
});

const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** One memory, one line: its time to the second (UTC), author and weight, situation and description. */
const memoryLine = (m: Memory): string =>
  `${m.timestamp.slice(0, 19).replace('T', ' ')}Z  ${m.author}, weight ${m.weight}  ${flat(m.situation)}: ${flat(m.description)}`;

// What the model wrote (the soul, memories, outcomes, replies) is printed as words: an escape in it would act on the terminal.
function aboutLines(r: MindAbout): string[] {
  return [
    `Mind in ${r.root}`,
    '',
    r.soul.trim() || '(soul.md is empty)',
    '',
    'Values:',
    ...(r.values.length
      ? table(r.values.map((v) => [v.name, String(v.weight), v.status])).map((l) => `  ${l}`)
      : [r.valuesMissing ? '  none: data/values.json is missing (homunculus mind init puts the template back)' : '  none']),
    'Goals:',
    ...(r.goals.length ? table(r.goals.map((g) => [g.name, String(g.weight), g.status])).map((l) => `  ${l}`) : ['  none this year']),
    `Skills: ${r.skills.join(', ') || 'none'}`,
    `Memories: ${Object.entries(r.memoryCounts)
      .map(([a, n]) => `${a} ${n}`)
      .join(', ')}`,
    ...(r.lastChoice ? [`Last choice: ${r.lastChoice}`] : []),
    ...(r.reflectionDue.length
      ? ['Reflection due:', ...r.reflectionDue.map((x) => `  ${x.kind}: ${truncate(x.detail, 160)}`)]
      : r.reflectionWaits
        ? [`Reflection due: the last one failed; tried again after ${counted(r.reflectionWaits, 'more action or explore cycle')}`]
        : ['Reflection due: no']),
    ...(r.memories ? ['', ...(r.memories.length ? r.memories.map(memoryLine) : ['No memory matches.'])] : []),
  ].map(withoutControls);
}

/** What a cycle did: its steps, the choice and outcome of an action, what changed, what was refused, or why it failed. */
function reportLines(r: LoopReport): string[] {
  // No step answered: the model failed or could not be reached.
  if (r.failure && r.steps.length === 0) return [`The ${r.loop} loop could not run: ${r.failure}`];
  const changed = r.writes.filter((w) => w.result.done && w.result.changed).map((w) => w.what);
  const same = r.writes.filter((w) => w.result.done && !w.result.changed).map((w) => w.what);
  return [
    `The ${r.loop} loop ran: ${r.steps.map((s) => s.step).join(' → ')}`,
    ...(r.refusedCandidates ?? []).map((why) => `  refused candidate ${why}`),
    ...(r.choice ? [`  ${r.choice}`] : []),
    ...(r.outcome !== undefined ? [`  ${r.skillRan ? 'outcome' : 'no outcome'}: ${truncate(flat(r.outcome), 200)}`] : []),
    ...(changed.length ? [`  wrote ${changed.join(', ')}`] : []),
    ...(same.length ? [`  unchanged ${same.join(', ')}`] : []),
    ...r.writes.flatMap((w) => (w.result.done ? [] : [`  refused ${w.what}: ${w.result.refused}`])),
    ...(r.failure ? [`  failed: ${r.failure} (a larger model follows the prompts' JSON answers better)`] : []),
  ].map(withoutControls);
}

const changes = (r: LoopReport): string[] =>
  r.writes.flatMap((w) => (w.result.done && w.result.changed ? [w.result.detail ? `${w.what} (${w.result.detail})` : w.what] : []));

const CHAT_HELP = 'Each line you type is a situation for the action loop; the chat skill answers. /exit (or end of input) stops.';

/** Each line runs the action loop; the chosen skill's output (the chat skill's reply) is the answer. With --json, one JSON line per turn. */
async function chat(cmd: Command): Promise<void> {
  const ctx = mindContext(cmd);
  const json = globals(cmd).json === true;
  const tty = process.stdin.isTTY === true && !json;
  const lines = createInterface({ input: process.stdin, output: tty ? process.stdout : undefined, terminal: tty });
  if (tty) {
    process.stdout.write(`${CHAT_HELP}\n`);
    lines.setPrompt('you> ');
    lines.prompt();
  }
  // Ctrl-C while a line waits for its answer abandons that turn; at the prompt it ends the chat. Each
  // line gets its cancel as it is typed: a Ctrl-C in the same keystrokes as the Enter must find it.
  const turns: AbortController[] = [];
  lines.on('line', () => turns.push(new AbortController()));
  lines.on('SIGINT', () => {
    const current = turns[0];
    if (current) current.abort();
    else lines.close();
  });
  for await (const line of lines) {
    const cancel = turns[0] ?? new AbortController();
    const text = line.trim();
    if (text === '/exit') break;
    if (text.startsWith('/') && !text.includes(' ')) chatCommand(text, json);
    else if (text) {
      const r = await turn({ ...ctx, cancel: cancel.signal }, text, json);
      // A failed model call fails the chat; a turn the person cancelled or a line refused (said already) does not.
      if (r && r.problem !== undefined && !cancel.signal.aborted) process.exitCode = 1;
      if (r && json) process.stdout.write(`${JSON.stringify(r)}\n`);
      else if (r) {
        const instead = r.problem !== undefined ? `(no answer: ${flat(r.problem)})` : `(no reply this turn: ${flat(r.did ?? '')})`;
        process.stdout.write(`${withoutControls(r.reply ?? instead)}\n`);
        const reflected = r.reflection ? changes(r.reflection) : [];
        if (r.reflection)
          process.stdout.write(`(reflected${reflected.length ? `: changed ${reflected.join(', ')}` : ', nothing changed'})\n`);
      }
    }
    turns.shift();
    if (tty) lines.prompt();
  }
  lines.close();
}

/** The chat's own /commands other than /exit: plain text, or one JSON line with --json. */
function chatCommand(text: string, json: boolean): void {
  const known = text === '/help';
  if (json) {
    const answer = known ? { help: CHAT_HELP } : { error: `Unknown command ${text}`, code: 'usage', hint: CHAT_HELP };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  } else process.stdout.write(known ? `${CHAT_HELP}\n` : `Unknown command ${text}. ${CHAT_HELP}\n`);
}

/** One chat turn; a line the turn refuses (too long) is reported as every error is, and the chat goes on. */
async function turn(ctx: MindContext, message: string, json: boolean): Promise<ChatTurn | undefined> {
  try {
    return await mindChatTurn.run(ctx, cliInput(mindChatTurn, { message }, { message: 'your line' }));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    reportError(err, json);
    return undefined;
  }
}

export function registerMindCommands(program: Command): void {
  const mind = program.command('mind').description('A self-evolving mind with a soul, values, goals and three loops (seed 004)');
  mind
    .command('init')
    .description(mindInit.summary)
    .action((_o: unknown, cmd: Command) => {
      const r = mindInit.run(mindContext(cmd), cliInput(mindInit, {}));
      emit(globals(cmd), r, () => [
        `Mind ready in ${r.root}`,
        `  created ${counted(r.created.length, 'file')}, kept ${r.kept.length}`,
        ...(r.commit ? [`  data/ committed to git: ${r.commit.slice(0, 12)}`] : []),
        '  next: homunculus mind about',
      ]);
    });
  mind
    .command('commit')
    .description(mindCommit.summary)
    .option('-m, --message <text>', 'the commit message (default: mind at <time>)')
    .action((o: Options, cmd: Command) => {
      const r = mindCommit.run(mindContext(cmd), cliInput(mindCommit, { message: stringOption(o, 'message') }));
      emit(globals(cmd), r, () =>
        r.commit ? `Committed data/: ${r.commit.slice(0, 12)}` : 'Nothing to commit: data/ is as last committed.',
      );
    });
  mind
    .command('about')
    .description(mindAbout.summary)
    .option('--memories', 'also show recent memories')
    .option('--author <author>', 'only memories by self, kernel, goal or external')
    .option('--date <YYYY-MM-DD>', "only that day's memories (a UTC day)")
    .option('--limit <n>', 'how many memories at most (default: 20)')
    .action((o: Options, cmd: Command) => {
      const input = cliInput(mindAbout, {
        memories: o.memories === true,
        author: stringOption(o, 'author'),
        date: stringOption(o, 'date'),
        limit: num(stringOption(o, 'limit')),
      });
      emit(globals(cmd), mindAbout.run(mindContext(cmd), input), aboutLines);
    });
  mind
    .command('trigger [loop]')
    .description(mindTrigger.summary)
    .option('--situation <text>', 'what the action loop responds to (default: pursue its goals)')
    .action(async (loop: string | undefined, o: Options, cmd: Command) => {
      const raw = { loop, situation: stringOption(o, 'situation') };
      const r = await mindTrigger.run(mindContext(cmd), cliInput(mindTrigger, raw, { loop: '<loop>' }));
      emit(globals(cmd), r, reportLines);
      // The cycle ran but the model's answer was not usable: nothing asked for was done.
      if (r.failure) process.exitCode = 1;
    });
  mind
    .command('chat')
    .description('A terminal conversation: each line you type runs the action loop (and reflection when due); /exit or end of input stops')
    .action(async (_o: unknown, cmd: Command) => chat(cmd));
  mind
    .command('run')
    .description(mindRun.summary)
    .option('--cycles <n>', 'stop after n cycles (default: until Ctrl-C)')
    .option(
      '--reflect-every <n>',
      'reflect at least after n action or explore cycles (2 to 1000, default: 5); deltas, conflicts and goals trigger it sooner',
    )
    .option('--interval <seconds>', 'pause between cycles (default: 60)')
    .action(async (o: Options, cmd: Command) => {
      const raw = {
        cycles: num(stringOption(o, 'cycles')),
        reflectEvery: num(stringOption(o, 'reflectEvery')),
        intervalSeconds: num(stringOption(o, 'interval')),
      };
      const input = cliInput(mindRun, raw, { intervalSeconds: '--interval' });
      const stop = new AbortController();
      // Ctrl-C: the cycle under way finishes (its writes are whole), then the loop stops.
      const onSignal = () => {
        if (!stop.signal.aborted) process.stderr.write('homunculus: stopping after the cycle under way (Ctrl-C again stops at once)\n');
        stop.abort();
      };
      process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
      const g = globals(cmd);
      const r = await mindRun.run(
        // With --json, one JSON line per cycle, then the summary.
        { ...mindContext(cmd), signal: stop.signal, onCycle: (c) => console.log(g.json ? JSON.stringify(c) : reportLines(c).join('\n')) },
        input,
      );
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      console.log(
        g.json ? JSON.stringify(r) : `Stopped after ${counted(r.cycles, 'cycle')}${r.failed ? `, ${r.failed} of them failed` : ''}.`,
      );
      // Every cycle failed (no model, a broken prompt): a script running this must see it.
      if (r.cycles > 0 && r.failed === r.cycles) process.exitCode = 1;
    });
}
