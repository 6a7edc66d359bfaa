// Markdown tables, so printed results paste into the README as they are.

const NUMERIC = /^[\d\s.,%/+\-<>≥≤]*$/;

/** Columns whose cells are all numbers (or "12 / 0.933"-like) are right-aligned, others left. */
export function table(headers, rows) {
  const cells = rows.map((row) => row.map((c) => String(c ?? '')));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const numeric = headers.map((_, i) => cells.every((r) => NUMERIC.test(r[i])));
  const right = (i) => numeric[i];
  const pad = (text, i) => (right(i) ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const line = (row) => `| ${row.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

export const f3 = (x) => (x === undefined || Number.isNaN(x) ? '' : x.toFixed(3));
export const f2 = (x) => (x === undefined || Number.isNaN(x) ? '' : x.toFixed(2));
export const pct = (x) => `${(100 * x).toFixed(1)}%`;
