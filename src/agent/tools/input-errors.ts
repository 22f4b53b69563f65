/**
 * What a model is told when a tool's input does not fit: one plain sentence per problem
 * (which argument, what is expected) and the arguments the tool takes, instead of zod's
 * issue dump, which a small model tends to repeat rather than fix.
 */
import { z } from 'zod';

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** What a value is, in words ("a number", "a list", "null"). Pure. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return article(typeof value);
}

/** One zod issue as a sentence about the argument it names. Pure. */
function issueText(tool: string, issue: z.core.$ZodIssue): string {
  const at = issue.path.map(String).join('.');
  const name = at ? `\`${at}\`` : 'the input';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `\`${k}\``).join(', ');
    return `${keys} ${issue.keys.length > 1 ? 'are not arguments' : 'is not an argument'} of ${tool}`;
  }
  if (issue.code === 'invalid_type')
    return issue.input === undefined
      ? `${name} is missing (${article(issue.expected)})`
      : `${name} must be ${article(issue.expected)}, not ${kindOf(issue.input)}`;
  return `${name}: ${issue.message.replace(/^Invalid input:?\s*/, '') || 'not a valid value'}`;
}

/** A JSON Schema property's type in a few words ("string", "0|1|2", "list"). Pure. */
function typeOf(schema: Record<string, unknown>): string {
  if (typeof schema.type === 'string') return schema.type === 'array' ? 'list' : schema.type;
  const options = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (options) return options.map((o) => ('const' in o ? JSON.stringify(o.const) : typeOf(o))).join('|');
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  return 'value';
}

/** "text (string), append (boolean, optional)": the arguments `schema` takes. Pure. */
export function argumentList(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const entries = Object.entries(json.properties ?? {});
  if (!entries.length) return 'no arguments ({})';
  const required = new Set(json.required ?? []);
  return entries.map(([key, s]) => `${key} (${typeOf(s)}${required.has(key) ? '' : ', optional'})`).join(', ');
}

/** The model's error for input `tool` refused: each problem, then the arguments it takes. Pure. */
export function inputProblem(tool: { name: string; input: z.ZodType }, error: z.ZodError): { error: string; hint: string } {
  const problems = error.issues.map((i) => issueText(tool.name, i)).join('; ');
  return { error: `Bad input for ${tool.name}: ${problems}.`, hint: `${tool.name} takes: ${argumentList(tool.input)}.` };
}
