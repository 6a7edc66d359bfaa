// Ground truth: the exact Jaccard similarity of character 3-gram sets, computed on a
// canonical form of each text. The canonical form says what a reader considers the same
// text, whatever its formatting: "CAT" and "ｃａｔ" are "cat" (NFKC, lower case), "Hello,
// world!" is "hello world" (punctuation removed), and re-wrapped lines are the same lines
// (whitespace runs become one space, or nothing between two CJK characters, since Chinese
// and Japanese are written without spaces). Symbols such as $ and + are content and stay.

export const GROUND_TRUTH_NGRAM = 3;

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Bopomofo}';
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])\\s+(?=[${CJK}])`, 'gu');

export function canonical(text) {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\p{P}+/gu, '')
    .replace(SPACE_BETWEEN_CJK, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Maps n-grams to small integers so a text's n-gram set is a sorted Int32Array: exact
 * Jaccard is then a merge, and sets of 20,000 texts fit in a few megabytes.
 */
export class ShingleSets {
  #ids = new Map();
  #cache = new Map();

  /** form: text -> the string whose n-grams are taken (canonical by default). */
  constructor(n = GROUND_TRUTH_NGRAM, form = canonical) {
    this.n = n;
    this.form = form;
  }

  #id(gram) {
    let id = this.#ids.get(gram);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(gram, id);
    }
    return id;
  }

  /** Sorted distinct n-gram ids; a text shorter than n is one n-gram, itself. */
  of(text) {
    let set = this.#cache.get(text);
    if (set) return set;
    const chars = Array.from(this.form(text));
    const ids = new Set();
    if (chars.length < this.n) ids.add(this.#id(chars.join('')));
    for (let i = 0; i + this.n <= chars.length; i++) ids.add(this.#id(chars.slice(i, i + this.n).join('')));
    set = Int32Array.from(ids).sort();
    this.#cache.set(text, set);
    return set;
  }

  jaccard(a, b) {
    return jaccardOfSorted(this.of(a), this.of(b));
  }
}

/** The elements two ascending arrays of distinct values share. */
export function sharedOfSorted(x, y) {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      shared++;
      i++;
      j++;
    } else if (x[i] < y[j]) i++;
    else j++;
  }
  return shared;
}

export function jaccardOfSorted(x, y) {
  const shared = sharedOfSorted(x, y);
  const union = x.length + y.length - shared;
  return union === 0 ? 1 : shared / union;
}
