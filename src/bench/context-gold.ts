/**
 * Scoring for bench:context: what the start and prompt hooks injected, line by line, against
 * what would have helped (bench/context-gold.json). A line names a gold pattern when the
 * pattern's match rule finds it; it is relevant when that pattern was expected there.
 */
import { z } from 'zod';

export const contextGoldFile = z.object({
  about: z.string(),
  patterns: z.record(z.string(), z.string()),
  prompts: z.array(z.object({ session: z.string(), prompt_starts: z.string(), expect: z.array(z.string()) })),
});
export type ContextGold = z.infer<typeof contextGoldFile>;

/** The bullet lines of an injection (headings, provenance and the fence are not items). */
export const injectedLines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('- '));

/** The gold patterns a line names. */
export function patternsOf(line: string, rules: ReadonlyMap<string, RegExp>): string[] {
  return [...rules].filter(([, re]) => re.test(line)).map(([id]) => id);
}

export interface Judged {
  lines: number;
  relevant: number;
  /** Lines that name some gold pattern, expected there or not: a rule readers found at work somewhere. */
  named: number;
  expected: number;
  found: number;
  /** Some line was not what this point needed. */
  noisy: boolean;
}

/** One injection against what was expected there. */
export function judge(text: string, expect: readonly string[], rules: ReadonlyMap<string, RegExp>): Judged {
  const lines = injectedLines(text);
  const named = lines.map((l) => patternsOf(l, rules));
  const relevant = named.filter((ids) => ids.some((id) => expect.includes(id))).length;
  const found = expect.filter((id) => named.some((ids) => ids.includes(id))).length;
  return {
    lines: lines.length,
    relevant,
    named: named.filter((ids) => ids.length > 0).length,
    expected: expect.length,
    found,
    noisy: relevant < lines.length,
  };
}

export interface ContextScore {
  points: number;
  lines: number;
  precision: number;
  recall: number;
  /** Share of points where anything irrelevant was injected. */
  noisyShare: number;
}

export function total(judged: readonly Judged[]): ContextScore {
  const sum = (f: (j: Judged) => number): number => judged.reduce((n, j) => n + f(j), 0);
  const lines = sum((j) => j.lines);
  const expected = sum((j) => j.expected);
  return {
    points: judged.length,
    lines,
    // Nothing injected where nothing was expected is right: precision counts only what was said.
    precision: lines ? sum((j) => j.relevant) / lines : 1,
    recall: expected ? sum((j) => j.found) / expected : 1,
    noisyShare: judged.length ? judged.filter((j) => j.noisy).length / judged.length : 0,
  };
}
