// When one word explains another in the look-alike rule (look-alikes.js; README
// "Look-alikes"): an abbreviation, a typo, another form of the word, and the pairs that look
// like those and are not (two forms of a given name, two titles, a size's doubled letter, a
// letter replaced by one with a diacritic, CJK runs whose characters differ). Plain JS; the
// records' levels compare with oneTypoApart and sameFrom too.
import { withoutCjkLegalForms } from './legal-forms.js';
import { CJK, otherValues } from './tokens.js';

/** Whether `short` abbreviates `long`: shorter, the same first letter, a subsequence of it. */
export function abbreviates(short, long) {
  if (short.length >= long.length || short[0] !== long[0]) return false;
  let at = 1;
  for (let i = 1; i < long.length && at < short.length; i++) if (long[i] === short[at]) at++;
  return at === short.length;
}

/**
 * Whether x and y are one typo apart (see the header): one letter inserted, deleted or
 * swapped with its neighbour, both at least `least` long, or one replaced, both at least
 * `replacedFrom` long.
 */
export function oneTypoApart(x, y, least, replacedFrom) {
  if (x === y) return false;
  const shorter = Math.min(x.length, y.length);
  if (Math.abs(x.length - y.length) > 1 || shorter < least) return false;
  let i = 0;
  while (i < shorter && x.charCodeAt(i) === y.charCodeAt(i)) i++;
  if (x.length !== y.length) return x.length < y.length ? sameFrom(x, i, y, i + 1) : sameFrom(y, i, x, i + 1); // one inserted
  if (sameFrom(x, i + 1, y, i + 1)) return shorter >= replacedFrom; // one replaced
  return x.charCodeAt(i) === y.charCodeAt(i + 1) && x.charCodeAt(i + 1) === y.charCodeAt(i) && sameFrom(x, i + 2, y, i + 2); // two swapped
}

/** Whether x from index i on equals y from index k on (no substrings made: the records' levels compare millions of pairs). */
export function sameFrom(x, i, y, k) {
  if (x.length - i !== y.length - k) return false;
  while (i < x.length) if (x.charCodeAt(i++) !== y.charCodeAt(k++)) return false;
  return true;
}

/** How many letters x and y start with alike. */
function commonStart(x, y) {
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i;
}

/** Letters two forms of one word share at least, and each may add to them (`Supply` / `Supplies`). */
const STEM = 5;
const ENDING = 3;

/** Whether x and y are forms of one word: a common start of at least STEM letters, then at most ENDING letters each. */
function sameStem(x, y) {
  const i = commonStart(x, y);
  return i >= STEM && x.length - i <= ENDING && y.length - i <= ENDING;
}

/**
 * How two forms of a given name end, read as `c<shorter ending>|<longer ending>` after their
 * common start, c its last letter: each in another vowel (`Mari|o` / `Mari|a` / `Mari|e`);
 * `ne`, `le` or `ine` added to a name whole or to its `a` form (`Jean|ne`, `Daniel|le`,
 * `Paul|ine`; `Daniel|a` / `Daniel|le`); an `a` added after a consonant (`Robert|a`). Not an
 * `e` added (`Brown` / `Browne`), `e` / `le` (`Isabele` / `Isabelle`), an `a` doubled
 * (`Joshua` / `Joshuaa`): typos as often.
 */
const NAME_FORMS = /^(?:.[aeio]\|[aeio]|.a?\|(?:[ln]e|ine)|[^aeiou]\|a)$/;

/**
 * Whether x and y are two forms of a given name (`Robert` / `Roberta`, `Jean` / `Jeanne`,
 * `Mario` / `Maria` / `Marie`: NAME_FORMS, after the same 3 letters or more): two people,
 * though a typo or an abbreviation would explain it.
 */
function namesApart(x, y) {
  const i = commonStart(x, y);
  if (i < 3) return false;
  const [short, long] = [x.slice(i), y.slice(i)].sort((p, q) => p.length - q.length);
  return NAME_FORMS.test(`${x[i - 1]}${short}|${long}`);
}

/**
 * Whether CJK runs x and y hold the same characters, one of them more often (`罗刚` / `罗刚刚`,
 * `孙志强` / `孙志强志强`): two names, which the short measure, counting each character once, finds alike.
 */
export function repeatsCharacters(x, y) {
  const characters = (run) => [...new Set(run)].sort().join('');
  return x.length !== y.length && CJK.test(x) && CJK.test(y) && characters(x) === characters(y);
}

/**
 * Whether CJK runs x and y, legal forms aside, each hold a character the other lacks, and
 * three such in all (`新宿支店` / `渋谷支店`, `北京分行` / `上海分行`, `新宿` / `新大久保`): two
 * branches, places or names, which no word boundary sets apart. One each is a variant or a
 * slip of the input method (`北京大學` / `北京大学`, `斉藤` / `斎藤`), and characters one side
 * adds are no difference (`港区六本木` / `東京都港区六本木`, `株式会社ソニー` / `ソニー株式会社`).
 */
export function charactersDiffer(x, y) {
  if (!CJK.test(x) || !CJK.test(y)) return false;
  const [u, v] = [withoutCjkLegalForms(x), withoutCjkLegalForms(y)];
  const only = (p, q) => [...new Set(p)].filter((c) => !q.includes(c)).length;
  const [inU, inV] = [only(u, v), only(v, u)];
  return inU > 0 && inV > 0 && inU + inV >= 3;
}

// Titles of address, which tell a couple apart: `Mr` abbreviates `Mrs`.
const TITLE = /^m(?:r|rs|s|iss)$/;

/**
 * Whether the letter tokens x and y (of one length) differ in, as written, is one with a
 * diacritic (`Müller` / `Miller`): a diacritic is kept or dropped, no typo replaces it.
 */
function accentReplaced(x, y) {
  const [u, v] = [x.shown.toLowerCase(), y.shown.toLowerCase()];
  if (u.length !== x.key.length || v.length !== y.key.length || u.length !== v.length) return false;
  let k = 0;
  while (x.key[k] === y.key[k]) k++;
  return u[k] !== x.key[k] || v[k] !== y.key[k];
}

/**
 * Whether x is a word of two letters and y the same with one of its letters doubled (`AA` /
 * `AAA` batteries, `XL` / `XXL`): another size, though x abbreviates y.
 */
export function doubledLetter(x, y) {
  return x.length === 2 && y.length === 3 && (y[1] === y[0] || y[1] === y[2]) && oneTypoApart(x, y, 1, Infinity);
}

/** Whether word token x explains word token y or y explains x (see the header). */
export function explains(tx, ty) {
  const [x, y] = [tx.key, ty.key];
  if (x === y) return true;
  if (namesApart(x, y) || repeatsCharacters(x, y) || charactersDiffer(x, y) || otherValues(x, y) || (TITLE.test(x) && TITLE.test(y)) || doubledLetter(x, y) || doubledLetter(y, x)) return false;
  return abbreviates(x, y) || abbreviates(y, x) || (oneTypoApart(x, y, 3, 5) && !accentReplaced(tx, ty)) || sameStem(x, y);
}
