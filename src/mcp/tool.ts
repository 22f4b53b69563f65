/**
 * Tools are declared as plain data (types first): a name, a description under 2 KB, zod
 * input and output schemas, annotations, and a handler that returns the documented object.
 * The server turns each into structuredContent mirrored as JSON text.
 */
import type { z } from 'zod';
import { type Operation, invoke } from '../app/operation.js';
import type { Store } from '../store/store.js';

export interface ToolContext {
  store: Store;
  /** Fingerprint of the client's project, auto-detected from the server's working directory. */
  project: string;
  /** The client's project root (or the server's working directory): rule files are named in it. */
  root: string;
  /** Directories import_claude_md may read from: the root, the home, and any configured in config.json. */
  readRoots: readonly string[];
}

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  handler: (ctx: ToolContext, args: z.infer<I>) => z.infer<O> | Promise<z.infer<O>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodType>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const ADDITIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const IDEMPOTENT_WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Rewrites a file of the user's project (a rule file's marked block): the same call twice changes nothing more. */
export const FILE_WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** Runs an application operation for a tool call: the operation validates what the agent sent. */
export function call<S extends z.ZodType, R>(op: Operation<S, R>, ctx: ToolContext, input: z.input<S>): R {
  return invoke(op, { store: ctx.store, env: process.env }, input);
}
