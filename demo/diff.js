// Word-level differences between a group's kept item and a member, for highlighting: words
// of alphabetic scripts, single Han/kana characters (Chinese and Japanese have no spaces),
// runs of whitespace and single other characters are the tokens.

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}_'’]+|\s+|[^]/gu;

/** Largest token table (rows × columns) compared exactly; beyond it the middle is one change. */
const MAX_CELLS = 250_000;

export function tokenize(text) {
  return text.match(TOKEN) ?? [];
}

/**
 * Operations turning `from` into `to`: [{ op: '=' | '-' | '+', text }], adjacent ones of the
 * same kind merged. The longest common subsequence of tokens after trimming the common
 * prefix and suffix.
 */
export function diff(from, to) {
  const a = tokenize(from);
  const b = tokenize(to);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const ops = [];
  const push = (op, text) => {
    if (text === '') return;
    const last = ops.at(-1);
    if (last?.op === op) last.text += text;
    else ops.push({ op, text });
  };
  push('=', a.slice(0, prefix).join(''));
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  if (midA.length * midB.length > MAX_CELLS) {
    push('-', midA.join(''));
    push('+', midB.join(''));
  } else {
    middle(midA, midB, push);
  }
  push('=', a.slice(a.length - suffix).join(''));
  return ops;
}

function middle(a, b, push) {
  const rows = a.length + 1;
  const cols = b.length + 1;
  // lcs[i * cols + j]: LCS length of a[i..] and b[j..]
  const lcs = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * cols + j] = a[i] === b[j] ? lcs[(i + 1) * cols + j + 1] + 1 : Math.max(lcs[(i + 1) * cols + j], lcs[i * cols + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('=', a[i++]);
      j++;
    } else if (lcs[(i + 1) * cols + j] >= lcs[i * cols + j + 1]) {
      push('-', a[i++]);
    } else {
      push('+', b[j++]);
    }
  }
  while (i < a.length) push('-', a[i++]);
  while (j < b.length) push('+', b[j++]);
}
