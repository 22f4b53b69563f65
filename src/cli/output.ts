/** How every command prints: human text by default, one JSON document with --json. */

export interface GlobalOptions {
  home?: string;
  json?: boolean;
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints `value` as JSON under --json, otherwise the lines `human` returns. */
export function emit<T>(opts: GlobalOptions, value: T, human: (value: T) => string | string[]): void {
  if (opts.json) {
    printJson(value);
    return;
  }
  const text = human(value);
  const out = Array.isArray(text) ? text.join('\n') : text;
  if (out) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
}

export function table(rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
