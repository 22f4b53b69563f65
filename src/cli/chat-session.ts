/**
 * The terminal conversation behind `homunculus agent chat`: lines in, the answer streamed
 * out, each tool call shown as it starts and ends, and a y/N question for a dangerous tool.
 * With no terminal to ask (stdin is a pipe or a file) the answer is no, unless the person
 * asked for answers from stdin (--stdin-answers): a script must opt in to saying yes.
 */
import { createInterface } from 'node:readline';
import type { AgentRunner, ToolCallView, TurnResult } from '../agent/runner.js';
import { agentConfirm, agentTurn } from '../app/agent-brain.js';
import { invoke } from '../app/operation.js';
import { showInvisible, withoutControls } from '../core/text.js';

export interface ChatIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** A person at a terminal: prompts are shown and questions asked. */
  interactive: boolean;
  /** Read confirmation answers from stdin even without a terminal. */
  stdinAnswers: boolean;
}

const cut = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** How a tool call is shown: → when it starts, ← with its output, ✗ when refused. Pure. */
export function toolLine(v: ToolCallView): string {
  if (v.refused !== undefined) return `  ✗ ${v.tool}: ${cut(v.refused)}`;
  if (v.output !== undefined) return `  ← ${v.tool}: ${cut(v.output.replace(/\s+/g, ' '))}`;
  return `  → ${v.tool} ${cut(JSON.stringify(v.input) ?? '')}`;
}

/** The line after an answer: the agent, route, model, tokens, cost. Pure. */
/** The footer of a turn: `usage` is the whole turn's, every part before a confirmation included (default: the result's). */
export function usageLine(r: TurnResult, usage: TurnResult['usage'] = r.usage): string {
  return `  ${r.agent ? `[${r.agent}] ` : ''}(${r.route}${r.model ? ` ${r.model}` : ''} · ${usage.inputTokens} in / ${usage.outputTokens} out tokens · $${usage.costUsd.toFixed(4)})`;
}

/** What /help shows: the commands the chat handles itself or passes to the router. */
export const CHAT_HELP = [
  'Each line is a message for the agent. Commands:',
  '  /escalate  every message goes to the remote model (within the budget)',
  '  /local     every message stays on the local model',
  '  /auto      the router chooses again',
  '  /help      this list',
  '  /quit      end the conversation (so does end of input); Ctrl-C cancels an answer being written',
].join('\n');

/** A turn that failed for a reason other than the person cancelling it (Ctrl-C). Pure. */
const failed = (err: unknown): boolean => (err as { code?: string }).code !== 'cancelled';

/** Lines from the input as promises: the chat and its questions read the same queue. */
export function lineQueue(io: ChatIo) {
  const rl = createInterface({ input: io.input, ...(io.interactive ? { output: io.output, terminal: true } : {}) });
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let closed = false;
  rl.on('line', (l) => (waiting.length ? waiting.shift()?.(l) : lines.push(l)));
  rl.on('close', () => {
    closed = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  return {
    rl,
    next: (prompt = ''): Promise<string | undefined> => {
      if (io.interactive && prompt) io.output.write(prompt);
      if (lines.length) return Promise.resolve(lines.shift());
      if (closed) return Promise.resolve(undefined);
      return new Promise((done) => waiting.push(done));
    },
    /**
     * An answer typed after the question: at a terminal, lines typed ahead (before it was shown)
     * are dropped, as nobody had read it yet. Cancelling (Ctrl-C) answers nothing at once.
     */
    answer: (signal: AbortSignal): Promise<string | undefined> => {
      if (io.interactive) lines.length = 0;
      if (lines.length) return Promise.resolve(lines.shift());
      if (closed || signal.aborted) return Promise.resolve(undefined);
      return new Promise((done) => {
        const waiter = (line: string | undefined) => (signal.removeEventListener('abort', cancel), done(line));
        const cancel = () => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          done(undefined);
        };
        waiting.push(waiter);
        signal.addEventListener('abort', cancel, { once: true });
      });
    },
  };
}

/** What a piped answer line was taken for, when it was neither y nor n (a message meant for the chat is not lost unseen). */
function answerNote(answer: string | undefined): string {
  if (answer === undefined) return ' (nobody can answer here, so no)';
  return /^\s*(y(es)?|no?)?\s*$/i.test(answer) ? '' : ` (read ${JSON.stringify(answer.slice(0, 80))} as the answer: not a yes)`;
}

/** Runs the conversation; resolves to how many turns failed (the model unreachable, a configuration error). */
export async function chatSession(runner: AgentRunner, io: ChatIo, session: string): Promise<number> {
  let failures = 0;
  const queue = lineQueue(io);
  // Whether the last thing written ended its line: a tool line after streamed words (a handoff's
  // first agent ending without a newline) starts on a line of its own.
  let midLine = false;
  const say = (text: string) => {
    if (text) midLine = !text.endsWith('\n');
    io.output.write(text);
  };
  let running: AbortController | undefined;
  // Ctrl-C cancels the answer being written; at the prompt it ends the chat.
  queue.rl.on('SIGINT', () => (running ? running.abort() : queue.rl.close()));
  if (io.interactive) say('Chatting with the agent. /escalate, /local, /auto change the model; /help lists the commands; /quit ends.\n');
  for (;;) {
    const line = await queue.next('you> ');
    if (line === undefined || line.trim() === '/quit') break;
    if (!line.trim()) continue;
    if (line.trim() === '/help') {
      say(`${CHAT_HELP}\n`);
      continue;
    }
    running = new AbortController();
    const hooks = {
      signal: running.signal,
      // The model's text as words: an escape in it could hide the y/N question or fake one.
      onText: (d: string) => say(withoutControls(d)),
      onToolCall: (v: ToolCallView) => say(`${midLine ? '\n' : ''}${toolLine(v)}\n`),
    };
    try {
      const ctx = { runner, hooks };
      let result = await invoke(agentTurn, ctx, { session, message: line });
      const spent = { ...result.usage };
      while (result.pending) {
        const p = result.pending;
        // The whole input, however long: a yes to a cut one would approve text nobody saw.
        // Characters that show nothing (or reverse the text) are shown as escapes: a disguised path or command would otherwise pass.
        say(`\n  ? ${p.tool} ${showInvisible(JSON.stringify(p.input) ?? '')} needs your yes. Run it? [y/N] `);
        const answer = io.interactive || io.stdinAnswers ? await queue.answer(running.signal) : undefined;
        const yes = /^\s*y(es)?\s*$/i.test(answer ?? '');
        if (!io.interactive) say(`${yes ? 'y' : 'N'}${answerNote(answer)}\n`);
        // Nobody to ask is not a person's no: the model is told which it was.
        result = await invoke(agentConfirm, ctx, { id: p.id, answer: answer === undefined ? 'unattended' : yes ? 'yes' : 'no' });
        spent.inputTokens += result.usage.inputTokens;
        spent.outputTokens += result.usage.outputTokens;
        spent.costUsd += result.usage.costUsd;
      }
      if (!result.text && !result.toolCalls.length) say('(no answer)');
      // A command such as /local calls no model: there is no usage to show.
      say(result.model ? `\n${usageLine(result, spent)}\n` : '\n');
    } catch (err) {
      const e = err as Error & { hint?: string };
      if (failed(err)) failures++;
      say(`\n! ${e.message}${e.hint ? `\n  fix: ${e.hint}` : ''}\n`);
    } finally {
      running = undefined;
    }
  }
  queue.rl.close();
  return failures;
}
