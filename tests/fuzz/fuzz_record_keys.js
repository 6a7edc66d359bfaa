// The records' key normalizers fuzzed (issue 52: e-mail, phone, date; also exact keys and
// the levels of two keys): random text drawn from pieces of e-mails, phones and dates and
// from any UTF-16 unit, lone surrogates too, each checked against the contracts the records
// rely on. libFuzzer fuzzes the C++ targets; these are plain JS, run by .ci/fuzz.sh beside them.
//   node tests/fuzz/fuzz_record_keys.js [SECONDS=5] [--seed=N]
// Without --seed a seed is drawn and printed; a failure prints the seed and the input that
// broke a contract, and exits 1.
import { emailKey, exactKey, phoneKey } from '../../js/records/fields.js';
import { dateKey } from '../../js/core/dates.js';
import { keyLevel, keySignature, signaturesApart } from '../../js/records/levels.js';
import { fuzzRun } from './js-fuzz.js';

const { seconds, seed, next, below, pick, check, running } = fuzzRun('fuzz_record_keys');

const PIECES = ['@', '+', '.', '-', '/', ' ', ',', '(', ')', '0', '1', '2', '9', '00', '44', '31', '12', '1990', '2020', '19800229',
  'gmail.com', 'googlemail.com', 'outlook.com', 'example.org', 'john.smith', 'J.Smith+news', 'mail', 'Jan', 'march', 'Sept.', '1st',
  '22nd', 'st', 'ＡＢＣ', '１２３', 'ß', 'İ', 'é', '\u0301', '\uD800', '\uDC00', '😀', '\u0000', '\t', '٣', '²', '₂', '499.00', '1,000', '$', '€'];

/** A text of a few pieces and random units: e-mails, phones and dates, whole or broken. */
function text() {
  const parts = [];
  for (let n = below(8); n >= 0; n--) parts.push(next() < 0.75 ? pick(PIECES) : String.fromCharCode(below(0x10000)));
  return parts.join('');
}

/** A text shaped as one kind's value, then perhaps broken by a random edit. */
function shaped() {
  const digits = (n) => Array.from({ length: n }, () => below(10)).join('');
  const values = [
    () => `${pick(['john', 'j.smith', 'Anna.Lee+x', 'a'])}${pick(['', digits(1), '.', '+tag'])}@${pick(['gmail.com', 'example.org', 'GoogleMail.com', 'x'])}`,
    () => `${pick(['', '+', '+44 ', '0', '(0', '1-'])}${digits(2 + below(10))}${pick(['', ' ', '-', ') '])}${digits(below(8))}`,
    () => `${below(40)}${pick(['/', '-', '.', ' '])}${below(15)}${pick(['/', '-', '.', ' '])}${pick([digits(2), digits(4), '1999'])}`,
    () => `${1000 + below(2000)}${String(below(14)).padStart(2, '0')}${String(below(33)).padStart(2, '0')}`,
    () => `${below(32)} ${pick(['jan', 'February', 'Mar.', 'sept', 'xyz'])} ${1900 + below(200)}`,
  ];
  let value = pick(values)();
  if (next() < 0.3) {
    const at = below(value.length + 1);
    value = value.slice(0, at) + (next() < 0.5 ? pick(PIECES) : '') + value.slice(at + below(2));
  }
  return value;
}

const DATE = /^\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;
const LEVELS = { email: 2, phone: 2, date: 2, exact: 2 };
const keyOf = { email: emailKey, phone: phoneKey, date: (t) => dateKey(t, next() < 0.5 ? 'dmy' : 'mdy'), exact: exactKey };

/** One input's contracts: each normalizer's form and fixed point, and the levels of its key against another's. */
function fuzzOne(input, other) {
  const email = emailKey(input);
  check(email === '' || (email.lastIndexOf('@') > 0 && email === email.toLowerCase()), 'emailKey: lower case, a local part before its last @, or empty', input);
  check(emailKey(email) === email, 'emailKey: its own key', input);
  const phone = phoneKey(input);
  check(phone === '' || /^[1-9]\d{4,}$/.test(phone), 'phoneKey: five digits or more, no leading zero, or empty', input);
  check(phoneKey(phone) === phone, 'phoneKey: its own key', input);
  for (const order of ['dmy', 'mdy']) {
    const date = dateKey(input, order);
    check(date === '' || DATE.test(date), `dateKey (${order}): YYYYMMDD with a month and a day, or empty`, input);
    check(dateKey(date, order) === date, `dateKey (${order}): its own key`, input);
  }
  // Of well-formed text: two lone surrogates (malformed UTF-16) pair up once what lay between them is removed.
  const exact = exactKey(input);
  if (!/\p{Cs}/u.test(input)) check(!/[\s\p{P}\p{S}]/u.test(exact), 'exactKey: no space, punctuation or symbol', input);
  for (const kind of Object.keys(LEVELS)) {
    const [a, b] = [keyOf[kind](input), keyOf[kind](other)];
    if (a === '' || b === '') continue;
    const level = keyLevel(kind, a, b);
    levels[level]++;
    check(Number.isInteger(level) && level >= 0 && level <= LEVELS[kind], `keyLevel(${kind}): a level`, a, b);
    check(keyLevel(kind, b, a) === level, `keyLevel(${kind}): symmetric`, a, b);
    check(keyLevel(kind, a, a) === 0, `keyLevel(${kind}): a key against itself exact`, a);
    // Signatures apart say the last level without reading the strings (matching.js relies on it).
    if (signaturesApart(keySignature(kind, a), keySignature(kind, b))) check(level === LEVELS[kind], `signaturesApart(${kind}): only at the last level`, a, b);
    if (kind === 'date' && DATE.test(a)) {
      const swapped = a.slice(0, 4) + a.slice(6, 8) + a.slice(4, 6);
      check(keyLevel('date', a, swapped) <= 1, 'keyLevel(date): day and month swapped close', a, swapped);
    }
  }
}

const levels = [0, 0, 0]; // how often each level was reached, so that a run shows it reached them all
let runs = 0;
let previous = shaped();
while (running()) {
  for (let k = 0; k < 1000; k++, runs++) {
    const input = next() < 0.5 ? shaped() : text();
    // The other key: an edit of this one half the time, so that close levels are reached.
    const other = next() < 0.5 ? previous : input.slice(0, below(input.length + 1)) + pick(PIECES) + input.slice(below(input.length + 1));
    fuzzOne(input, other);
    previous = input;
  }
}
check(levels.every((count) => count > 0), `every level reached (${levels.join(', ')})`);
console.error(`fuzz: fuzz_record_keys ok: ${runs} runs, ${Math.round(runs / seconds)} exec/s, levels exact/close/apart ${levels.join('/')}, seed ${seed}`);
