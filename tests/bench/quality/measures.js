// Candidate definitions of the similarity (issue 27), each exact and computed in plain JS
// from the normalized text of README "Similarity" step 1 (mirrored here: punctuation
// removed, case and full-width letters and digits folded, whitespace between two CJK
// characters removed, other runs one space). CJK is the core's class (cpp/src/text/unicode.cpp):
// Han, kana with U+30FC, Hangul, bopomofo, half-width katakana. Half-width katakana are
// first composed to full-width (NFKC on U+FF61-U+FF9F only: ｶﾞ → ガ), as the core does;
// foldKana: false gives the definition before that fold.
import { CJK_CLASS } from './corpora.js';

const CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
const FULL_WIDTH_ALNUM = /[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g;
const HALF_KANA_RUN = /[\uff61-\uff9f]+/g;

/** The normalized text as code points, and which of them are CJK. */
export function normalize(text, { foldKana = true } = {}) {
  let t = text;
  if (foldKana) t = t.replace(HALF_KANA_RUN, (run) => run.normalize('NFKC'));
  t = t.replace(/\p{P}/gu, '').replace(FULL_WIDTH_ALNUM, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  const cps = [];
  let pendingSpace = false;
  for (const raw of t) {
    if (/\s/u.test(raw)) {
      pendingSpace = cps.length > 0;
      continue;
    }
    const lower = raw.toLowerCase();
    const c = [...lower].length === 1 ? lower : raw;
    if (pendingSpace && !(CJK.test(cps.at(-1)) && CJK.test(c))) cps.push(' ');
    pendingSpace = false;
    cps.push(c);
  }
  return { cps, cjk: Uint8Array.from(cps, (c) => CJK.test(c)) };
}

/**
 * Shingles: a window of `alphabetic` code points at each position, `cjk` where the code
 * point there is CJK (an array of sizes: one window of each); if no window ends at the last
 * code point, one more from the first position whose window does not fit (README step 2).
 */
export function shingleSet({ cps, cjk }, alphabetic, cjkSizes) {
  const set = new Set();
  let covered = false;
  let firstMiss = -1;
  for (let i = 0; i < cps.length; i++) {
    for (const n of cjk[i] ? cjkSizes : [alphabetic]) {
      if (i + n <= cps.length) {
        set.add(cps.slice(i, i + n).join(''));
        covered ||= i + n === cps.length;
      } else if (firstMiss < 0) firstMiss = i;
    }
  }
  if (cps.length && !covered) set.add(cps.slice(firstMiss).join(''));
  return set;
}

/** Tokens: maximal runs of non-space non-CJK code points (words), and each CJK code point. */
export function tokens({ cps, cjk }) {
  const out = [];
  let word = '';
  for (let i = 0; i < cps.length; i++) {
    if (cps[i] === ' ' || cjk[i]) {
      if (word) out.push(word);
      word = '';
      if (cjk[i]) out.push(cps[i]);
    } else word += cps[i];
  }
  if (word) out.push(word);
  return out;
}

export function jaccard(a, b) {
  if (a.size > b.size) [a, b] = [b, a];
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union ? shared / union : 1;
}

/** 1 - Levenshtein(a, b) / max(|a|, |b|) over token sequences; 1 for two empty ones. */
export function editSimilarity(a, b) {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return 1;
  let prev = new Int32Array(m + 1);
  let row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    row[0] = i;
    const x = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1] + (x === b[j - 1] ? 0 : 1);
      const del = prev[j] + 1;
      const ins = row[j - 1] + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    [prev, row] = [row, prev];
  }
  return 1 - prev[m] / Math.max(n, m);
}

/** Words: the tokens that are not CJK characters (maximal runs of non-space non-CJK code points). */
export const words = (nt) => tokens(nt).filter((t) => !CJK.test(t));

/**
 * The set-based candidates: name → (normalized text) → set. "3/2" is today's definition
 * (3 code points, 2 from a CJK one); "3/1+2" takes both 1 and 2 from a CJK code point.
 * "+ tokens" / "+ words" add each token / word as one more element, marked with a leading
 * U+0000 (which normalized text never holds) so that it never equals a shingle.
 */
export const SET_MEASURES = {
  'J 3/2 (current)': (nt) => shingleSet(nt, 3, [2]),
  'J 3/1': (nt) => shingleSet(nt, 3, [1]),
  'J 3/1+2': (nt) => shingleSet(nt, 3, [1, 2]),
  'J 2/2': (nt) => shingleSet(nt, 2, [2]),
  'J tokens': (nt) => new Set(tokens(nt)),
  'J tokens + 3/2': (nt) => {
    const set = shingleSet(nt, 3, [2]);
    for (const t of tokens(nt)) set.add(`\u0000${t}`);
    return set;
  },
  'J 3/2 + words': (nt) => {
    const set = shingleSet(nt, 3, [2]);
    for (const w of words(nt)) set.add(`\u0000${w}`);
    return set;
  },
};

/** Each text's normalized form, sets and tokens, computed once. */
export class Measured {
  #cache = new Map();
  constructor(options = {}) {
    this.options = options;
  }

  of(text) {
    let m = this.#cache.get(text);
    if (!m) {
      const nt = normalize(text, this.options);
      m = { nt, length: nt.cps.length, sets: {}, tokens: null };
      this.#cache.set(text, m);
    }
    return m;
  }

  set(text, measure) {
    const m = this.of(text);
    return (m.sets[measure] ??= SET_MEASURES[measure](m.nt));
  }

  jaccard(x, y, measure) {
    return jaccard(this.set(x, measure), this.set(y, measure));
  }

  tokens(text) {
    const m = this.of(text);
    return (m.tokens ??= tokens(m.nt));
  }

  /** Token edit similarity, or null when either text has more than maxTokens tokens. */
  edit(x, y, maxTokens) {
    const a = this.tokens(x);
    const b = this.tokens(y);
    if (a.length > maxTokens || b.length > maxTokens) return null;
    return editSimilarity(a, b);
  }
}
