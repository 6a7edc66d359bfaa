// The fields of records (README "Records"): which columns dedup compares, the kind of each,
// inferred from its values unless options.fields names it, and each value in the form its
// kind compares. Plain JS, no WASM.
//
// Kinds:
// - 'email': case-insensitive; the local part's dots (Gmail) and +tags (the providers that
//   ignore them) removed;
// - 'phone': the digits; a country prefix or leading zeros on one side only tolerated;
// - 'date': year, month and day, from the common written forms;
// - 'exact': numbers and identifiers, case, spaces and punctuation aside;
// - 'name': names of people and organisations, addresses, titles: the short measure;
// - 'text': longer free text: the text measure.
import { typeName } from '../core/checks.js';
import { fullNames } from '../core/nicknames.js';
import { tokensOf } from '../core/tokens.js';
import { COMPACT_DATE, dateKey, dayOrder } from '../core/dates.js';

export const KINDS = Object.freeze(['email', 'phone', 'date', 'exact', 'name', 'text']);

/** Share of a column's non-empty values that must fit a kind for it to be inferred. */
const FIT = 0.8;
/** Mean UTF-16 length above which a column of words is free text rather than names. */
const TEXT_MEAN_LENGTH = 64;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().\-/]+$/;
const PHONE_SEPARATOR = /[\s().\-/+]/;
const PHONE_NAME = /phone|tel|mobile|cell|fax/i;
const IDENTIFIER = /^[\p{Sc}]?[\p{L}\p{N}][\p{L}\p{N}.\-/_#$€£%,:]*$/u;
const DIGIT = /\d/;
/** Two CJK letters in a row: words, as a CJK address or name is written without spaces (`東京都千代田区丸の内1-1-1`), not an identifier. */
const CJK_WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2}/u;
/** Columns whose names say they name what a row is (else the first 'name' column does). */
const IDENTITY_NAME = /name|title/i;

/** Providers that deliver `local+tag@` to `local@`; of them, those that ignore dots in the local part. */
const PLUS_TAGS = new Set(['gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'icloud.com', 'fastmail.com', 'proton.me']);
const DOTLESS = new Set(['gmail.com', 'googlemail.com']);

/**
 * A cell as text: strings trimmed, numbers, booleans and dates written out; null, undefined
 * and numbers that are not finite empty (missing evidence); undefined for a value no text
 * says (an object, an array, a function, a symbol), which readCell refuses.
 */
export function cellText(value) {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  return value === null || value === undefined ? '' : undefined;
}

/** Names row i of dedup's items, or of link's two lists when `left` (the left list's length) is given: `items[3]`, `right[0]`. */
export function rowNamer(left) {
  return left === undefined ? (i) => `items[${i}]` : (i) => (i < left ? `left[${i}]` : `right[${i - left}]`);
}

/** Row i's cell of `column` as text (cellText), else a TypeError naming the row (`rowName(i)`) and the column. */
export function readCell(rows, i, column, rowName) {
  const value = rows[i][column];
  const text = cellText(value);
  if (text === undefined) throw new TypeError(`${rowName(i)}'s '${column}' must be text, a number, a boolean or a date, got ${typeName(value)} (options.fields picks columns)`);
  return text;
}

/** An e-mail address in the form two of one mailbox share, or '' when it is none. */
export function emailKey(text) {
  const at = text.lastIndexOf('@');
  if (at <= 0) return '';
  let local = text.slice(0, at).toLowerCase();
  let domain = text.slice(at + 1).toLowerCase();
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (PLUS_TAGS.has(domain)) local = local.replace(/\+.*$/, '');
  if (DOTLESS.has(domain)) local = local.replaceAll('.', '');
  // No mailbox is left (`.@gmail.com`, `+tag@outlook.com`): no key, which would make them one.
  return local ? `${local}@${domain}` : '';
}

/** A phone number's digits, leading zeros and a leading + aside, or '' with fewer than 5. */
export function phoneKey(text) {
  const digits = text.replace(/\D/g, '').replace(/^0+/, '');
  return digits.length >= 5 ? digits : '';
}

/** A number or identifier without case, spaces or punctuation, nor zero cents (`499.00` is `499`; `1,000` stays). */
export function exactKey(text) {
  return text.normalize('NFKC').toLowerCase().replace(/(\d)[.,]0{1,2}(?=\D*$)/, '$1').replace(/[\s\p{P}\p{S}]+/gu, '');
}

/** Whether most of `texts` (non-empty) pass `test`: FIT of them, asked until too many fail. */
function mostly(texts, test) {
  let fails = 0;
  for (const text of texts) if (!test(text) && texts.length - ++fails < FIT * texts.length) return false;
  return true;
}

/** How many of a column's values, spread over it, its kind is inferred from: as many tell it, in a fraction of the time. */
const KIND_SAMPLE = 2000;

/** At most `most` of `values`, evenly spread over them, in order. */
const spread = (values, most) => (values.length <= most ? values : Array.from({ length: most }, (_, i) => values[Math.floor((i * values.length) / most)]));

/** The kind of a column from its non-empty values (and its name, which tells phones from other digits). */
export function inferKind(name, texts) {
  if (!texts.length) return 'name';
  if (mostly(texts, (t) => EMAIL.test(t))) return 'email';
  if (mostly(texts, (t) => dateKey(t) !== '' && (!COMPACT_DATE.test(t) || !PHONE_NAME.test(name)))) return 'date';
  const phoneLike = (t) => PHONE.test(t) && phoneKey(t).length >= 6 && phoneKey(t).length <= 15;
  if (mostly(texts, phoneLike) && (PHONE_NAME.test(name) || mostly(texts, (t) => PHONE_SEPARATOR.test(t)))) return 'phone';
  if (mostly(texts, (t) => IDENTIFIER.test(t) && DIGIT.test(t) && !CJK_WORD.test(t))) return 'exact';
  const length = texts.reduce((sum, t) => sum + t.length, 0) / texts.length;
  return length > TEXT_MEAN_LENGTH ? 'text' : 'name';
}

/** Share of rows whose identity must hold a code for the codes to be compared. */
const CODES_FROM = 0.2;
const CODE = /^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]{4,}$/u;
/** A quantity in a unit (`128GB`, `10000mAh`, `500ml`): what many models share, never a model. */
const QUANTITY = /^\d+(?:gb|tb|mb|mah|mm|cm|ml|kg|mp|hz|ghz|mhz|w|v|in|oz|lbs?|pk|pcs)$/;
/** A text no code can come from, as no fold makes a digit of it (most names): asked first, as folding costs. */
const ASCII_WITHOUT_DIGITS = /^[\0-/:-\x7f]*$/;

/** The model codes in a text: tokens of four or more letters and digits with both (`KX-TS108W`, `SBV40S`), no quantity, folded as look-alikes fold them. */
export function codesOf(text) {
  if (ASCII_WITHOUT_DIGITS.test(text)) return [];
  return [...new Set(tokensOf(text).map((t) => t.key).filter((key) => CODE.test(key) && !QUANTITY.test(key)))].sort();
}

/**
 * The codes of the identity fields as a field of their own, kind 'code' (keys: the codes,
 * space-separated), when at least CODES_FROM of the rows have one: product titles, where
 * a shared model code says more than any wording, and different codes that the products differ.
 */
function codeField(identities, count) {
  if (!identities.length) return null;
  const keys = new Array(count);
  let present = 0;
  for (let r = 0; r < count; r++) {
    keys[r] = identities.flatMap((field) => codesOf(field.texts[r])).join(' ');
    if (keys[r]) present++;
  }
  if (present < CODES_FROM * count) return null;
  const name = `${identities.map((field) => field.name).join(' ')} codes`;
  return { name, kind: 'code', texts: keys.map((key) => key.toUpperCase()), keys, derived: true };
}

/** Column names of the rows in order of first appearance (a row is a plain object). */
function columnsOf(rows) {
  const seen = new Set();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/**
 * Checks options.fields: undefined (every column, kinds inferred), an array of column names
 * (kinds inferred), or an object of column name to kind or 'auto'. Returns [name, kind|'auto'][].
 */
export function checkFields(fields, name) {
  if (fields === undefined) return undefined;
  const entries = Array.isArray(fields) ? fields.map((column) => [column, 'auto'])
    : fields !== null && typeof fields === 'object' ? Object.entries(fields)
      : null;
  if (!entries) throw new TypeError(`${name} must be an array of column names or an object of column name to kind, got ${typeName(fields)}`);
  if (!entries.length) throw new RangeError(`${name} must name at least one column`);
  const seen = new Set();
  for (const [column, kind] of entries) {
    if (typeof column !== 'string') throw new TypeError(`${name} must name columns by strings, got ${typeName(column)}`);
    if (seen.has(column)) throw new RangeError(`${name} names the column '${column}' twice`);
    seen.add(column);
    if (kind !== 'auto' && !KINDS.includes(kind)) {
      throw new RangeError(`${name}.${column} must be one of ${KINDS.join(', ')} or 'auto', got ${typeof kind === 'string' ? `'${kind}'` : typeName(kind)}`);
    }
  }
  return entries;
}

/** Checks that every row is a plain object (not an array, not null), naming the first that is not. */
export function checkRows(rows, name = 'items') {
  if (!Array.isArray(rows)) throw new TypeError(`${name} must be an array of records, got ${typeName(rows)}`);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new TypeError(`${name}[${i}] must be an object (a record), got ${typeName(row)}`);
    }
  }
}

/**
 * The fields dedup compares: [{ name, kind, texts (each row's cell as text, '' when empty),
 * keys (the kind's comparison key per row, '' when empty: for names, lower case with
 * nicknames written in full), identity }]. `identity` marks
 * the 'name' fields that say what a row is: those whose column name holds `name` or
 * `title`, else the first 'name' field (records.js merges only rows whose identity agrees). Without `fields` every column
 * whose values are not all empty, except one that holds a distinct identifier per row (a
 * row id tells nothing of duplicates); with it, the columns it names, each present in some row.
 * A cell no text says is a TypeError naming its row (`rowName`, rowNamer's) and its column.
 */
export function recordFields(rows, fields, rowName = rowNamer()) {
  const columns = fields ?? columnsOf(rows).map((column) => [column, 'auto']);
  const known = fields && new Set(columnsOf(rows));
  const out = [];
  for (const [name, given] of columns) {
    if (known && !known.has(name)) throw new RangeError(`options.fields names the column '${name}', which no record has`);
    const texts = rows.map((_, i) => readCell(rows, i, name, rowName));
    const present = texts.filter((t) => t !== '');
    if (!present.length && !fields) continue;
    const kind = given === 'auto' ? inferKind(name, spread(present, KIND_SAMPLE)) : given;
    if (!fields && kind === 'exact' && rows.length >= 20 && new Set(present).size === rows.length) continue;
    const order = kind === 'date' ? dayOrder(present) : undefined;
    const keyOf = { email: emailKey, phone: phoneKey, date: (t) => dateKey(t, order), exact: exactKey }[kind];
    const lower = kind === 'name' ? (t) => fullNames(t.toLowerCase()) : (t) => t.toLowerCase();
    out.push({ name, kind, texts, keys: texts.map((t) => (t === '' ? '' : (keyOf ?? lower)(t))) });
  }
  if (!out.length) throw new RangeError('the records have no field to compare: every column is empty or a row id');
  const names = out.filter((field) => field.kind === 'name');
  const identities = names.filter((field) => IDENTITY_NAME.test(field.name));
  for (const field of identities.length ? identities : names.slice(0, 1)) field.identity = true;
  const codes = codeField(out.filter((field) => field.identity), rows.length);
  return codes ? [...out, codes] : out;
}
