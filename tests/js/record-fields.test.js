// The fields of records (README "Records"; js/records/fields.js, levels.js, nicknames.js): the
// kinds inferred from a column's values, each kind's keys and comparison levels, and the
// signatures that set keys apart without reading them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sh } from './helpers.js';
import { cellText, codesOf, emailKey, exactKey, inferKind, phoneKey, recordFields } from '../../js/records/fields.js';
import { dateKey, dayOrder } from '../../js/core/dates.js';
import { fullNames } from '../../js/core/nicknames.js';
import { LEVELS, keyLevel, keySignature, oneEdit, signaturesApart } from '../../js/records/levels.js';
import { mulberry32 } from '../bench/quality/random.js';

describe('the kinds of fields', () => {
  test('each kind inferred from its values; phones from other digits by separators or the column name', () => {
    assert.equal(inferKind('contact', ['a.b@example.com', 'c@d.org', 'x@y.co.uk']), 'email');
    assert.equal(inferKind('tel', ['(555) 123-4567', '555.123.4567', '+44 20 7946 0958']), 'phone');
    assert.equal(inferKind('mobile', ['5551234567', '5559876543']), 'phone');
    assert.equal(inferKind('ssn', ['1804974', '6089216', '2185997']), 'exact');
    assert.equal(inferKind('born', ['1984-03-12', '03/12/1984', 'March 12, 1984', '19840312']), 'date');
    assert.equal(inferKind('sku', ['WH-1000XM4', 'SX720', '9500CI']), 'exact');
    assert.equal(inferKind('price', ['$399.00', '$49.00', '19.99']), 'exact');
    assert.equal(inferKind('name', ['John Smith', 'Smith, John', 'Emily Chen']), 'name');
    // CJK is written without spaces: an address with numbers is words, not an identifier.
    assert.equal(inferKind('address', ['東京都千代田区丸の内1-1-1', '北京市朝阳区建国路88号', '서울특별시강남구123']), 'name');
    assert.equal(inferKind('code', ['東1-1', 'A区12', '3号']), 'exact');
    assert.equal(inferKind('notes', ['x'.repeat(200), 'y '.repeat(100)]), 'text');
    assert.equal(inferKind('empty', []), 'name');
  });

  test('e-mails: case aside; Gmail ignores dots and +tags, Outlook +tags only, others neither', () => {
    assert.equal(emailKey('John.Smith+work@GoogleMail.com'), 'johnsmith@gmail.com');
    assert.equal(emailKey('john.smith+news@outlook.com'), 'john.smith@outlook.com');
    assert.equal(emailKey('john.smith+x@example.com'), 'john.smith+x@example.com');
    assert.equal(emailKey('not an address'), '');
    assert.equal(keyLevel('email', emailKey('john.smith@brightline.com'), emailKey('jane.smith@brightline.com')), 2);
    assert.equal(keyLevel('email', emailKey('jon.smith@brightline.com'), emailKey('john.smith@brightline.com')), 1);
    assert.equal(keyLevel('email', 'jon.smit@brightline.com', 'john.smith@brightline.com'), 2); // two edits
    assert.equal(keyLevel('email', 'john.smith@brightline.com', 'john.smith@brightline.co.uk'), 1); // one mailbox, another domain
    // A digit one edit changes names another mailbox of the same name, as providers number them.
    for (const [a, b] of [['david.thompson17', 'david.thompson67'], ['john.smith', 'john.smith1'], ['jsmith12', 'jsmith21'], ['jsmith1', 'jsmitha']]) {
      assert.equal(keyLevel('email', `${a}@gmail.com`, `${b}@gmail.com`), 2, `${a} / ${b}`);
    }
    assert.equal(keyLevel('email', 'david.thomspon17@gmail.com', 'david.thompson17@gmail.com'), 1);
  });

  test('phones: the digits; a country prefix or trunk zero on one side tolerated; one digit apart is only close', () => {
    const key = (t) => phoneKey(t);
    assert.equal(keyLevel('phone', key('(555) 123-4567'), key('555.123.4567')), 0);
    assert.equal(keyLevel('phone', key('(555) 123-4567'), key('+1 555 123 4567')), 0);
    assert.equal(keyLevel('phone', key('+44 20 7946 0958'), key('020 7946 0958')), 0);
    assert.equal(keyLevel('phone', key('(555) 772-6543'), key('(555) 772-6544')), 1);
    assert.equal(keyLevel('phone', key('(555) 772-6543'), key('(555) 123-9810')), 2);
    assert.equal(keyLevel('phone', key('(555) 772-6543'), key('(555) 772-5643')), 1); // two swapped
    assert.equal(keyLevel('phone', key('(555) 772-6543'), key('(555) 772-5634')), 2); // three digits
    assert.equal(keyLevel('phone', '5557726543', '6557726544'), 1); // the last nine digits decide
    assert.equal(phoneKey('12'), '');
  });

  test('dates: written forms to one key; day and month by what the column allows; a swap or a typo is close', () => {
    assert.equal(dayOrder(['08/19/1982', '03/12/1984']), 'mdy');
    assert.equal(dayOrder(['19/08/1982', '12/03/1984']), 'dmy');
    for (const text of ['1982-08-19', '19820819', 'August 19, 1982', '19 Aug 1982', '19th August 1982']) assert.equal(dateKey(text), '19820819', text);
    assert.equal(dateKey('08/19/1982', 'mdy'), '19820819');
    assert.equal(dateKey('31/02/x'), '');
    assert.equal(keyLevel('date', '19820819', '19820819'), 0);
    assert.equal(keyLevel('date', '19820819', '19821908'), 1); // day and month swapped
    assert.equal(keyLevel('date', '19820819', '19820818'), 1);
    assert.equal(keyLevel('date', '19820819', '19900101'), 2);
    assert.equal(keyLevel('date', '19820819', '19820918'), 2); // month and day, not swapped
    assert.equal(keyLevel('date', '19820819', '19280819'), 1); // two digits of the year swapped
  });

  test('keys whose signatures are more than 2 apart are at their last level, against keyLevel on keys a few edits apart', () => {
    const random = mulberry32(7);
    const pick = (chars) => chars[Math.floor(random() * chars.length)];
    const edit = (key, chars) => {
      const i = Math.floor(random() * key.length);
      switch (Math.floor(random() * 4)) {
        case 0: return key.slice(0, i) + pick(chars) + key.slice(i + 1);
        case 1: return key.slice(0, i) + pick(chars) + key.slice(i);
        case 2: return key.slice(0, i) + key.slice(i + 1);
        default: return key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      }
    };
    const made = {
      email: () => [`${Array.from({ length: 6 + Math.floor(random() * 8) }, () => pick('abcdefgh.1234')).join('')}`, pick(['@x.com', '@y.org'])],
      phone: () => [Array.from({ length: 7 + Math.floor(random() * 5) }, () => pick('0123456789')).join(''), ''],
      date: () => [`19${pick('45678')}${pick('0123456789')}${pick('01')}${pick('0123456789')}${pick('012')}${pick('0123456789')}`, ''],
      exact: () => [Array.from({ length: 2 + Math.floor(random() * 8) }, () => pick('0123456789ab')).join(''), ''],
    };
    for (const [kind, make] of Object.entries(made)) {
      const keys = [];
      for (let base = 0; base < 60; base++) {
        const [head, tail] = make();
        keys.push(head + tail);
        // The same key after 1 to 3 edits, with the other domain, a prefix, or day and month swapped.
        for (let k = 0; k < 12; k++) {
          let key = head;
          for (let e = 1 + Math.floor(random() * 3); e > 0 && key.length > 1; e--) key = edit(key, kind === 'email' ? 'abcdefgh.1234' : '0123456789');
          keys.push(key + (k % 4 === 0 && kind === 'email' ? '@z.net' : tail));
        }
        if (kind === 'phone') keys.push(`44${head}`);
        if (kind === 'date') keys.push(head.slice(0, 4) + head.slice(6, 8) + head.slice(4, 6));
      }
      const signatures = keys.map((key) => keySignature(kind, key));
      const last = LEVELS[kind].length - 1;
      let [apart, near] = [0, 0];
      for (let r = 0; r < keys.length; r++) {
        for (let s = r + 1; s < keys.length; s++) {
          if (!signaturesApart(signatures[r], signatures[s])) continue;
          apart++;
          assert.equal(keyLevel(kind, keys[r], keys[s]), last, `${kind}: ${keys[r]} / ${keys[s]}`);
        }
        near += keys.length - 1 - r;
      }
      assert.ok(apart > 0 && apart < near, `${kind}: ${apart} of ${near} pairs apart by their signatures`);
    }
  });

  test('numbers and identifiers: case, spaces, punctuation and zero cents aside; short numbers one edit apart differ unless swapped', () => {
    assert.equal(exactKey('WH-1000 XM4'), 'wh1000xm4');
    // A price with zero cents is the number without them; thousands keep their zeros.
    for (const [a, b] of [['499.00', '499'], ['$16.00', '16'], ['16,00 €', '16'], ['1,000', '1000']]) assert.equal(exactKey(a), exactKey(b), `${a} / ${b}`);
    assert.notEqual(exactKey('1,000'), exactKey('1'));
    assert.notEqual(exactKey('499.01'), exactKey('499'));
    assert.equal(keyLevel('exact', exactKey('2119'), exactKey('2191')), 1);
    assert.equal(keyLevel('exact', '2001', '2003'), 2);
    assert.equal(keyLevel('exact', '18049741', '18049742'), 1);
    assert.equal(keyLevel('exact', '7', '8'), 2);
    assert.ok(oneEdit('abc', 'acb') && oneEdit('abc', 'abcd') && oneEdit('abc', 'abd') && !oneEdit('abc', 'abc') && !oneEdit('abc', 'bca'));
  });

  test('model codes agree when one side\'s are all among the other\'s; a code of its own on each side is another model', () => {
    assert.equal(keyLevel('code', 'cli8pc', '0624b002 cli8pc'), 0);
    assert.equal(keyLevel('code', '2line kxts208w', '2line kxtsc14w'), 1);
    assert.equal(keyLevel('code', 'kxts208w', 'kxtsc14w'), 1);
  });

  test('model codes: tokens of letters with digits, folded; none in a text without a digit', () => {
    assert.deepEqual(codesOf('Panasonic KX-TS108W 2-Line'), ['2line', 'kxts108w']);
    assert.deepEqual(codesOf('Ｋｘ１２３４ phone'), ['kx1234'], 'full-width digits fold to ASCII ones');
    assert.deepEqual(codesOf('John Smith, 5th Avenue'), []);
    assert.deepEqual(codesOf('Smith & Sons (Ltd.)'), []);
    assert.deepEqual(codesOf('Galaxy S23 128GB, 10000mAh, 2TB, 500ml 1TB2'), ['1tb2'], 'a quantity in a unit is no model');
  });

  test('a capacity both titles hold is no shared model: Galaxy S23 and S24 of 128GB at one price stay apart', async () => {
    const product = (title, brand, price, sku) => ({ title, brand, price, sku });
    const rows = [
      product('Apple iPhone 14 Pro 128GB Space Black', 'Apple', '999.00', 'MPXV3'),
      product('iPhone 14 Pro 128 GB - Space Black', 'Apple', '989.99', 'MPXV3'),
      product('Apple iPhone 15 Pro 128GB Black Titanium', 'Apple', '999.00', 'MTUV3'),
      product('Samsung Galaxy S23 128GB Phantom Black', 'Samsung', '799.99', 'SM-S911B'),
      product('Samsung Galaxy S24 128GB Onyx Black', 'Samsung', '799.99', 'SM-S921B'),
      product('Galaxy S23 (128 GB) phantom black', 'Samsung', '779.00', 'SM-S911B'),
      product('Logitech MX Master 3S Mouse Graphite', 'Logitech', '99.99', '910-006559'),
      product('Logitech MX Master 3 Mouse Graphite', 'Logitech', '79.99', '910-005647'),
      product('Logitech MX Master 3S Wireless Mouse - Graphite', 'Logitech', '99.00', '910-006559'),
    ];
    const result = await sh.dedup(rows);
    assert.deepEqual(result.groups, [[0, 1], [3, 5], [6, 8]]);
  });

  test('nicknames written in full, whole words only', () => {
    assert.equal(fullNames('bob johnson'), 'robert johnson');
    assert.equal(fullNames('johnson, bob'), 'johnson, robert');
    assert.equal(fullNames('bobby-lee mike.brown'), 'robert-lee michael.brown');
    assert.equal(fullNames('bobx bob2 xbob andy'), 'bobx bob2 xbob andrew', 'a nickname inside a word is not one');
    assert.equal(fullNames('édward ted ed'), 'édward edward edward');
  });

  test('keys the fuzz target found wrong: an e-mail with no mailbox left, a date part with leading zeros', () => {
    // tests/fuzz/fuzz_record_keys.js: `.@gmail.com` and `+tag@outlook.com` were one key, `@gmail.com`; a day `010` made nine digits.
    for (const text of ['.@gmail.com', '+tag@outlook.com', '..@googlemail.com']) assert.equal(emailKey(text), '', text);
    assert.equal(emailKey('j.o.h.n+x@gmail.com'), 'john@gmail.com');
    assert.equal(dateKey('010 5.1999'), '19990510');
    assert.equal(dateKey('1999-05-0010'), '19990510');
  });

  test('cells as text: numbers and dates written out, null empty, objects, arrays and functions no text', () => {
    assert.deepEqual([cellText(' a '), cellText(42), cellText(NaN), cellText(null), cellText(undefined), cellText(true), cellText(new Date('2020-01-02'))],
      ['a', '42', '', '', '', 'true', '2020-01-02']);
    for (const value of [{}, [], ['a'], () => 'a', Symbol('a'), new Map()]) assert.equal(cellText(value), undefined, typeof value);
  });

  test('a long column\'s kind is inferred from values spread over all of it, not its head', () => {
    const rows = Array.from({ length: 10000 }, (_, i) => ({ contact: i < 5000 ? `person${i}@example.com` : `Person ${i}`, n: String(i) }));
    assert.equal(recordFields(rows).find((f) => f.name === 'contact').kind, 'name', 'half e-mails: not mostly e-mails');
    const mails = rows.map((row, i) => ({ ...row, contact: i % 10 === 9 ? 'n/a' : `person${i}@example.com` }));
    assert.equal(recordFields(mails).find((f) => f.name === 'contact').kind, 'email', 'nine in ten e-mails');
  });

  test('the fields: every column with a value but a row id; options.fields picks and overrides; identity from name and title columns', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, name: `Person ${i}`, company: `Firm ${i % 3}`, blank: '' }));
    assert.deepEqual(recordFields(rows).map((f) => [f.name, f.kind, Boolean(f.identity)]), [['name', 'name', true], ['company', 'name', false]]);
    assert.deepEqual(recordFields(rows, [['id', 'exact'], ['company', 'auto']]).map((f) => [f.name, f.kind, Boolean(f.identity)]),
      [['id', 'exact', false], ['company', 'name', true]]);
  });
});
