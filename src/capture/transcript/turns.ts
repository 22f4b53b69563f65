/**
 * A session as searchable turns: each typed prompt with what followed it (the agent's answer,
 * the errors its calls hit, the commits it made), so a search finds what was said at any
 * point of a session, not only its opening. Pure functions; the import writes the documents.
 */
import { redact } from '../../core/redact.js';
import { commitMessage } from '../../core/shell.js';
import { headOf, tailOf, withoutControls } from '../../core/text.js';
import { authoredText } from '../../text/authored.js';
import type { NewObservation } from '../../store/observations.js';

export interface Turn {
  seq: number;
  ts: string;
  project: string;
  prompt: string;
  answer: string;
  errors: string[];
  commits: string[];
}

/** A turn's document text at most: its prompt, answer, errors and commits each get a share. */
const MAX_TURN_CHARS = 6_000;
const MAX_PROMPT_CHARS = 2_000;
const MAX_ANSWER_CHARS = 3_000;
const MAX_ERRORS = 5;

/** Collects a session's turns as its events arrive, in order. */
export class TurnCollector {
  private readonly list: Turn[] = [];

  prompt(text: string, ts: string, project: string): void {
    this.list.push({
      seq: this.list.length,
      ts,
      project,
      prompt: authoredText(withoutControls(text)),
      answer: '',
      errors: [],
      commits: [],
    });
  }

  tool(o: NewObservation): void {
    const turn = this.list.at(-1);
    if (!turn) return;
    if (o.outcome === 'error' && o.error && turn.errors.length < MAX_ERRORS) turn.errors.push(o.error);
    const message = o.tool === 'Bash' ? commitMessage(o.input ?? '') : undefined;
    if (message) turn.commits.push(message);
  }

  answer(text: string): void {
    const turn = this.list.at(-1);
    if (turn) turn.answer = text;
  }

  turns(): Turn[] {
    return this.list.filter((t) => t.prompt || t.answer);
  }
}

/** The searchable text of a turn, redacted: what was asked, answered, hit and committed. */
export function turnText(t: Turn): string {
  const parts = [
    headOf(t.prompt, MAX_PROMPT_CHARS),
    // The end of what the agent wrote is its conclusion.
    tailOf(t.answer, MAX_ANSWER_CHARS),
    ...t.errors.map((e) => `Error: ${e}`),
    ...t.commits.map((c) => `Commit: ${c}`),
  ].filter((p) => p.trim());
  const text = redact(parts.join('\n\n'));
  return headOf(text, MAX_TURN_CHARS);
}
