/** The tools chart's series: one distinct tone per tool shown, the least used grouped as "other". */

/** The number of fill tones app.css defines for tools (.tone-0 ...): no two tools shown may share one. */
export const TONES = 8;

export interface ToolSeries {
  name: string;
  tone: string;
  values: number[];
  /** The tools an "other" series groups (empty for a tool of its own). */
  members: string[];
}

/**
 * The most used tools each with a tone of its own; past TONES, the rest share the last tone as
 * one "other" series, since cycling the tones made Bash, Task and list_projects the same green. Pure.
 */
export function toolSeries(tools: readonly string[], days: readonly { tools: Record<string, { calls: number }> }[]): ToolSeries[] {
  const valuesOf = (tool: string) => days.map((d) => d.tools[tool]?.calls ?? 0);
  const total = new Map(tools.map((t) => [t, valuesOf(t).reduce((n, v) => n + v, 0)]));
  const ranked = [...tools].sort((a, b) => (total.get(b) ?? 0) - (total.get(a) ?? 0) || a.localeCompare(b));
  const own = ranked.length <= TONES ? ranked : ranked.slice(0, TONES - 1);
  const series = own.map((name, i) => ({ name, tone: `tone-${i}`, values: valuesOf(name), members: [] as string[] }));
  const rest = ranked.slice(own.length);
  if (rest.length === 0) return series;
  const values = days.map((d) => rest.reduce((n, t) => n + (d.tools[t]?.calls ?? 0), 0));
  return [...series, { name: `other (${rest.length} tools)`, tone: `tone-${TONES - 1}`, values, members: rest }];
}
