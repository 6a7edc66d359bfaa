// The tokens of a short entry, as look-alikes.js compares them (README "Look-alikes"): the
// text split at whitespace, each piece folded as the short measure folds (case, diacritics,
// ß and the like, punctuation removed; an ordinal's indicator dropped, `3º`, and its word
// read as its number, `Fifth` as `5th`; a Japanese or Chinese address's counters read as
// separators, `1丁目2番3号` as `1-2-3`), runs of CJK characters apart from the rest, each a
// word, a number or a CJK run, and marked where it names a model's tier, a size, a model's
// letter or a generation. Plain JS.
import { ASCII } from './text.js';

const FOLDED_LETTERS = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };
const FOLDABLE = /[ßæœøđðłþı]/g;
const CJK_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}ー]+)/u;
export const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}ー]/u;
export const DIGIT = /\p{Nd}/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const PUNCTUATION = /\p{P}/gu;
/** EDGE_PUNCTUATION and PUNCTUATION on ASCII: the same characters, by a faster class (look-alikes.test.js checks each). */
const ASCII_EDGE_PUNCTUATION = /^[!-/:-@[-`{-~]+|[!-/:-@[-`{-~]+$/g;
const ASCII_PUNCTUATION = /[!-#%-*,-/:;?@[-\]_{}]/g;
/** A possessive ending, no letter of the word (`Mary's` / `Mark's`: 4 letters, no typo of each other). */
const POSSESSIVE = /['’]s$/i;
/** Roman numerals up to 13 (`Part I` / `Part II`, `Henry VII` / `Henry VIII`), numbers that match only when equal. */
export const ROMAN = /^(?:i|ii|iii|iv|v|vi|vii|viii|ix|x|xi|xii|xiii)$/;
/** A word or model code ending in one `+`, which reads `Plus` (`S8+`, `Pro+`, `TV+`; not `C++`). */
const PLUS_MODEL = /[\p{L}\p{Nd}]\+$/u;

/** An ordinal indicator or a degree sign after digits (`3º B`, `2ª planta`): the number's, no letter. */
const ORDINAL_INDICATOR = /(\p{Nd})[ºª°]/gu;
/**
 * A Japanese or Chinese address's counter between numbers, or ending one (`1丁目2番3号`,
 * `建国路88号`): the number's separator, as `1-2-3` writes it.
 */
const ADDRESS_COUNTER = /(\p{Nd})(?:丁目|番地|番|号)(?=\p{Nd}|[\s,、]|$)/gu;
/** `(株)` and `(有)`, abbreviated legal forms, which the short measure drops wherever they stand (shingling.h bracketedLegalForm). */
const BRACKETED_FORM = /[(（][株有][)）]/g;
/** A piece of katakana alone (`ブラック`, `シルバー`): a word, unlike a run of kanji, which has no boundaries. */
const KATAKANA_WORD = /^[\p{Script=Katakana}ー]+$/u;
/**
 * Ordinals written out, read as their numbers (`Fifth Avenue` / `5th Ave`). A Map: an entry's
 * word may be any property name (`constructor`, `__proto__`).
 */
const ORDINAL_WORDS = new Map(Object.entries({ first: '1st', second: '2nd', third: '3rd', fourth: '4th', fifth: '5th', sixth: '6th', seventh: '7th', eighth: '8th', ninth: '9th', tenth: '10th' }));

/** Traditional Han characters' simplified forms, as the short measure folds them once its table is loaded (useHanVariants). */
const SIMPLIFIED = new Map();

/**
 * Takes the short measure's Han table as the core installed it (bindings/han-table.js): its
 * traditional characters, then the simplified form of each, so that `張偉` and `张伟` are one
 * token here as they are one text there. Every module's table is the same.
 */
export function useHanVariants(table) {
  for (let i = 0; i < table.length / 2; i++) SIMPLIFIED.set(String.fromCharCode(table[i]), String.fromCharCode(table[table.length / 2 + i]));
}

/** A token's folded form, as the short measure folds (README "Similarity of short strings"). */
function fold(piece) {
  if (ASCII.test(piece)) return foldAscii(piece);
  return piece.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(FOLDABLE, (c) => FOLDED_LETTERS[c]).replace(PUNCTUATION, '')
    .replace(/[\u3400-\u9fff]/g, (c) => SIMPLIFIED.get(c) ?? c);
}

/** fold of ASCII, which has nothing to decompose, no marks and no letter to fold: the same, without the normalization. */
function foldAscii(piece) {
  return piece.toLowerCase().replace(ASCII_PUNCTUATION, '');
}

/**
 * Words that each name one value of a closed set, by set (folded as keys are): the words of one value
 * spaced (`jan` is `january`, `januar`, `janvier`, `enero`; `月曜日` is `月曜`), values apart
 * by commas; months, weekdays, seasons, directions and genders in English, German, French and
 * Spanish, weekdays in Japanese and Chinese too; number words in English only (the download). Colours are not among them: a product's
 * colours are one entity on price comparison lists (PriceRunner's phones lost 48 true pairs
 * of 952 where they differed) and two on retailers' (Abt-Buy's wrong pairs 82 -> 70).
 */
const JA_DAYS = '月火水木金土日';
const ZH_DAYS = '一二三四五六日';
const VALUE_SETS = {
  month: 'january jan januar janvier enero, february feb februar fevrier febrero, march mar marz mars marzo, april apr avril abril, '
    + 'may mai mayo, june jun juni juin junio, july jul juli juillet julio, august aug aout agosto, september sep sept septembre septiembre, '
    + 'october oct oktober octobre octubre, november nov novembre noviembre, december dec dezember decembre diciembre',
  // Each day's Japanese `月曜日` or `月曜` and Chinese `星期一` or `周一` from its characters (JA_DAYS, ZH_DAYS).
  weekday: ['monday montag lundi lunes', 'tuesday dienstag mardi martes', 'wednesday mittwoch mercredi miercoles', 'thursday donnerstag jeudi jueves',
    'friday freitag vendredi viernes', 'saturday samstag samedi sabado', 'sunday sonntag dimanche domingo 星期天']
    .map((words, d) => `${words} ${JA_DAYS[d]}曜日 ${JA_DAYS[d]}曜 星期${ZH_DAYS[d]} 周${ZH_DAYS[d]}`).join(', '),
  season: 'spring fruhling printemps primavera, summer sommer ete verano, autumn fall herbst automne otono, winter hiver invierno',
  direction: 'north nord norte, south sud sur, east ost est este, west ouest oeste, northeast, northwest, southeast, southwest',
  side: 'left, right',
  end: 'front, rear',
  level: 'upper, lower',
  gender: 'men mens male herren homme hommes hombre hombres メンズ, women womens female ladies damen femme femmes mujer mujeres ウィメンズ レディース, '
    + 'boys jungen garcons ボーイズ, girls madchen filles ガールズ',
  size: 'small, medium, large',
  bed: 'king, queen, twin',
  number: 'one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve',
};
const VALUES = new Map(Object.entries(VALUE_SETS).flatMap(([set, values]) => values.split(', ').flatMap((value) => value.split(' ').map((word) => [fold(word), { set, value }]))));

/**
 * Whether word keys x and y (or CJK runs) name two values of one closed set (a month, a
 * weekday, a season, a compass direction, a side, a front or rear, an upper or lower, a
 * gender, a size, a bed's size, a number written as a word: `January` / `February`, `Januar` /
 * `Februar`, `North` / `South Wing`, `Mens` / `Womens`, `Large` / `Medium`, `King` / `Queen`,
 * `Chapter One` / `Chapter Two`, `月曜日` / `火曜日`),
 * which differ however many words agree.
 */
export function otherValues(x, y) {
  const [u, v] = [VALUES.get(x), VALUES.get(y)];
  return (u !== undefined && v !== undefined && u.set === v.set && u.value !== v.value) || otherDirection(x, y);
}

/** Whether a word names a value of a closed set (VALUE_SETS). */
export const namesValue = (key) => VALUES.has(key);

/** The directions among CJK characters, by direction (`東` and `东` are east). */
const CJK_DIRECTIONS = new Map([['東', 'e'], ['东', 'e'], ['西', 'w'], ['南', 's'], ['北', 'n']]);

/**
 * Whether CJK runs x and y are one but for one character, a direction where the other has
 * another (`北京大学附属中学` / `南京…`, `西新宿` / `東新宿`): a CJK run has no words to
 * compare, and a direction is a value of a closed set.
 */
function otherDirection(x, y) {
  if (x.length !== y.length) return false;
  let at = -1;
  for (let i = 0; i < x.length; i++) {
    if (x[i] === y[i]) continue;
    if (at >= 0) return false;
    at = i;
  }
  const [u, v] = [CJK_DIRECTIONS.get(x[at]), CJK_DIRECTIONS.get(y[at])];
  return u !== undefined && v !== undefined && u !== v;
}

/** A token's kinds: a word, a number (a digit, or a Roman numeral), a run of CJK characters. */
export const KIND_WORD = 0;
export const KIND_NUMBER = 1;
export const KIND_CJK = 2;

/**
 * The tokens of a text, each { key (folded), shown (as written, without edge punctuation),
 * kind }, `katakana` set on a piece of katakana alone, `tier` on a model's tier or a house
 * number's suffix (isTier), `modifier` on a word that makes another thing of its kind
 * (MODIFIER), `size` on a size after a size's word (SIZE_WORD), `modelLetter`
 * on a model's letter ending the text (isModelLetter) and `generation` on a generation
 * ending it (GENERATION).
 */
export function tokensOf(text) {
  const tokens = [];
  // ASCII holds no address counter, CJK run or ordinal indicator: a piece is one run, as written.
  const ascii = ASCII.test(text);
  for (const piece of (ascii ? text : text.replace(ADDRESS_COUNTER, '$1-').replace(BRACKETED_FORM, '')).split(/\s+/u)) {
    if (!piece) continue;
    for (const run of ascii ? [piece] : piece.split(CJK_RUN)) {
      const written = run.replace(POSSESSIVE, '');
      const folded = ascii ? foldAscii(written) : fold(written.replace(ORDINAL_INDICATOR, '$1'));
      const key = ORDINAL_WORDS.get(folded) ?? folded;
      if (!key) continue;
      const shown = run.replace(ascii ? ASCII_EDGE_PUNCTUATION : EDGE_PUNCTUATION, '') || run;
      // A katakana word standing alone is a word (`ブラック` / `ホワイト`): it has its boundaries.
      const cjk = !ascii && CJK.test(key);
      const katakana = cjk && KATAKANA_WORD.test(piece);
      const kind = cjk && !katakana ? KIND_CJK : DIGIT.test(key) || ROMAN.test(key) ? KIND_NUMBER : KIND_WORD;
      const token = { key, shown, kind };
      if (katakana) token.katakana = true;
      tokens.push(token);
    }
    // A `+` ending a word says `Plus` (`Galaxy S8+` / `Galaxy S8 Plus`).
    // After a CJK run the `+` is a token of its own (`南京大学+`), which `plus` replaces.
    if (PLUS_MODEL.test(piece)) {
      tokens.at(-1).key = tokens.at(-1).key.replace(/\+$/, '');
      if (!tokens.at(-1).key) tokens.pop();
      tokens.push({ key: 'plus', shown: '+', kind: KIND_WORD });
    }
  }
  tokens.forEach((t, i) => {
    if (isTier(t.key, tokens[i - 1]?.key ?? '', tokens[i + 1]?.key)) t.tier = true;
    if (SIZE.test(t.key) && SIZE_WORD.test(tokens[i - 1]?.key)) t.size = true;
    if (MODIFIER.test(t.key)) t.modifier = true;
  });
  // A model's letter is a word, though it reads as a Roman numeral (`Xbox One X`).
  if (tokens.length > 1 && isModelLetter(tokens.at(-1).key, tokens.at(-2).key)) Object.assign(tokens.at(-1), { kind: KIND_WORD, modelLetter: true });
  if (tokens.length > 1 && GENERATION.test(tokens.at(-1).key)) tokens.at(-1).generation = true;
  return tokens;
}

// Words that name a model or an edition of its own beside its number (`iPhone 8` / `iPhone 8
// Plus`, `Galaxy S20` / `S20 FE`, `iPad Air 2` / `iPad 2`, `Premiere Pro CS3` / `CS3 Upgrade`,
// `Office 365 Business` / `Business Premium`, `Photoshop CS3` / `CS3 Extended`, a drink's `Decaf`, `Diet`).
const TIER = /^(?:pro|max|plus|mini|lite|se|air|edge|fe|upgrade|deluxe|academic|ultimate|premium|extended|decaf|diet)$/;
/** The word after an edition's name (`PlayStation 5 Digital Edition`, `Sports Edition`), which names none itself. */
export const EDITION = 'edition';
/** What a food or drink is free of, before `Free` (`Sugar Free Red Bull`): another product; not `SIM Free`, `Hands-Free`. */
const FREE_OF = /^(?:sugar|gluten|caffeine|fat|alcohol|lactose|dairy|nut|salt)$/;

/**
 * Whether a token of key `key`, after one of key `before` and before one of key `after`
 * (undefined at the end), names a tier (TIER), an edition (before EDITION) or what a food is free of (FREE_OF), is `Ultra` after a number not followed by `HD`
 * (`Galaxy S23 Ultra`, `Xperia XA2 Ultra`; not `4K Ultra HD` nor `Linksys Ultra RangePlus`),
 * a house number's suffix after it (HOUSE_SUFFIX: `12 bis rue de la Paix`, another house
 * than `12`), or a model's generation after its number or `Mark` (MODEL_GENERATION).
 */
function isTier(key, before, after) {
  if (key === 'ultra') return DIGIT.test(before) && after !== 'hd';
  return TIER.test(key) || after === EDITION || (after === 'free' && FREE_OF.test(key)) || (HOUSE_SUFFIX.test(key) && /^\d+$/.test(before))
    || (MODEL_GENERATION.test(key) && (DIGIT.test(before) || before === 'mark' || before === 'mk'));
}

// A model's generation: a Roman numeral of two letters or more after its number or `Mark`
// (`RX10 IV`, `EOS 6D Mark II`, `K-5 II`), a number of its own.
const MODEL_GENERATION = /^(?:ii|iii|iv|vi|vii|viii|ix|xi|xii|xiii)$/;

// Suffixes that make a house number another house's (French, Italian: `12 bis`, `12 ter`).
const HOUSE_SUFFIX = /^(?:bis|ter|quater)$/;

// Numbers written as words, which name models as digits do (`Xbox One`).
const NUMBER_WORD = /^(?:one|two|three|four|five|six|seven|eight|nine|ten)$/;

/**
 * Whether a letter ending an entry after a token of key `before` is a model's of its own:
 * after a number ending in a digit (`iPhone 6 S`, as `6s`, `LG G3 S`; not a colour's code,
 * `DMC-LX15EG K`), a Roman numeral or a number word (`Xbox One S`, `Xbox One X`); after
 * digits not a unit's `x` (`77 x`) or `u`, as lettered.
 */
function isModelLetter(key, before) {
  if (!/^[a-z]$/.test(key)) return false;
  if (NUMBER_WORD.test(before) || ROMAN.test(before)) return true;
  return /\p{Nd}$/u.test(before) && !/[xu]/.test(key);
}

// Generational suffixes, which tell a father from his son, ending a name: on one side only
// they differ (`John Smith` / `John Smith Jr.`), as on each side (`Jr.` / `Sr.`); within a
// name they are a street's or a school's (`Martin Luther King Jr Drive`).
const GENERATION = /^(?:jr|sr)$/;

// Words that make a thing another of its kind wherever they stand, on one side only in a list
// (`Gallon Whole Milk` / `Half Gallon …`, `Window Envelopes` / `Double Window …`, `High
// School` / `Junior High School`).
const MODIFIER = /^(?:half|quarter|double|triple|junior|senior)$/;

// A garment's size in letters after the word that says so (`Size M` / `Size L`, `Gr. XL`).
const SIZE_WORD = /^(?:size|gr|grosse|groesse|taille|talla|taglia)$/;
const SIZE = /^(?:[sml]|x{1,3}[sl]|[2-5]xl)$/;
