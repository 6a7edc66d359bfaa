// The definition (README "Similarity") in plain JS, for texts whose characters the core's
// tables and JS's agree on (ASCII, Han, full-width letters, CJK punctuation).
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
export function shingles(text) {
  const folded = text.replace(/[\uff21-\uff3a\uff41-\uff5a\uff10-\uff19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toLowerCase().replace(/\p{P}/gu, '');
  const cps = Array.from(folded.replace(/\s+/gu, (gap, at, all) => {
    const before = all.slice(0, at).at(-1);
    const after = all[at + gap.length];
    return before && after && CJK.test(before) && CJK.test(after) ? '' : ' ';
  }).trim());
  const n = (i) => (CJK.test(cps[i]) ? 2 : 3);
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

