/** The seed's data, exactly: values, goals and memories, validated with zod on every read and write. */
import { z } from 'zod';

const weight = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const valueSchema = z.object({ name: z.string().min(1), weight, status: z.enum(['active', 'deprecated']) }).strict();
/** A mind has values: reflection keeps one it drops as deprecated, so an empty list is a broken file, not a state. */
export const valuesSchema = z.array(valueSchema).min(1, 'must hold at least one value');

export const goalSchema = z.object({ name: z.string().min(1), weight, status: z.enum(['todo', 'working', 'done', 'perpetual']) }).strict();
export const goalsSchema = z.array(goalSchema);

export const AUTHORS = ['self', 'kernel', 'goal', 'external'] as const;
export const memorySchema = z
  .object({
    timestamp: z.iso.datetime({ offset: true }),
    author: z.enum(AUTHORS),
    weight,
    situation: z.string(),
    description: z.string(),
  })
  .strict();

export type Value = z.infer<typeof valueSchema>;
export type Goal = z.infer<typeof goalSchema>;
export type Memory = z.infer<typeof memorySchema>;
export type Author = Memory['author'];

/** Where a zod issue is, in words, and what is wrong there: entries count from 1 ("values, entry 2, weight"). */
export function issueText(error: z.ZodError): { where: string; message: string } {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map((p) => (typeof p === 'number' ? `entry ${p + 1}` : String(p)));
  return { where: path.length ? path.join(', ') : 'the document', message: issue?.message ?? 'invalid' };
}
