/** A line diff for showing what a change to a small text file would do (`--dry-run`). Pure. */

type DiffLine = { op: ' ' | '-' | '+'; text: string };

/** Longest-common-subsequence line diff; fine for settings files (thousands of lines at most). */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ op: '-', text: a[i]! });
      i++;
    } else {
      out.push({ op: '+', text: b[j]! });
      j++;
    }
  }
  return out;
}

/** Unified-style text: changed lines with `context` unchanged lines around them; '' when equal. */
export function formatDiff(before: string, after: string, label: string, context = 2): string {
  const lines = diffLines(before, after);
  if (!lines.some((l) => l.op !== ' ')) return '';
  const keep = new Set<number>();
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep.add(k);
  });
  const out = [`--- ${label}`, `+++ ${label} (after)`];
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!keep.has(i)) continue;
    if (last >= 0 && i > last + 1) out.push('@@');
    out.push(`${lines[i]!.op}${lines[i]!.text}`);
    last = i;
  }
  return out.join('\n');
}
