// How the page words numbers, durations and views, in English.

const number = new Intl.NumberFormat('en');

export const fmt = (n) => number.format(n);

/** A duration in milliseconds: '0.4 ms', '37 ms', '1.25 s'. */
export const ms = (t) => (t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${Math.max(t, 0.1).toFixed(t < 10 ? 1 : 0)} ms`);

/** Where a record is: 'line 12', or in a second file 'b.csv line 12' (input.js items). */
export const lineOf = (record) => `${record.file ? `${record.file} ` : ''}line ${fmt(record.line)}`;

/** A count and its noun: '1 group', '2,048 groups'. */
export const plural = (n, one, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

export const percent = (s) => `${Math.round(s * 100)}%`;

/** What a view (engine.js) groups by: 'similarity ≥ 80%', 'max distance 9', 'match probability ≥ 95%'. */
export function describeView(view) {
  if (view.by === 'probability') return `match probability ≥ ${percent(view.probability)}`;
  return view.by === 'similarity' ? `similarity ≥ ${percent(view.similarity)}` : `max distance ${view.maxDistance}`;
}

/** What a measure (engine.js) compares, as the "Compare as" setting names it: 'texts', 'names and short lists'. */
export const measureName = (measure) => (measure === 'short' ? 'names and short lists' : 'texts');

/** A text in quotes, cut to `max` characters with '…': '“The cat sat…”'. */
export function quote(text, max = 50) {
  const chars = [...text];
  return `“${chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : text}”`;
}

/** A similarity below `threshold` as a percent that does not round up to it: 0.7996 below 0.8 → '79.9%'. */
export const percentBelow = (s, threshold) => (percent(s) === percent(threshold) ? `${(Math.floor(s * 1000) / 10).toFixed(1)}%` : percent(s));
