// The light edits of issue 27, each at its maximum, and the negatives they are weighed
// against. A light edit is what a person does to a text that leaves it "the same text":
//   replace / delete / insert 10% - max(1, floor(units / 10)) units, where a unit is a word
//       (English: a whitespace-separated piece holding a letter or digit) or a CJK character
//       (Chinese: Han; Japanese: Han and kana, U+30FC included), replaced by or inserted as
//       units drawn from the same corpus (so texts of fewer than 10 units get one edit,
//       more than 10%, as the examples do);
//   noise 25%   - noise items (`click here`, `#spam`, `点击这里`, `【推广】`, ...) added at
//       random word boundaries (English) or characters (CJK) while their code points stay
//       within a quarter of the text's; a text too short for one item has no such pair;
//   swap sentences - two sentences exchanged (texts of at least 2 sentences);
//   whitespace, punctuation, case, width - one of each kind's forms, drawn per text;
//   kana width (Japanese) - full-width katakana written as half-width (ｶﾀｶﾅ, JIS X 0201).
// Negatives: random record pairs, and topical neighbours: record pairs whose current
// similarity (README "Similarity") is 0.3-0.5, from the core's exact join over a sample.
import { Random } from './random.js';
import { CJK_CLASS } from './corpora.js';
import { CASE_MODES, doubleSpaces, firstThatChanges, rewrapChinese as rewrapCjk, rewrapEnglish as rewrap,
  unwrapChinese as unwrapCjk, unwrapEnglish as unwrap } from './edits.js';

const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');
const HAN = /\p{Script=Han}/u;
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

/** The units an edit percentage refers to, per language. */
const isUnitChar = { chinese: (c) => HAN.test(c), japanese: (c) => CJK_CHAR.test(c) };

const NOISE = {
  english: ['click here', '#spam', 'lol', '(ad)', 'via @fortune', 'READ MORE', 'http://bit.ly/2xQz9Lm', '[sic]',
    'Share this', '#quoteoftheday', '***', '>>>', 'sponsored', 'ok'],
  chinese: ['点击这里', '【推广】', '哈哈', '转发', '#每日一句#', '（来源：网络）', '点赞', '[图片]', '（完）', '原文链接',
    '@小编', 'http://t.cn/A6xQz9'],
  japanese: ['こちらをクリック', '【PR】', '（笑）', 'www', '#拡散希望', '詳しくはこちら', '【広告】', 'いいね', '[画像]',
    '続きを読む', '@編集部', 'http://t.co/x9Qz'],
};

const codePoints = (text) => Array.from(text);

/** English words as slots of text.split(/(\s+)/) (even positions holding a letter or digit). */
function wordSlots(parts) {
  const slots = [];
  for (let i = 0; i < parts.length; i += 2) if (HAS_WORD_CHAR.test(parts[i])) slots.push(i);
  return slots;
}

export function countUnits(text, language) {
  if (language === 'english') return wordSlots(text.split(/(\s+)/)).length;
  let count = 0;
  for (const c of text) if (isUnitChar[language](c)) count++;
  return count;
}

const editCount = (units) => Math.max(1, Math.floor(units / 10));

function unitEdit(operation) {
  return (text, ctx) => {
    if (ctx.language === 'english') {
      const parts = text.split(/(\s+)/);
      const slots = wordSlots(parts);
      const count = editCount(slots.length);
      if (slots.length === 0 || (operation === 'delete' && count >= slots.length)) return null;
      for (const s of ctx.rng.sampleIndices(slots.length, count).map((i) => slots[i])) {
        if (operation === 'replace') parts[s] = parts[s].replace(/[\p{L}\p{N}'’]+/u, (w) => ctx.otherUnit(w));
        else if (operation === 'insert') parts[s] = `${ctx.unit()} ${parts[s]}`;
        else {
          parts[s] = '';
          if (s + 1 < parts.length) parts[s + 1] = '';
          else if (s > 0) parts[s - 1] = '';
        }
      }
      return { text: parts.join(''), fraction: count / slots.length };
    }
    const chars = codePoints(text);
    const slots = [];
    chars.forEach((c, i) => isUnitChar[ctx.language](c) && slots.push(i));
    const count = editCount(slots.length);
    if (slots.length === 0 || (operation === 'delete' && count >= slots.length)) return null;
    for (const s of ctx.rng.sampleIndices(slots.length, count).map((i) => slots[i])) {
      if (operation === 'replace') chars[s] = ctx.otherUnit(chars[s]);
      else if (operation === 'insert') chars[s] = ctx.unit() + chars[s];
      else chars[s] = '';
    }
    return { text: chars.join(''), fraction: count / slots.length };
  };
}

function addNoise(text, ctx) {
  const budget = Math.floor(codePoints(text).length / 4);
  const items = [];
  let used = 0;
  for (let misses = 0; misses < 10;) {
    const item = ctx.rng.pick(NOISE[ctx.language]);
    const size = codePoints(item).length + (ctx.language === 'english' ? 1 : 0); // + its space
    if (used + size > budget) {
      misses++;
      continue;
    }
    items.push(item);
    used += size;
  }
  if (items.length === 0) return null;
  if (ctx.language === 'english') {
    const parts = text.split(/(\s+)/);
    for (const item of items) {
      const slot = 2 * ctx.rng.int(Math.floor(parts.length / 2) + 1);
      if (slot >= parts.length) parts.push(' ', item);
      else parts[slot] = `${item} ${parts[slot]}`;
    }
    return { text: parts.join(''), fraction: used / codePoints(text).length };
  }
  const chars = codePoints(text);
  for (const item of items) chars.splice(ctx.rng.int(chars.length + 1), 0, item);
  return { text: chars.join(''), fraction: used / codePoints(text).length };
}

// A sentence ends at terminal punctuation (and closing quotes) followed by whitespace, or
// at a blank line; CJK sentences end at 。！？ with or without whitespace. The separator
// stays with the sentence before it.
const SENTENCE_END = {
  english: /[.!?]+["'’”)\]]*\s+|\n[ \t]*\n\s*/g,
  chinese: /[。！？!?]+[”’」』）)]*\s*|\n[ \t]*\n\s*/g,
  japanese: /[。！？!?]+[”’」』）)]*\s*|\n[ \t]*\n\s*/g,
};

export function sentences(text, language) {
  const pieces = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END[language])) {
    const end = match.index + match[0].length;
    if (end >= text.length) break;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function swapSentences(text, ctx) {
  const pieces = sentences(text, ctx.language);
  const withUnits = pieces.map((_, i) => i).filter((i) => countUnits(pieces[i], ctx.language) > 0);
  if (withUnits.length < 2) return null;
  const [x, y] = ctx.rng.sampleIndices(withUnits.length, 2).map((i) => withUnits[i]).sort((a, b) => a - b);
  const core = (p) => p.trimEnd();
  const tail = (p) => p.slice(p.trimEnd().length);
  const swapped = [...pieces];
  swapped[x] = core(pieces[y]) + tail(pieces[x]);
  swapped[y] = core(pieces[x]) + tail(pieces[y]);
  const result = swapped.join('').trimEnd();
  return result === text ? null : { text: result, fraction: 0 };
}

/** Spaces between a fifth of the adjacent CJK characters (text typed with an IME's spaces). */
function spacedCjk(t, ctx) {
  const chars = codePoints(t);
  return chars.map((c, i) => (i > 0 && CJK_CHAR.test(chars[i - 1]) && CJK_CHAR.test(c) && ctx.rng.chance(0.2) ? ` ${c}` : c)).join('');
}

const stripPunctuation = (t) => t.replace(/\p{P}/gu, '');
function swapMarks(map) {
  return (t, ctx) => t.replace(new RegExp(`[${Object.keys(map).join('')}]`, 'g'), (mark) => (ctx.rng.chance(0.5) ? map[mark] : mark));
}
const curlyQuotes = (t) => t.replace(/"([^"\n]*)"/g, '“$1”').replace(/'/g, '’').replace(/--/g, '—').replace(/\.\.\./g, '…');

const toFullWidth = (t) => t.replace(/[\x21-\x7e]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');
const toHalfWidth = (t) => t.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');

// Full-width katakana (and the marks 「」、。・ー) to their half-width forms, the inverse of
// NFKC on U+FF61-U+FF9F: voiced and semi-voiced kana become the base kana and ﾞ or ﾟ
// (ガ → ｶﾞ); kana without a half-width form (ヮ, ヰ, ヱ) stay.
const HALF_OF = new Map();
for (let cp = 0xff61; cp <= 0xff9f; cp++) {
  const half = String.fromCharCode(cp);
  const full = half.normalize('NFKC');
  if (full !== half && !HALF_OF.has(full)) HALF_OF.set(full, half);
}
for (let cp = 0xff66; cp <= 0xff9d; cp++) {
  for (const mark of ['\uff9e', '\uff9f']) {
    const full = (String.fromCharCode(cp) + mark).normalize('NFKC');
    if ([...full].length === 1 && !HALF_OF.has(full)) HALF_OF.set(full, String.fromCharCode(cp) + mark);
  }
}
export const toHalfWidthKana = (t) => Array.from(t, (c) => (/[\u3000-\u30ff]/.test(c) ? HALF_OF.get(c) ?? c : c)).join('');
const kanaWidth = (text) => {
  const result = toHalfWidthKana(text);
  return result === text ? null : { text: result, fraction: 0 };
};

/** The kinds, in the order the tables list them; each (text, ctx) → { text, fraction } or null. */
export const KINDS = {
  'replace 10%': unitEdit('replace'),
  'delete 10%': unitEdit('delete'),
  'insert 10%': unitEdit('insert'),
  'noise 25%': addNoise,
  'swap sentences': swapSentences,
  whitespace: firstThatChanges({
    english: [unwrap, rewrap, doubleSpaces],
    chinese: [unwrapCjk, rewrapCjk, spacedCjk],
    japanese: [unwrapCjk, rewrapCjk, spacedCjk],
  }),
  punctuation: firstThatChanges({
    english: [stripPunctuation, swapMarks({ '.': '!', ',': ';', '!': '.', '?': '!', ';': ',', ':': ' -' }), curlyQuotes],
    chinese: [stripPunctuation, swapMarks({ '，': '、', '、': '，', '。': '！', '！': '。', '；': '，', '“': '「', '”': '」' })],
    japanese: [stripPunctuation, swapMarks({ '、': '，', '。': '．', '「': '『', '」': '』', '（': '(', '）': ')' })],
  }),
  case: firstThatChanges({ english: CASE_MODES, chinese: CASE_MODES, japanese: CASE_MODES }),
  width: firstThatChanges({ english: [toFullWidth], chinese: [toHalfWidth, toFullWidth], japanese: [toHalfWidth, toFullWidth] }),
  'kana width': (text, ctx) => (ctx.language === 'japanese' ? kanaWidth(text) : null),
};
export const KIND_NAMES = Object.keys(KINDS);

/** Units of the corpus, drawn with their frequencies, for replacements and insertions. */
function vocabulary(records, language) {
  const units = [];
  for (const record of records) {
    if (language === 'english') for (const w of record.match(/\b[A-Za-z]{2,}\b/g) ?? []) units.push(w.toLowerCase());
    else for (const c of record) if (isUnitChar[language](c)) units.push(c);
  }
  return units;
}

/**
 * Light-edit pairs of one group (corpus + language): { texts, pairs }, pairs as
 * { a, b, kind, fraction } with a the base and b its variant (indices into texts).
 */
export function lightEditPairs(group) {
  const { name, language, records, bases } = group;
  const rng = new Random(`${name}/light-edits`);
  const units = vocabulary(records, language);
  const ctx = {
    language,
    rng,
    unit: () => rng.pick(units),
    otherUnit: (old) => {
      for (let tries = 0; tries < 20; tries++) {
        const u = rng.pick(units);
        if (u.toLowerCase() !== old.toLowerCase()) return u;
      }
      return rng.pick(units);
    },
  };
  const texts = [];
  const pairs = [];
  for (const r of new Random(`${name}/light-edit-bases`).sampleIndices(records.length, bases).sort((x, y) => x - y)) {
    const base = records[r];
    const a = texts.push(base) - 1;
    for (const [kind, apply] of Object.entries(KINDS)) {
      const variant = apply(base, ctx);
      if (variant && variant.text !== base) pairs.push({ a, b: texts.push(variant.text) - 1, kind, fraction: variant.fraction });
    }
  }
  return { texts, pairs };
}

/** count random pairs of distinct records, as [i, j] indices into records. */
export function randomPairs(group, count) {
  const rng = new Random(`${group.name}/random-pairs`);
  const n = group.records.length;
  return Array.from({ length: count }, () => {
    const i = rng.int(n);
    let j = rng.int(n - 1);
    if (j >= i) j++;
    return [i, j];
  });
}
