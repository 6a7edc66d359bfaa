// Controlled edits that turn a corpus record into a variant (issue 4, item 1). Each edit
// returns { text, fraction } or null when it does not apply (e.g. one sentence cannot be
// swapped, a text without Latin letters has no case to change). fraction is the share of
// the record's units (English: words; Chinese: Han characters) that were replaced,
// inserted or deleted; edits that keep every unit (swap, case, whitespace, punctuation,
// width) have fraction 0.

const HAN = /\p{Script=Han}/u;
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

const NOISE = {
  english: ['[citation needed]', 'http://bit.ly/2xQz9Lm', '#quoteoftheday', 'via @fortune',
    'Click here!', '(sponsored)', '>>>', 'lol', '[sic]', 'READ MORE', 'Share this:', '***'],
  chinese: ['【转载】', '（来源：网络）', 'http://t.cn/A6xQz9', '#每日一句#', '哈哈哈', '……',
    '转发微博', '@小编', '点赞', '[图片]', '（完）', '原文链接'],
};

/** Words of an English text as positions in text.split(/(\s+)/) (even slots are words). */
function wordSlots(parts) {
  const slots = [];
  for (let i = 0; i < parts.length; i += 2) if (HAS_WORD_CHAR.test(parts[i])) slots.push(i);
  return slots;
}

/** The units a percentage refers to: English words, Chinese Han characters. */
export function countUnits(text, language) {
  if (language === 'english') return wordSlots(text.split(/(\s+)/)).length;
  let count = 0;
  for (const ch of text) if (HAN.test(ch)) count++;
  return count;
}

function unitsToEdit(total, percent) {
  return Math.max(1, Math.round((total * percent) / 100));
}

function differentFrom(old, draw) {
  for (let tries = 0; tries < 20; tries++) {
    const value = draw();
    if (value.toLowerCase() !== old.toLowerCase()) return value;
  }
  return draw();
}

/** Replace, insert or delete percent% of the words (English) or Han characters (Chinese). */
function unitEdit(operation, percent) {
  return (text, ctx) => {
    if (ctx.language === 'english') {
      const parts = text.split(/(\s+)/);
      const slots = wordSlots(parts);
      const count = unitsToEdit(slots.length, percent);
      if (operation === 'delete' && count >= slots.length) return null;
      for (const s of ctx.rng.sampleIndices(slots.length, count).map((i) => slots[i])) {
        if (operation === 'replace') {
          parts[s] = parts[s].replace(/[\p{L}\p{N}'’]+/u, (word) => differentFrom(word, ctx.randomWord));
        } else if (operation === 'insert') {
          parts[s] = `${ctx.randomWord()} ${parts[s]}`;
        } else {
          parts[s] = '';
          if (s + 1 < parts.length) parts[s + 1] = ''; // the following whitespace
          else if (s > 0) parts[s - 1] = '';
        }
      }
      return { text: parts.join(''), fraction: count / slots.length };
    }
    const chars = Array.from(text);
    const slots = [];
    chars.forEach((ch, i) => HAN.test(ch) && slots.push(i));
    const count = unitsToEdit(slots.length, percent);
    if (slots.length === 0 || (operation === 'delete' && count >= slots.length)) return null;
    for (const s of ctx.rng.sampleIndices(slots.length, count).map((i) => slots[i])) {
      if (operation === 'replace') chars[s] = differentFrom(chars[s], ctx.randomHan);
      else if (operation === 'insert') chars[s] = ctx.randomHan() + chars[s];
      else chars[s] = '';
    }
    return { text: chars.join(''), fraction: count / slots.length };
  };
}

// A sentence ends at terminal punctuation (and closing quotes) followed by whitespace, or
// at a blank line; the separator stays with the sentence before it.
const SENTENCE_END = {
  english: /[.!?]+["'’”)\]]*\s+|\n[ \t]*\n\s*/g,
  chinese: /[。！？!?；;]+[”’」』）)]*\s*|\n[ \t]*\n\s*/g,
};

/** The text cut into sentences (each with its trailing separator); they join back to text. */
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

function deleteFirstSentence(text, ctx) {
  const pieces = sentences(text, ctx.language);
  const rest = pieces.slice(1).join('');
  const total = countUnits(text, ctx.language);
  const removed = countUnits(pieces[0], ctx.language);
  if (pieces.length < 2 || removed === 0 || removed === total) return null;
  return { text: rest, fraction: removed / total };
}

function swapSentences(text, ctx) {
  const pieces = sentences(text, ctx.language);
  const withUnits = pieces.map((p, i) => i).filter((i) => countUnits(pieces[i], ctx.language) > 0);
  if (withUnits.length < 2) return null;
  const [x, y] = ctx.rng.sampleIndices(withUnits.length, 2).map((i) => withUnits[i]).sort((a, b) => a - b);
  const core = (p) => p.trimEnd();
  const tail = (p) => p.slice(p.trimEnd().length);
  // Each piece keeps its own separator (x < y, so x is never the last piece).
  const swapped = [...pieces];
  swapped[x] = core(pieces[y]) + tail(pieces[x]);
  swapped[y] = core(pieces[x]) + tail(pieces[y]);
  return { text: swapped.join('').trimEnd(), fraction: 0 };
}

function insertNoise(text, ctx) {
  const count = ctx.rng.between(1, 4);
  const noise = Array.from({ length: count }, () => ctx.rng.pick(NOISE[ctx.language]));
  let result = text;
  if (ctx.language === 'english') {
    const parts = result.split(/(\s+)/);
    for (const n of noise) {
      const slot = 2 * ctx.rng.int(Math.floor(parts.length / 2) + 1);
      if (slot >= parts.length) parts.push(' ', n);
      else parts[slot] = `${n} ${parts[slot]}`;
    }
    result = parts.join('');
  } else {
    const chars = Array.from(result);
    for (const n of noise) chars.splice(ctx.rng.int(chars.length + 1), 0, n);
    result = chars.join('');
  }
  const added = noise.reduce((sum, n) => sum + countUnits(n, ctx.language), 0);
  return { text: result, fraction: added / countUnits(text, ctx.language) };
}

/** Tries the given transformations in random order; the first that changes the text wins. */
export function firstThatChanges(modes) {
  return (text, ctx) => {
    for (const mode of ctx.rng.shuffled(modes[ctx.language])) {
      const result = mode(text, ctx);
      if (result !== text) return { text: result, fraction: 0 };
    }
    return null;
  };
}

const titleCase = (t) => t.replace(/\p{L}[\p{L}'’]*/gu, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());
export const CASE_MODES = [(t) => t.toUpperCase(), (t) => t.toLowerCase(), titleCase];

export const unwrapEnglish = (t) => t.replace(/\s+/g, ' ').trim();
export function rewrapEnglish(t, ctx) {
  const width = ctx.rng.between(30, 60);
  const lines = [];
  let line = '';
  for (const word of unwrapEnglish(t).split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}
export const doubleSpaces = (t) => t.replace(/ /g, '  ').replace(/\n/g, '\n\n');

// Chinese is written without spaces: unwrapping joins lines between Han characters directly.
const NOT_LATIN = /[^\x00-\x7f]/;
export const unwrapChinese = (t) => t.trim().replace(/\s+/g, (gap, at, all) =>
  NOT_LATIN.test(all[at - 1] ?? '') && NOT_LATIN.test(all[at + gap.length] ?? '') ? '' : ' ');
export function rewrapChinese(t, ctx) {
  const width = ctx.rng.between(15, 35);
  let out = '';
  let column = 0;
  for (const ch of unwrapChinese(t)) {
    if (column >= width && !/[A-Za-z0-9]/.test(ch)) {
      out += '\n';
      column = 0;
    }
    out += ch;
    column++;
  }
  return out;
}

const stripPunctuation = (t) => t.replace(/\p{P}/gu, '');
function swapMarks(map) {
  return (t, ctx) => t.replace(new RegExp(`[${Object.keys(map).join('')}]`, 'g'),
    (mark) => (ctx.rng.chance(0.5) ? map[mark] : mark));
}
const curlyQuotes = (t) => t
  .replace(/"([^"\n]*)"/g, '“$1”').replace(/'/g, '’').replace(/--/g, '—').replace(/\.\.\./g, '…');

const toFullWidth = (t) => t.replace(/[\x21-\x7e]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');
const toHalfWidth = (t) => t.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');

/** Edit types in the order the tables list them. */
export const EDITS = {
  'delete-first-sentence': deleteFirstSentence,
  'insert-noise(1-4)': insertNoise,
  'replace-5%': unitEdit('replace', 5),
  'replace-10%': unitEdit('replace', 10),
  'replace-20%': unitEdit('replace', 20),
  'insert-5%': unitEdit('insert', 5),
  'insert-10%': unitEdit('insert', 10),
  'insert-20%': unitEdit('insert', 20),
  'delete-5%': unitEdit('delete', 5),
  'delete-10%': unitEdit('delete', 10),
  'delete-20%': unitEdit('delete', 20),
  'swap-sentences': swapSentences,
  case: firstThatChanges({ english: CASE_MODES, chinese: CASE_MODES }),
  whitespace: firstThatChanges({
    english: [unwrapEnglish, rewrapEnglish, doubleSpaces],
    chinese: [unwrapChinese, rewrapChinese],
  }),
  punctuation: firstThatChanges({
    english: [stripPunctuation, swapMarks({ '.': '!', ',': ';', '!': '.', '?': '!', ';': ',', ':': ' -' }), curlyQuotes],
    chinese: [stripPunctuation, swapMarks({ '，': '、', '、': '，', '。': '！', '！': '。', '；': '，', '“': '「', '”': '」' })],
  }),
  // English typed in a full-width IME mode; Chinese with its full-width marks made ASCII.
  'width(full<->half)': firstThatChanges({ english: [toFullWidth], chinese: [toHalfWidth] }),
};

export const EDIT_NAMES = Object.keys(EDITS);
