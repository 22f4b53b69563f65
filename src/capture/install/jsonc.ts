/**
 * Settings files with comments and trailing commas (Gemini CLI reads its settings.json that
 * way): read as JSON with comments, and edited in place so that every comment outside the
 * values we change stays where the user wrote it.
 */
import { type FormattingOptions, type JSONPath, applyEdits, modify, parse, printParseErrorCode } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';

/** Whether a text is plain JSON (then it is written back the plain way). */
export function isStrictJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Line and column of an offset, 1-based, as an editor shows them. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** The value of a JSON text that may hold comments and trailing commas; throws on anything else. */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Comments, trailing commas, or a real error: read leniently, and say where it is wrong.
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  // "CommaExpected" reads as "comma expected".
  const what = (code: string): string => code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
  if (first) throw new SyntaxError(`${what(printParseErrorCode(first.error))} at ${position(text, first.offset)}`);
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface Change {
  path: JSONPath;
  value: unknown;
  insert?: boolean;
}

/** `before` is `after` with some items left out: their indexes, or undefined when it is not. */
function removedIndexes(before: unknown[], after: unknown[]): number[] | undefined {
  const removed: number[] = [];
  let j = 0;
  before.forEach((item, i) => {
    if (j < after.length && same(item, after[j])) j++;
    else removed.push(i);
  });
  return j === after.length ? removed : undefined;
}

/** The smallest edits that turn `before` into `after`: keys and array items, never a whole object that is only partly new. */
function changes(before: unknown, after: unknown, path: JSONPath): Change[] {
  if (same(before, after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => (k in after ? changes(before[k], after[k], [...path, k]) : [{ path: [...path, k], value: undefined }]));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    // Items added at the end, or some taken out: the user's items (and their comments) stay.
    if (after.length > before.length && same(after.slice(0, before.length), before))
      return after.slice(before.length).map((value, i) => ({ path: [...path, before.length + i], value, insert: true }));
    const removed = removedIndexes(before, after);
    if (removed) return removed.reverse().map((i) => ({ path: [...path, i], value: undefined }));
    if (before.length === after.length) return after.flatMap((item, i) => changes(before[i], item, [...path, i]));
  }
  return [{ path, value: after }];
}

/** `text` (JSON with comments) edited to hold `after`, comments kept; `indent` as the file has it. */
export function editJsonc(text: string, after: unknown, indent: string): string {
  const formattingOptions: FormattingOptions = {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  return changes(parseJsonc(text), after, []).reduce(
    (t, c) => applyEdits(t, modify(t, c.path, c.value, { formattingOptions, isArrayInsertion: c.insert === true })),
    text,
  );
}
