// Word-level differences between a group's kept item and a member, for highlighting: words
// of alphabetic scripts, single Han/kana characters (Chinese and Japanese have no spaces),
// runs of whitespace and single other characters are the tokens; a token holding a letter or
// a digit is a word, the others separate words.
//
// Words are aligned first (their longest common subsequence), the separators between two
// aligned words after, so that a space or a comma shared by chance does not break up the
// alignment of reordered words ("Flat 4, 17 Hawthorne Ave" against "17 Hawthorne Avenue,
// Flat 4"). A word removed in one place and added in another is marked as moved.

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}_'’]+|\s+|[^]/gu;
const WORD = /[\p{L}\p{N}]/u;

/** Largest token table (rows × columns) compared exactly; beyond it the middle is one change. */
const MAX_CELLS = 250_000;

export function tokenize(text) {
  return text.match(TOKEN) ?? [];
}

const isWord = (token) => WORD.test(token);

/**
 * Operations turning `from` into `to`: [{ op: '=' | '-' | '+', text, moved? }], adjacent
 * ones of the same kind merged. `moved`: the run's words are removed here and added
 * elsewhere ('-'), or added here and removed elsewhere ('+'), as when words are reordered;
 * a run is either moved words or other words, the separators going with the run before them.
 */
export function diff(from, to) {
  const a = tokenize(from);
  const b = tokenize(to);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const steps = []; // [op, token]
  const emit = (op, token) => steps.push([op, token]);
  for (const token of a.slice(0, prefix)) emit('=', token);
  aligned(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix), emit);
  for (const token of a.slice(a.length - suffix)) emit('=', token);
  return merged(steps);
}

/** The steps from tokens a to tokens b: their words aligned, then the tokens between two aligned words. */
function aligned(a, b, emit) {
  const wordsA = [];
  const wordsB = [];
  a.forEach((token, i) => isWord(token) && wordsA.push(i));
  b.forEach((token, j) => isWord(token) && wordsB.push(j));
  if (wordsA.length * wordsB.length > MAX_CELLS) {
    middle(a, b, emit);
    return;
  }
  const anchors = commonSubsequence(wordsA.map((i) => a[i]), wordsB.map((j) => b[j]))
    .map(([x, y]) => [wordsA[x], wordsB[y]]);
  let i = 0;
  let j = 0;
  for (const [ai, bj] of [...anchors, [a.length, b.length]]) {
    middle(a.slice(i, ai), b.slice(j, bj), emit);
    if (ai < a.length) emit('=', a[ai]);
    i = ai + 1;
    j = bj + 1;
  }
}

/** The pairs [x, y] of positions of a longest common subsequence of arrays a and b, ascending. */
function commonSubsequence(a, b) {
  const cols = b.length + 1;
  // lcs[i * cols + j]: LCS length of a[i..] and b[j..]
  const lcs = new Uint32Array((a.length + 1) * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * cols + j] = a[i] === b[j] ? lcs[(i + 1) * cols + j + 1] + 1 : Math.max(lcs[(i + 1) * cols + j], lcs[i * cols + j + 1]);
    }
  }
  const pairs = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (lcs[(i + 1) * cols + j] >= lcs[i * cols + j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** The steps from tokens a to tokens b by their longest common subsequence; removals before additions. */
function middle(a, b, emit) {
  if (a.length * b.length > MAX_CELLS) {
    for (const token of a) emit('-', token);
    for (const token of b) emit('+', token);
    return;
  }
  let i = 0;
  let j = 0;
  for (const [x, y] of commonSubsequence(a, b)) {
    while (i < x) emit('-', a[i++]);
    while (j < y) emit('+', b[j++]);
    emit('=', a[i++]);
    j++;
  }
  while (i < a.length) emit('-', a[i++]);
  while (j < b.length) emit('+', b[j++]);
}

/**
 * The steps merged into runs, moved words apart: of the removed and the added copies of a
 * word, as many as the fewer of the two are moved, the first ones of each.
 */
function merged(steps) {
  const count = { '-': new Map(), '+': new Map() };
  for (const [op, token] of steps) if (op !== '=' && isWord(token)) count[op].set(token, (count[op].get(token) ?? 0) + 1);
  const movable = { '-': new Map(), '+': new Map() };
  for (const [token, removed] of count['-']) {
    const pairs = Math.min(removed, count['+'].get(token) ?? 0);
    if (pairs) {
      movable['-'].set(token, pairs);
      movable['+'].set(token, pairs);
    }
  }
  const ops = [];
  for (const [op, token] of steps) {
    const last = ops.at(-1);
    const word = op !== '=' && isWord(token);
    const left = word ? movable[op].get(token) ?? 0 : 0;
    if (left) movable[op].set(token, left - 1);
    const moved = left > 0;
    if (last?.op === op && (!word || Boolean(last.moved) === moved)) last.text += token;
    else ops.push(moved ? { op, text: token, moved } : { op, text: token });
  }
  return ops;
}
