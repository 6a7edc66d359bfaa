// The definition (README "Similarity") in plain JS, for texts whose characters the core's
// tables and JS's agree on (ASCII, CJK, kana, full-width letters, punctuation JS and the
// core both class as P, and case that toLowerCase folds as the core's simple folding does).
import { readFileSync } from 'node:fs';

// The CJK class is the core's own: the ranges marked C in cpp/src/text/unicode.cpp's
// kClassRanges, read from the source, so the reference cannot drift from them.
const source = readFileSync(new URL('../../cpp/src/text/unicode.cpp', import.meta.url), 'utf8');
const table = source.slice(source.indexOf('kClassRanges[] = {'), source.indexOf('};', source.indexOf('kClassRanges[] = {')));
export const CJK_RANGES = Array.from(table.matchAll(/\{0x([0-9A-F]+), 0x([0-9A-F]+), C\}/g), (m) => [parseInt(m[1], 16), parseInt(m[2], 16)]);
if (CJK_RANGES.length < 10) throw new Error('similarity-reference.js: the CJK ranges of cpp/src/text/unicode.cpp were not found');

export function isCjk(c) {
  const cp = c.codePointAt(0);
  return cp >= 0x80 && CJK_RANGES.some(([first, last]) => cp >= first && cp <= last);
}

/** Half-width katakana as NFKC maps them: a kana and the mark right after it composed where NFKC composes the pair. */
export function foldHalfwidthKana(text) {
  return text.replace(/[\uff61-\uff9f][\uff9e\uff9f]?/g, (run) => {
    const composed = run.normalize('NFKC');
    return [...composed].length === 1 ? composed : Array.from(run, (c) => c.normalize('NFKC')).join('');
  });
}

export function shingles(text) {
  const folded = foldHalfwidthKana(text)
    .replace(/[\uff21-\uff3a\uff41-\uff5a\uff10-\uff19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toLowerCase().replace(/\p{P}/gu, '');
  // Whitespace runs over code points (an astral character is one, not two surrogates).
  const cps = [];
  const chars = Array.from(folded);
  for (let i = 0; i < chars.length;) {
    if (!/\p{White_Space}/u.test(chars[i])) {
      cps.push(chars[i++]);
      continue;
    }
    let end = i;
    while (end < chars.length && /\p{White_Space}/u.test(chars[end])) end++;
    if (i > 0 && end < chars.length && !(isCjk(chars[i - 1]) && isCjk(chars[end]))) cps.push(' ');
    i = end;
  }
  const n = (i) => (isCjk(cps[i]) ? 2 : 3);
  const set = new Set();
  let covered = false;
  for (let i = 0; i < cps.length; i++) {
    if (i + n(i) <= cps.length) {
      set.add(cps.slice(i, i + n(i)).join(''));
      covered ||= i + n(i) === cps.length;
    }
  }
  if (cps.length && !covered) {
    let first = 0;
    while (first + n(first) <= cps.length) first++;
    set.add(cps.slice(first).join(''));
  }
  return set;
}
export function jaccard(x, y) {
  const a = shingles(x);
  const b = shingles(y);
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return a.size + b.size ? shared / (a.size + b.size - shared) : 1;
}
