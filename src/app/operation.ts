/**
 * Application operations: one per use case, each with one zod input schema. Every surface
 * (the CLI, the hooks, the MCP server, and the dashboard and agent to come) calls the same
 * operation, so what a user or an agent may send is validated in one place.
 */
import type { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { isObj } from '../core/fields.js';
import type { Store } from '../store/store.js';

export interface AppContext {
  store: Store;
  env: NodeJS.ProcessEnv;
  /** Warnings a surface shows its user (stderr for the CLI); never the result itself. */
  warn?: (message: string) => void;
  /** A progress display for long work (the CLI's bar on a terminal); absent means none. */
  progress?: (label: string) => Progress;
}

export interface Progress {
  update(done: number, total?: number): void;
  finish(): void;
}

/** `C` is what the operation runs against: the store for most, the home and the user's directories for setup. */
export interface Operation<S extends z.ZodType, R, C = AppContext> {
  /** Stable name, e.g. `instincts.observe`. */
  name: string;
  /** One line: what the operation does. */
  summary: string;
  input: S;
  run(ctx: C, input: z.output<S>): R;
}

export function defineOperation<S extends z.ZodType, R, C = AppContext>(op: Operation<S, R, C>): Operation<S, R, C> {
  return op;
}

/** One problem with an input: the field's path (dotted), what is wrong with it, and what was sent. */
interface InputIssue {
  path: string;
  message: string;
  input?: unknown;
}

/** What was sent, quoted, and cut short: an error message never repeats a megabyte of input. */
function got(issue: InputIssue): string {
  // A whole object is what a cross-field rule sees; repeating it says nothing about the field.
  if (issue.input === undefined || isObj(issue.input)) return '';
  const text = JSON.stringify(issue.input) ?? String(issue.input);
  return `, got ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

/**
 * An issue in words: its field, then what is wrong. A rule across fields (no path) names them
 * itself as {field}, so each surface says them in its own words ("neither --trigger nor --action").
 */
function described(issue: InputIssue, fieldName: (path: string) => string): string {
  if (issue.path === '' && /\{\w+\}/.test(issue.message))
    return issue.message.replace(/\{(\w+)\}/g, (_, field: string) => fieldName(field));
  return `${fieldName(issue.path) || 'the input'} ${issue.message}${got(issue)}`;
}

/** Input an operation refused; surfaces rename `path` to their own vocabulary (a CLI flag, an MCP argument). */
export class InputError extends UsageError {
  constructor(
    readonly operation: string,
    readonly issues: readonly InputIssue[],
    readonly fieldName: (path: string) => string = (p) => p,
  ) {
    // A value may break several rules that say the same words (1e308 is neither whole nor in range): said once.
    super(`${[...new Set(issues.map((i) => described(i, fieldName)))].join('; ')}.`);
    this.name = 'InputError';
  }

  /** The same error in another surface's words (e.g. `minEvidence` -> `--min-evidence`). */
  renamed(fieldName: (path: string) => string): InputError {
    return new InputError(this.operation, this.issues, fieldName);
  }
}

/** Validates `raw` against the operation's schema, then runs it. */
export function invoke<S extends z.ZodType, R, C>(op: Operation<S, R, C>, ctx: C, raw: z.input<S>): R {
  return op.run(ctx, parseInput(op, raw));
}

export function parseInput<S extends z.ZodType, R, C>(op: Operation<S, R, C>, raw: unknown): z.output<S> {
  const parsed = op.input.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new InputError(op.name, issuesOf(parsed.error));
}

/** A zod error's issues, each with its dotted path and (when reported) what was sent. */
export function issuesOf(error: z.ZodError): InputIssue[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
    ...('input' in i ? { input: i.input } : {}),
  }));
}
