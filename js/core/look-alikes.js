// Look-alikes of different entities (README "Look-alikes"): two short entries whose
// identifying parts differ, however similar the rest. Plain JS, no WASM: dedup asks it of
// the entries its grouping by the short measure would merge (dedup/look-alikes.js), and
// the review entries say with it why a pair was listed.
//
// The parts of an entry are its tokens (tokens.js: folded as the short measure folds, CJK
// runs apart, marked where they name a tier, a size, a model's letter or a generation: its
// isTier, SIZE_WORD, isModelLetter and GENERATION below). Two entries are compared on the
// tokens left once the tokens they share are set aside (a token equal to two or three
// adjacent tokens of the other side joined is shared: `10-Cup` / `10 Cup`, `77x147` / `77 x
// 147`):
// - numbers (tokens with a digit, and Roman numerals up to XIII): shared when they have the
//   same digits and one abbreviates the other (`AM53` / `AM53BK`), but for digits alone
//   against one letter more, not a unit's `x` or `u`, unless their side holds the letter
//   (lettered: `4` / `4B`, `6` / `6s` differ; `Flat B 29` / `29B` do not); a typo when one
//   edit apart and each of digits alone, five or more (TYPO_NUMBER: a postcode, a phone number, a date: `90210` / `90201`);
//   else they differ outright, as house numbers and models identify (`125` / `123`,
//   `S24` / `S23`, `WH-1000XM4` / `WH-1000XM5`, `9500CI` / `9500IX`), as does a letter in
//   its place, the tokens around it alike (letterForModel: `Galaxy S8` / `Galaxy Y`, `Xperia
//   L1` / `Xperia L`). A number on one side only is no difference, but a model's generation
//   (tokens.js isTier: a Roman numeral after a number or `Mark`, `RX10` / `RX10 IV`) and, in
//   a list, one of one or two digits ending an entry whose other holds none (sequel: `Toy
//   Story` / `Toy Story 2`), which differ outright;
// - words (no digit, not CJK): shared when one explains the other (word-forms.js): an abbreviation (the
//   shorter starts with the same letter and is a subsequence of the longer: `Ltd` /
//   `Limited`, `Hauptstr.` / `Hauptstraße`, `J` / `John`), or a typo: one letter inserted,
//   deleted or two swapped, with at least 3 letters (`Jon` / `John`, `Mircosoft`), or one
//   replaced, with at least 5 (`Smyth` / `Smith`; `Tim` / `Tom`, `Chen` / `Chan` stay
//   apart), but not a letter written with a diacritic (accentReplaced: `Müller` / `Miller`
//   stay apart; `Mueller`, `Muller` do not), or another form of it: the same first 5
//   letters or more, then at most 3 more each (`Supply` / `Supplies`; `Consulting` /
//   `Consultants` stay apart); never two forms of a given name (namesApart: `Robert` /
//   `Roberta`), nor two letters and the same with one doubled (doubledLetter: `AA` / `AAA`,
//   `XL` / `XXL`), nor two sizes after a size's word (SIZE_WORD: `Size M` / `Size L`), nor
//   two values of one closed set (tokens.js otherValues: `January` / `February`, `North` /
//   `South`, `Mens` / `Womens`): these differ outright however many words agree; a possessive's `s` is no letter
//   of its word (`Mary's` / `Mark's`). A word left on each side is a difference (`Bahn` /
//   `Bank`, `Gadgets` / `Widgets`; not a legal form, `N.V.` / `B.V.`, `GmbH` / `Inc.`,
//   `Gesellschaft mit beschränkter Haftung`, nor a conjunction, which `&` says: the short
//   measure's table, legal-forms.js); a word on one side only is not, but in a list
//   (listDifference) beside a lone word (`Mitchell` / `Mitchell Green`), and where it is a
//   model's tier or an edition (isTier: `Plus`, `Pro`, `Premium`..., the word before `Edition`, `Ultra` after a
//   number, a model's `+`, a house number's `bis`) and both sides hold numbers or it ends
//   its entry (`Nintendo Switch` / `Switch Lite`; not `SE`, a company's too), a letter
//   ending an entry after a number or a number word (isModelLetter: `Xbox One S`, `LG G3
//   S`), or, in a list, a generation ending a name (GENERATION: `Jr`, `Sr`) or a modifier
//   anywhere (tokens.js MODIFIER: `Half`, `Double`, `Junior`): then it differs
//   outright (`iPhone 8` / `iPhone 8 Plus`, `Galaxy S8` / `S8+`, `Xbox One` / `Xbox One X`,
//   `John Smith` / `John Smith Jr.`);
// - CJK runs are not compared: they have no word boundaries to compare by (their digits
//   still count), but a run that repeats the characters of the other's differs as a word
//   (repeatsCharacters: `罗刚` / `罗刚刚`), as do two whose own characters differ
//   (charactersDiffer: `新宿支店` / `渋谷支店`), and a piece of katakana alone is a word beside
//   numbers on both sides (`256GB ブラック` / `256GB ホワイト`; a name's reading varies,
//   `タロウ` / `タロー`).
// Numbers that differ outright always make a difference. A typo in a number, or a word left
// on each side, makes one unless the entries share at least TYPO_AGREEMENT tokens; a word
// left on each side that each says twice always does (`Oxford, Oxford` / `Cambridge, Cambridge`). Two
// one-line records (one of them a record by thresholds.js isRecord: at least RECORD_FIELDS
// short fields, not a title listing words; the other split into as many fields, whatever
// its words; one of them `named`, its first field without a digit: a person's, not an
// address's `Flat 2, 14 High Street, …`, whose numbers identify it) make none when they
// share an identifier (a number of thresholds.js IDENTIFIER_DIGITS digits or more, equal or
// one typo apart: a date of birth, a phone) and no other differs outright on each side, or,
// unless each holds an identifier the other's differs from outright beside a word that
// differs, at least RECORD_SHARED tokens and RECORD_AGREEMENT times as many as differ: a
// record whose identifier or many fields agree may carry typos or a changed value elsewhere.
// Twins who share an address and a date of birth are then one record: records with fields
// tell them apart (README "Records").

import { IDENTIFIER_DIGITS, RECORD_FIELDS, isRecord, recordFields } from './thresholds.js';
import { isLegalFormOrConjunction, markLegalPhrases } from './legal-forms.js';
import { DIGIT, EDITION, KIND_CJK, KIND_NUMBER, KIND_WORD, ROMAN, namesValue, otherValues, tokensOf } from './tokens.js';
import { abbreviates, charactersDiffer, doubledLetter, explains, oneTypoApart, repeatsCharacters } from './word-forms.js';

/**
 * The identifying parts of a text: `tokens` in order, each { key (folded), shown (as
 * written, without edge punctuation), kind }; `record`, whether it is a one-line record
 * (thresholds.js isRecord); `fields`, how many fields it splits into as one (recordFields);
 * `named`, whether its first field (recordFields) has no digit; `lone`, whether its tokens,
 * legal forms aside, are one word; `numbered`, whether a token is a number (hasNumbers).
 */
export function identifyingParts(text) {
  const tokens = tokensOf(text);
  markLegalPhrases(tokens);
  const fields = recordFields(text);
  // Each word followed by a number of digits alone, and that number's key; null for a word
  // followed by two (`ef m 15 45mm … ef m 55 200mm`), which says nothing of their order.
  const numberAfter = new Map();
  tokens.forEach((t, i) => {
    const word = tokens[i - 1];
    if (word?.kind === KIND_WORD && BARE_NUMBER.test(t.key)) numberAfter.set(word.key, numberAfter.has(word.key) ? null : t.key);
  });
  return { tokens, record: isRecord(text), fields: fields.length, named: !DIGIT.test(fields[0]), lone: isLoneWord(tokens),
    numbered: tokens.some((t) => t.kind === KIND_NUMBER), numberAfter };
}

/**
 * The numbers that one word is followed by on each side, where each side holds the other's
 * number too (`Order 1 of customer 4` / `Order 4 of customer 1`, `Flat 1, 4 Main Street` /
 * `Flat 4, 1 Main Street`): the same tokens, which are compared without their order, in
 * other places. Null where there are none.
 */
function numbersSwapped({ tokens: a, numberAfter: x }, { tokens: b, numberAfter: y }) {
  // A number that follows another word on the other side moved with its word (`Standard 2007`
  // / `2007 Standard`), unless that word is followed by this side's number there: a swap.
  const moved = (after, otherAfter, t, u) => [...after].some(([word, v]) => v === t && otherAfter.get(word) !== u);
  // By word, sorted: the same answer whichever entry comes first.
  const words = [...x.keys()].filter((w) => {
    const [t, u] = [x.get(w), y.get(w)];
    return t && u && t !== u && a.some((q) => q.key === u) && b.some((q) => q.key === t) && !moved(y, x, t, u) && !moved(x, y, u, t);
  }).sort();
  return words.length ? [words.map((w) => x.get(w)), words.map((w) => y.get(w))] : null;
}

/** Whether identifyingParts' answer has a number token. */
export function hasNumbers(parts) {
  return parts.numbered;
}


/** The digits of a token, in order. */
function digitsOf(key) {
  return key.replace(/\P{Nd}+/gu, '');
}

/** A number of digits alone. */
const BARE_NUMBER = /^\d+$/;

/**
 * Whether `long` is the number `short` with one letter more, not a unit's (`8x` zoom, `3u`
 * users), which the tokens of short's side lack (`4` / `4B`, `iPhone 6` / `6s`, `Nuvi 205` /
 * `205W`): a flat or a model of its own, where `Flat B 29` / `29B` is one.
 */
function lettered(short, long, tokensOfShort) {
  return BARE_NUMBER.test(short) && long.length === short.length + 1 && !/[xu]$/.test(long) && !tokensOfShort.some((t) => t.key === long.at(-1));
}

/**
 * Whether a token may distinguish an entity: not a legal form, nor a conjunction
 * (`Brightwell & Co` / `Brightwell and Co`).
 */
const distinguishes = (token) => token.legal !== true && !isLegalFormOrConjunction(token.key);

/** Whether tokens (tokensOf's), legal forms and conjunctions aside, are one word (not katakana, compared beside numbers only). */
function isLoneWord(tokens) {
  const kept = tokens.filter(distinguishes);
  return kept.length === 1 && kept[0].kind === KIND_WORD && kept[0].katakana !== true;
}

/**
 * Whether the left word x of tokens a and the left number y of tokens b stand at one place,
 * a letter where the other's model has digits: the same token before each, and after each
 * the same token or the end (`Galaxy S8` / `Galaxy Y`, `Xperia L1` / `Xperia L`, `Moto G6 UK`
 * / `Moto C UK`).
 */
function letterForModel(x, a, y, b) {
  if (!/^[a-z]$/.test(x.key)) return false;
  const [i, j] = [a.indexOf(x), b.indexOf(y)];
  return i > 0 && j > 0 && a[i - 1].key === b[j - 1].key && a[i + 1]?.key === b[j + 1]?.key;
}

/**
 * Marks, in `used`, tokens of `parts` that equal a token of `other` (also marked), as
 * multisets: each token of `parts` in turn takes the first equal one not taken (entries
 * have a few tokens: a scan, not a map).
 */
function matchEqual(parts, usedA, other, usedB) {
  for (let i = 0; i < parts.length; i++) {
    const j = other.findIndex((t, k) => !usedB[k] && t.key === parts[i].key);
    if (j >= 0) usedA[i] = usedB[j] = 1;
  }
}

/**
 * Marks three adjacent unused tokens of `parts` that, joined, equal an unused number of
 * `other` (`77 x 147` / `77x147`), then two that equal any token (`10 Cup` / `10-Cup`).
 */
function matchJoined(parts, usedA, other, usedB) {
  for (const run of [3, 2]) {
    for (let i = 0; i + run <= parts.length; i++) {
      if (usedA[i] || usedA[i + 1] || (run === 3 && usedA[i + 2])) continue;
      const j = joinedAt(parts, i, run, other, usedB);
      // Three only where they make a number: a letter code's pieces are abbreviations (`AI SH HPHONE` / `AISHHPHONE`).
      if (j < 0 || (run === 3 && !parts.slice(i, i + 3).some((t) => DIGIT.test(t.key)))) continue;
      usedA.fill(1, i, i + run);
      usedB[j] = 1;
    }
  }
}

/**
 * The first unused token of `other` that equals the `run` tokens of `parts` from `i` joined,
 * or -1: compared piece by piece, no joined string made (dedup asks it of most pairs it groups).
 */
function joinedAt(parts, i, run, other, usedB) {
  let length = 0;
  for (let r = 0; r < run; r++) length += parts[i + r].key.length;
  for (let j = 0; j < other.length; j++) {
    const key = other[j].key;
    if (usedB[j] || key.length !== length) continue;
    let at = 0;
    let r = 0;
    while (r < run && key.startsWith(parts[i + r].key, at)) at += parts[i + r++].key.length;
    if (r === run) return j;
  }
  return -1;
}

/**
 * Marks a token of `parts` as used when one equal to it on its side is (`HDR-SR10 … -
 * HDRSR10`: one code said twice), but for a number of digits alone where `other` has one
 * left, which it then stands against (`Flat 2, 2 High Street` / `Flat 5, 2 High Street`:
 * two flats of one house; `40GB … HDRSR10` is no flat).
 */
function repeatsUsed(parts, used, other, otherUsed) {
  const stands = other.some((t, k) => !otherUsed[k] && BARE_NUMBER.test(t.key));
  // A token this marks equals one marked before, so reading the marks as they change gives the same.
  for (let i = 0; i < parts.length; i++) used[i] ||= !(stands && BARE_NUMBER.test(parts[i].key)) && parts.some((t, j) => used[j] && t.key === parts[i].key);
}

/** The unused tokens of `parts` of `kind`. */
function left(parts, used, kind) {
  return parts.filter((t, i) => !used[i] && t.kind === kind);
}

/** Pairs each token of xs with the first unpaired token of ys that `fits`; returns the unpaired of each side. */
function pairUp(xs, ys, fits) {
  const taken = new Uint8Array(ys.length);
  const restX = [];
  for (const x of xs) {
    const j = ys.findIndex((y, k) => !taken[k] && fits(x, y));
    if (j >= 0) taken[j] = 1;
    else restX.push(x);
  }
  return [restX, ys.filter((y, k) => !taken[k])];
}

/**
 * A number that one edit away may be a typo: five digits or more alone (a postcode, a date);
 * shorter ones (a house number) and model codes (`WH-1000XM5`) identify.
 */
const TYPO_NUMBER = /^\p{Nd}{5,}$/u;
/** Shared tokens from which a typo in a number or an unexplained word is not a difference. */
const TYPO_AGREEMENT = 6;
/** The tokens a one-line record (thresholds.js RECORD_FIELDS) must share, and how many times its differing ones. */
const RECORD_SHARED = 6;
const RECORD_AGREEMENT = 2;

/**
 * Whether the numbers `left` of an entry are one number of one or two digits that ends it,
 * where the other entry holds none: in a list, a sequel's or a model's (`Toy Story` / `Toy
 * Story 2`, `Google Pixel` / `Google Pixel 2`, `iPhone` / `iPhone 14`; a record's other fields tell).
 */
const sequel = (parts, left, other) => !other.numbered && left.length === 1 && left[0] === parts.tokens.at(-1) && /^\d{1,2}$/.test(left[0].key);

/**
 * Whether tokens end in a qualifier none of whose tokens `used` marks shared: `of` or `at`
 * and the words after it (`First National Bank of Texas`, `Hilton at the Airport`; not `in`,
 * which a product's colour follows: `Galaxy S8 in Black`).
 */
function qualified(tokens, used) {
  const k = tokens.findLastIndex((t) => t.key === 'of' || t.key === 'at');
  return k > 0 && k < tokens.length - 1 && tokens.every((t, i) => i < k || !used[i]);
}

/** Whether a number token is a model's generation (tokens.js isTier: `RX10 IV`, `Mark II`), which differs on one side only. */
const isGeneration = (token) => token.tier === true;

/**
 * The tokens of each side left once those `usedA` and `usedB` mark as shared are set aside,
 * as differingParts compares them: { leftNumbersA, leftNumbersB, leftWordsA, leftWordsB,
 * lone, tiered (a test of words), tierLeft, mayDiffer }, mayDiffer false when nothing left
 * can make a difference. Fewer tokens left never make mayDiffer true.
 */
function tokensLeft(partsA, usedA, partsB, usedB, loneWords) {
  const a = partsA.tokens;
  const b = partsB.tokens;
  const leftNumbersA = left(a, usedA, KIND_NUMBER);
  const leftNumbersB = left(b, usedB, KIND_NUMBER);
  // CJK runs are compared only where one repeats the characters of another, their characters
  // differ (charactersDiffer) or one names another value of its set (`月曜日` / `火曜日`).
  const [cjkA, cjkB] = [left(a, usedA, KIND_CJK), left(b, usedB, KIND_CJK)];
  // A katakana word is one beside numbers on both sides (a product's colour, `256GB ブラック`);
  // else it is compared as other CJK, not at all: names' readings vary (`タロウ` / `タロー`).
  const numbered = hasNumbers(partsA) && hasNumbers(partsB);
  const compared = (t) => distinguishes(t) && (numbered || t.katakana !== true || namesValue(t.key));
  const comparedRuns = (x, y) => repeatsCharacters(x.key, y.key) || charactersDiffer(x.key, y.key) || otherValues(x.key, y.key);
  const leftWordsA = left(a, usedA, KIND_WORD).filter(compared).concat(cjkA.filter((x) => cjkB.some((y) => comparedRuns(x, y))));
  const leftWordsB = left(b, usedB, KIND_WORD).filter(compared).concat(cjkB.filter((y) => cjkA.some((x) => comparedRuns(x, y))));
  const lone = loneWords && partsA.lone !== partsB.lone;
  // A difference needs a number left on each side or a word left on each side (below), or
  // one side a lone word, or a model's tier: most pairs dedup asks about have none, and need no more.
  // A generation in a list only: a record's other fields tell a father from his son (records.js keysTellApart).
  // A tier ending an entry names its model without numbers too (`Nintendo Switch Lite`,
  // `Kindle Signature Edition`), but `SE`, which ends a European company's name as often (`BASF SE`).
  const last = (tokens) => (tokens.length > 1 && tokens.at(-1).key === EDITION ? tokens.at(-2) : tokens.at(-1));
  const ending = (t) => t.key !== 'se' && (t === last(a) || t === last(b));
  const tiered = (words) => words.some((t) => (loneWords && t.generation === true) || (t.tier === true && (numbered || ending(t))) || t.modelLetter === true || (loneWords && t.modifier === true));
  // A model's generation on one side, or in a list a sequel's number (no other number pairs with either).
  const generation = leftNumbersA.some(isGeneration) || leftNumbersB.some(isGeneration)
    || (loneWords && (sequel(partsA, leftNumbersA, partsB) || sequel(partsB, leftNumbersB, partsA)));
  const tierLeft = generation || tiered(leftWordsA) || tiered(leftWordsB);
  const letterAndNumber = (leftWordsA.length && leftNumbersB.length) || (leftWordsB.length && leftNumbersA.length);
  // In a list, a qualifier one side ends in where the other has nothing left (`First National
  // Bank` / `First National Bank of Texas`): another branch, campus or place.
  const qualifier = loneWords && ((!leftWordsB.length && !leftNumbersB.length && qualified(a, usedA))
    || (!leftWordsA.length && !leftNumbersA.length && qualified(b, usedB)));
  const mayDiffer = lone || tierLeft || qualifier || letterAndNumber || (leftNumbersA.length && leftNumbersB.length) || (leftWordsA.length && leftWordsB.length);
  return { leftNumbersA, leftNumbersB, leftWordsA, leftWordsB, lone, tiered, tierLeft, generation, qualifier, mayDiffer: Boolean(mayDiffer) };
}

/**
 * What makes two entries different entities (see the header), given their
 * identifyingParts: null when nothing does, else { numbers?: [a's, b's], words?: [a's, b's] },
 * the tokens (as written) of each side that the other lacks. With `loneWords` (a list's
 * entries: listDifference), also a lone word against more, and a generation on one side.
 */
export function differingParts(partsA, partsB, loneWords = false) {
  const a = partsA.tokens;
  const b = partsB.tokens;
  const swapped = numbersSwapped(partsA, partsB);
  if (swapped) return { numbers: swapped };
  const usedA = new Uint8Array(a.length);
  const usedB = new Uint8Array(b.length);
  matchEqual(a, usedA, b, usedB);
  // Joined tokens only mark more tokens shared, so a pair that needs no more without them
  // needs none with them: most pairs dedup asks about, which then skip the joining.
  const [equalA, equalB] = [usedA.slice(), usedB.slice()];
  repeatsUsed(a, equalA, b, equalB);
  repeatsUsed(b, equalB, a, equalA);
  const leftEqual = tokensLeft(partsA, equalA, partsB, equalB, loneWords);
  if (!leftEqual.mayDiffer) return null;
  matchJoined(a, usedA, b, usedB);
  matchJoined(b, usedB, a, usedA);
  repeatsUsed(a, usedA, b, usedB);
  repeatsUsed(b, usedB, a, usedA);
  const joined = usedA.some((u, i) => u !== equalA[i]) || usedB.some((u, i) => u !== equalB[i]);
  const { leftNumbersA, leftNumbersB, leftWordsA, leftWordsB, lone, tiered, tierLeft, generation, qualifier, mayDiffer } = joined ? tokensLeft(partsA, usedA, partsB, usedB, loneWords) : leftEqual;
  if (!mayDiffer) return null;
  // Tokens shared, counted on the side that uses them more (a token said twice there counts
  // twice): the same whichever entry comes first. On the side with fewer, lists lost true
  // pairs (affiliations' grouped 2,611 -> 2,521) and gained few right separations.
  const count = (used) => used.reduce((sum, u) => sum + u, 0);
  let shared = Math.max(count(usedA), count(usedB));
  const sameNumber = ({ key: x }, { key: y }) => digitsOf(x) === digitsOf(y) && !ROMAN.test(x) && !ROMAN.test(y) && (abbreviates(x, y) || abbreviates(y, x))
    && !lettered(x, y, a) && !lettered(y, x, b);
  const [numbersA, numbersB] = pairUp(leftNumbersA, leftNumbersB, sameNumber);
  shared += leftNumbersA.length - numbersA.length;
  const [hardA, hardB] = pairUp(numbersA, numbersB, ({ key: x }, { key: y }) => oneTypoApart(x, y, 1, 1) && TYPO_NUMBER.test(x) && TYPO_NUMBER.test(y));
  const softNumbers = numbersA.length - hardA.length;
  const [wordsA, wordsB] = pairUp(leftWordsA, leftWordsB, explains);
  shared += leftWordsA.length - wordsA.length;
  // A tier word left unexplained beside numbers on both sides, a generation, a model's or a
  // sequel's number on one side differ outright, as do two sizes one a letter doubled of the other (`AA` / `AAA`) or each
  // after a size's word (`Size M` / `Size L`), and two values of one closed set (`January` / `February`).
  const values = wordsA.some((x) => wordsB.some((y) => doubledLetter(x.key, y.key) || doubledLetter(y.key, x.key) || (x.size && y.size)
    || otherValues(x.key, y.key)));
  const tier = generation || (tierLeft && (tiered(wordsA) || tiered(wordsB))) || values;
  // A model's letter where the other's model has digits differs as two numbers do.
  const modelA = wordsA.find((x) => numbersB.some((y) => letterForModel(x, a, y, b)));
  const modelB = wordsB.find((x) => numbersA.some((y) => letterForModel(x, b, y, a)));
  const hard = (hardA.length > 0 && hardB.length > 0) || modelA !== undefined || modelB !== undefined;
  const softWords = wordsA.length > 0 && wordsB.length > 0;
  // A changed word each side says twice names what the entry is about (`University of Oxford,
  // Oxford` / `University of Cambridge, Cambridge`): it differs however many tokens agree.
  const saidTwice = (words) => words.some((t, i) => words.findIndex((u) => u.key === t.key) !== i);
  const repeatedWord = () => softWords && saidTwice(wordsA) && saidTwice(wordsB);
  const soft = softNumbers > 0 || softWords;
  if ((partsA.record || partsB.record) && (partsA.named || partsB.named) && Math.min(partsA.fields, partsB.fields) >= RECORD_FIELDS) {
    // An identifier both records hold (equal, or one typo apart) says one person, whatever
    // their typos, unless another differs outright on each side (a birth date one digit off
    // and two phones: two people); one that differs outright on each side beside a word that
    // differs says two, whatever they share.
    const identifier = (t) => digitsOf(t.key).length >= IDENTIFIER_DIGITS;
    const identifiersDiffer = hardA.some(identifier) && hardB.some(identifier);
    const sharesIdentifier = a.some((t, i) => usedA[i] && t.kind === KIND_NUMBER && identifier(t)) || numbersA.some((t) => !hardA.includes(t) && identifier(t));
    if (sharesIdentifier && !identifiersDiffer) return null;
    const differing = Math.max(numbersA.length, numbersB.length) + Math.max(wordsA.length, wordsB.length);
    if (!(identifiersDiffer && softWords) && shared >= RECORD_SHARED && shared >= RECORD_AGREEMENT * differing && !repeatedWord()) return null;
  }
  // The lone word shared or explained, words left beside it on the other side.
  const loneDiffers = lone && (partsA.lone ? !wordsA.length && wordsB.length > 0 : !wordsB.length && wordsA.length > 0);
  if (!hard && !tier && !(soft && shared < TYPO_AGREEMENT) && !loneDiffers && !qualifier && !repeatedWord()) return null;
  const differs = {};
  // A model's letter is shown as its number.
  if (hard || softNumbers > 0 || generation) differs.numbers = [numbersA.concat(modelA ?? []).map((t) => t.shown), numbersB.concat(modelB ?? []).map((t) => t.shown)];
  if (softWords || loneDiffers || qualifier || (tier && wordsA.length + wordsB.length > 0)) differs.words = [wordsA.map((t) => t.shown), wordsB.map((t) => t.shown)];
  return differs;
}

/**
 * What makes two entries of a list different entities: differingParts, and a lone word
 * against more words (legal forms, numbers and CJK runs aside; the lone word shared or
 * explained): a given name or a surname alone, or one word of a name, stands for every entry
 * that holds it (`Mitchell` / `Mitchell Green`, `Palm` / `The Palm`), and a generation ending
 * a name on one side only (`John Smith` / `John Smith Jr.`). Not a record's field: its other
 * fields tell.
 */
export function listDifference(partsA, partsB) {
  return differingParts(partsA, partsB, true);
}

/**
 * What differs (differingParts' answer), as a person reads it: 'numbers 125 / 123; words
 * (none) / Green', each side's tokens as written, the first entry's first; a lone word's
 * side holds none.
 */
export function differenceText({ numbers, words }) {
  const sides = ([first, other]) => `${first.join(' ') || '(none)'} / ${other.join(' ') || '(none)'}`;
  return [numbers && `numbers ${sides(numbers)}`, words && `words ${sides(words)}`].filter(Boolean).join('; ');
}
