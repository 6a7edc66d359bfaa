// Comparison levels of two records' values in one field (README "Records"), by the field's
// kind: level 0 is the strongest agreement, the last the weakest; MISSING when either value
// is empty, which is evidence neither way. Plain JS, no WASM: the similarities of 'name'
// and 'text' fields come from the core (records.js).

import { oneTypoApart, sameFrom } from '../core/word-forms.js';

export const MISSING = 255;

/** Level names by kind, strongest agreement first. */
export const LEVELS = Object.freeze({
  email: ['exact', 'close', 'different'],
  phone: ['exact', 'close', 'different'],
  date: ['exact', 'close', 'different'],
  exact: ['exact', 'close', 'different'],
  name: ['exact', 'close', 'similar', 'different'],
  text: ['exact', 'close', 'similar', 'different'],
  code: ['exact', 'different'],
});

/** Similarity from which two names or texts are 'close', and 'similar'. */
export const CLOSE_SIMILARITY = 0.8;
export const SIMILAR_SIMILARITY = 0.55;

/** Digits a phone number keeps after a country prefix or trunk digit is set aside. */
export const PHONE_SUFFIX = 7;
/** Length from which an identifier one edit away is 'close' rather than 'different' (`7`/`8` differ). */
const CLOSE_LENGTH = 3;

/** A whole number of up to four digits as written: a house, a year, an edition, which one edit makes another; not an amount (`$16.00`). */
export const SHORT_NUMBER = /^\d{1,4}$/;

/** Whether a and b are one edit apart: a character inserted, deleted or replaced, or two adjacent swapped. */
export const oneEdit = (a, b) => oneTypoApart(a, b, 1, 1);

/** Whether strings x and y, of one length, differ in more than `most` positions from `from` on. */
function differInMore(x, y, most, from = 0) {
  let differ = 0;
  for (let i = from; i < x.length; i++) if (x.charCodeAt(i) !== y.charCodeAt(i) && ++differ > most) return true;
  return false;
}

/**
 * The part of a key whose edits keyLevel weighs (an e-mail's local part, a phone's last
 * PHONE_SUFFIX digits, else the whole key) counted by character in 8 buckets of 4 bits (the
 * code's last 3 bits, counts up to 15) in one 32-bit word. Keys one edit apart, swapped day
 * and month, or equal in that part are at most 2 apart in these counts; keys further apart
 * are at keyLevel's last level, which `signaturesApart` tells from two numbers, without
 * reading the strings. Not for 'code' keys, whose level is not by edits.
 */
export function keySignature(kind, key) {
  const part = kind === 'email' ? key.slice(0, key.lastIndexOf('@')) : kind === 'phone' ? key.slice(-PHONE_SUFFIX) : key;
  let signature = 0;
  for (let i = 0; i < part.length; i++) {
    const shift = (part.charCodeAt(i) & 7) * 4;
    if (((signature >>> shift) & 15) < 15) signature += 1 << shift;
  }
  return signature;
}

/** Whether keys of signatures x and y (keySignature's) are more than 2 apart. */
export function signaturesApart(x, y) {
  let apart = 0;
  for (let shift = 0; shift < 32 && x !== y; shift += 4) if ((apart += Math.abs(((x >>> shift) & 15) - ((y >>> shift) & 15))) > 2) return true;
  return false;
}

/**
 * A number equal for two phones (digits) whose last PHONE_SUFFIX digits differ and whose
 * level may yet be 'close': their lengths, and the digit before the two that precede those
 * (a phone's 'close' is judged on its last PHONE_SUFFIX + 2 digits, at most two of them
 * differing: the suffixes differ in one at least, so a difference there is a second one
 * that neither one replaced digit nor two swapped neighbours make).
 */
export function phoneNeighbourhood(key) {
  const at = key.length - PHONE_SUFFIX - 2;
  return key.length * 16 + (at >= 0 ? key.charCodeAt(at) - 48 : 10);
}

/** The level of two non-empty keys of a field of kind 'email', 'phone', 'date', 'exact' or 'code' (fields.js keys). */
export function keyLevel(kind, a, b) {
  if (a === b) return 0;
  switch (kind) {
    case 'code': {
      // One's codes all among the other's: a code of its own on each side (`KXTS208W` /
      // `KXTSC14W`) names two models, whatever else they share (`2-Line`).
      const [few, many] = a.length <= b.length ? [a, b] : [b, a];
      const codes = new Set(many.split(' '));
      return few.split(' ').every((code) => codes.has(code)) ? 0 : 1;
    }
    case 'email': {
      const [atA, atB] = [a.lastIndexOf('@'), b.lastIndexOf('@')];
      if (Math.abs(atA - atB) > 1) return 2; // local parts neither equal nor one edit apart
      // One domain: the local parts are one edit apart as the addresses are, not in a digit
      // (`john.smith4` / `john.smith8`: two mailboxes of one name); two: one local part at both.
      if (sameFrom(a, atA, b, atB)) return oneEdit(a, b) && a.replace(/\D/g, '') === b.replace(/\D/g, '') ? 1 : 2;
      return atA === atB && atA >= CLOSE_LENGTH && a.startsWith(b.slice(0, atB)) ? 1 : 2;
    }
    case 'phone': {
      const [short, long] = a.length <= b.length ? [a, b] : [b, a];
      if (short.length >= PHONE_SUFFIX && long.endsWith(short)) return 0;
      if (short.length !== long.length) return 2;
      const n = Math.min(short.length, PHONE_SUFFIX + 2);
      if (differInMore(short, long, 2, short.length - n)) return 2; // one replaced, or two swapped, at most
      return oneEdit(short.slice(-n), long.slice(-n)) ? 1 : 2;
    }
    case 'date': {
      // One digit mistyped, two adjacent swapped, or day and month swapped (4 digits at most).
      if (a.length === 8 && b.length === 8 && differInMore(a, b, 4)) return 2;
      const swapped = a.slice(0, 4) === b.slice(0, 4) && a.slice(4, 6) === b.slice(6, 8) && a.slice(6, 8) === b.slice(4, 6);
      return swapped || oneEdit(a, b) ? 1 : 2;
    }
    default:
      // A number of up to four digits one edit away is another number (a year, a house),
      // unless two digits are swapped; a longer one or a code may be mistyped.
      if (Math.min(a.length, b.length) < CLOSE_LENGTH || !oneEdit(a, b)) return 2;
      return SHORT_NUMBER.test(a) && SHORT_NUMBER.test(b) && !oneTypoApart(a, b, 1, Infinity) ? 2 : 1; // not swapped
  }
}

/** The level of a similarity of two non-empty values of a 'name' or 'text' field, equal when `equal`. */
export function similarityLevel(similarity, equal) {
  if (equal || similarity >= 1) return 0;
  if (similarity >= CLOSE_SIMILARITY) return 1;
  return similarity >= SIMILAR_SIMILARITY ? 2 : 3;
}
