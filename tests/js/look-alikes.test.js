// Look-alikes of different entities (README "Look-alikes"): the rule of what differs
// (js/core/look-alikes.js) on the look-alikes people reported and the variants that must
// not differ; dedup by the short measure keeps look-alikes apart and lists them with the
// reason, in a list and alone, with the review and without, in the pool as on one thread;
// its groups never hold a member that differs from its kept entry, or two that differ in
// numbers; the text measure is left as it was. The split's own rule: look-alike-split.test.js;
// one-line records: one-line-records.test.js.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { sh } from './helpers.js';
import { createPool } from '../../js/worker.js';
import { differenceText, differingParts, identifyingParts, listDifference } from '../../js/core/look-alikes.js';
import { LEGAL_PHRASES } from '../../js/core/legal-forms.js';
import { tokensOf } from '../../js/core/tokens.js';
import { NAMES_SAMPLE } from '../../js/cli/names-sample.js';
import { isRecord } from '../../js/core/thresholds.js';

const differs = (x, y) => listDifference(identifyingParts(x), identifyingParts(y));
// The rule folds traditional Han as the short measure does once a core has loaded the table
// (tokens.js useHanVariants), as every dedup of Han text does first.
await sh.loadHanTable();

let pool;
after(() => pool?.terminate());

// [a, b, what differs]: the look-alikes of the report (issue 51), and more of each kind.
const LOOK_ALIKES = [
  ['125 Main Street', '123 Main Street', { numbers: [['125'], ['123']] }],
  ['Apt 4B', 'Apt 3B', { numbers: [['4B'], ['3B']] }],
  ['Hauptstraße 21', 'Hauptstraße 12', { numbers: [['21'], ['12']] }],
  ['iPhone 14 Pro', 'iPhone 15 Pro', { numbers: [['14'], ['15']] }],
  ['Galaxy S24', 'Galaxy S23', { numbers: [['S24'], ['S23']] }],
  ['WH-1000XM4', 'WH-1000XM5', { numbers: [['WH-1000XM4'], ['WH-1000XM5']] }],
  // A model code of five digits or more is no typo however many words agree: only a number of digits alone is (a postcode, a date).
  ['Sony WH-1000XM5 Wireless Noise Canceling Headphones with Auto Optimizer, Black', 'Sony WH-1000XM4 Wireless Noise Canceling Headphones with Auto Optimizer, Black',
    { numbers: [['WH-1000XM5'], ['WH-1000XM4']] }],
  ['Acme Gadgets LLC', 'Acme Widgets LLC', { words: [['Gadgets'], ['Widgets']] }],
  ['Deutsche Bahn AG', 'Deutsche Bank AG', { words: [['Bahn'], ['Bank']] }],
  ['Escort Passport 9500CI Radar Detector', 'Escort Passport 9500IX Radar Detector', { numbers: [['9500CI'], ['9500IX']] }],
  ['Tim Baker', 'Tom Baker', { words: [['Tim'], ['Tom']] }],
  ['Emily Chen', 'Emily Chan', { words: [['Chen'], ['Chan']] }],
  ['17 Hawthorne Avenue, Flat 4, Millbrook', '17 Hawthorne Avenue, Flat 5, Millbrook', { numbers: [['4'], ['5']] }],
  // An address of several fields is no person's record: its numbers identify it, however many words agree.
  ['Flat 2, 14 High Street, Oxford OX1 4AA', 'Flat 3, 14 High Street, Oxford OX1 4AA', { numbers: [['2'], ['3']] }],
  // A number said twice (a flat and its house) stands against the other's: the house's 2 shared, the flats' 2 and 5 differ.
  ['Flat 2, 2 High Street, Oxford', 'Flat 5, 2 High Street, Oxford', { numbers: [['2'], ['5']] }],
  // The same numbers in other places: after one word, each side's number differs (by word, sorted).
  ['Flat 1, 4 Main Street', 'Flat 4, 1 Main Street', { numbers: [['1'], ['4']] }],
  ['Order 1 of customer 4', 'Order 4 of customer 1', { numbers: [['4', '1'], ['1', '4']] }],
  ['Highway 1 Exit 4', 'Highway 4 Exit 1', { numbers: [['4', '1'], ['1', '4']] }],
  ['Unit 3, 3 Park Road', 'Unit 7, 3 Park Road', { numbers: [['3'], ['7']] }],
  ['12 Oak Road, Flat 12', '12 Oak Road, Flat 21', { numbers: [['12'], ['21']] }],
  ['House 4, Lane 4, Sector 4', 'House 5, Lane 4, Sector 4', { numbers: [['4'], ['5']] }],
  ['Pack of 2, 2 x AA batteries', 'Pack of 4, 2 x AA batteries', { numbers: [['2'], ['4']] }],
  ['Zephyr Phone 15 Pro 256GB Graphite', 'Zephyr Phone 14 Pro 256GB Graphite', { numbers: [['15'], ['14']] }],
  ['東京タワー 2号館', '東京タワー 3号館', { numbers: [['2'], ['3']] }],
  // A CJK run that repeats another's characters: two names, though the short measure counts each character once.
  ['李娜', '李娜娜', { words: [['李娜'], ['李娜娜']] }],
  ['孙志强', '孙志强志强', { words: [['孙志强'], ['孙志强志强']] }],
  ['Ironbridge Consulting Ltd', 'Ironbridge Consultants Ltd', { words: [['Consulting'], ['Consultants']] }],
  // Forms of a given name, though one abbreviates or is a typo of the other.
  ['Robert Johnson', 'Roberta Johnson', { words: [['Robert'], ['Roberta']] }],
  ['Mario Rossi', 'Maria Rossi', { words: [['Mario'], ['Maria']] }],
  ['Julie Martin', 'Julia Martin', { words: [['Julie'], ['Julia']] }],
  ['Jean Dupont', 'Jeanne Dupont', { words: [['Jean'], ['Jeanne']] }],
  ['Daniela Garcia', 'Danielle Garcia', { words: [['Daniela'], ['Danielle']] }],
  ['Paul Martin', 'Pauline Martin', { words: [['Paul'], ['Pauline']] }],
  // A number with a letter more is a flat or a model of its own, though the number abbreviates it.
  ['Apt 5, 12 Oak Street', 'Apt 5B, 12 Oak Street', { numbers: [['5'], ['5B']] }],
  ['Apple iPhone 6 Plus 64GB', 'Apple iPhone 6s Plus 64GB', { numbers: [['6'], ['6s']] }],
  // A model's tier beside its number, on one side only.
  ['Apple iPhone 8 64GB Space Grey', 'Apple iPhone 8 Plus 64GB Space Grey', { words: [[], ['Plus']] }],
  ['Samsung Galaxy S20 FE 128GB', 'Samsung Galaxy S20 128GB', { words: [['FE'], []] }],
  ['Adobe Premiere Pro CS3', 'Adobe Premiere Pro CS3 Upgrade', { words: [[], ['Upgrade']] }],
  // A tier ending its entry, without numbers too.
  ['Nintendo Switch', 'Nintendo Switch Lite', { words: [[], ['Lite']] }],
  // Two values of one closed set, however many words agree.
  ['Acme Corp Monthly All Hands Meeting Notes January 2024', 'Acme Corp Monthly All Hands Meeting Notes February 2024', { words: [['January'], ['February']] }],
  ['Conference Room Booking North Wing Level 3', 'Conference Room Booking South Wing Level 3', { words: [['North'], ['South']] }],
  ['Left Front Brake Pad Toyota Corolla 2015', 'Right Front Brake Pad Toyota Corolla 2015', { words: [['Left'], ['Right']] }],
  ['Mens Running Shoes Nike Air Zoom Pegasus Black', 'Womens Running Shoes Nike Air Zoom Pegasus Black', { words: [['Mens'], ['Womens']] }],
  ['Protokoll der Abteilungsbesprechung Vertrieb Nord Januar 2024', 'Protokoll der Abteilungsbesprechung Vertrieb Nord Februar 2024', { words: [['Januar'], ['Februar']] }],
  ['Laufschuhe Nike Air Zoom Pegasus Herren Schwarz Größe 42', 'Laufschuhe Nike Air Zoom Pegasus Damen Schwarz Größe 42', { words: [['Herren'], ['Damen']] }],
  ['Compte rendu réunion équipe commerciale janvier 2024', 'Compte rendu réunion équipe commerciale février 2024', { words: [['janvier'], ['février']] }],
  ['営業部 定例会議 議事録 月曜日', '営業部 定例会議 議事録 火曜日', { words: [['月曜日'], ['火曜日']] }],
  // A CJK run one direction apart, and a katakana value without numbers (a run of kanji has no words to compare).
  ['北京大学附属中学', '南京大学附属中学', { words: [['北京大学附属中学'], ['南京大学附属中学']] }],
  ['東京都新宿区西新宿2丁目8-1', '東京都新宿区東新宿2丁目8-1', { words: [['東京都新宿区西新宿'], ['東京都新宿区東新宿']] }],
  ['ユニクロ メンズ ダウンジャケット ブラック', 'ユニクロ ウィメンズ ダウンジャケット ブラック', { words: [['メンズ'], ['ウィメンズ']] }],
  ['Cotton Crew Neck T-Shirt Navy Large Pack of 3', 'Cotton Crew Neck T-Shirt Navy Medium Pack of 3', { words: [['Large'], ['Medium']] }],
  ['King Size Bed Frame Wooden Oak Finish', 'Queen Size Bed Frame Wooden Oak Finish', { words: [['King'], ['Queen']] }],
  ['Decaf Ground Coffee Medium Roast Starbucks Pike Place 12oz', 'Ground Coffee Medium Roast Starbucks Pike Place 12oz', { words: [['Decaf'], []] }],
  ['Sugar Free Red Bull Energy Drink 4 Pack', 'Red Bull Energy Drink 4 Pack', { words: [['Sugar', 'Free'], []] }],
  // An edition: a tier's word, or the word before `Edition`, beside numbers or ending the entry.
  ['Office 365 Business', 'Office 365 Business Premium', { words: [[], ['Premium']] }],
  ['Photoshop CS3', 'Photoshop CS3 Extended', { words: [[], ['Extended']] }],
  ['PlayStation 5', 'PlayStation 5 Digital Edition', { words: [[], ['Digital', 'Edition']] }],
  ['Kindle Paperwhite', 'Kindle Paperwhite Signature Edition', { words: [[], ['Signature', 'Edition']] }],
  ['Apple MacBook Air', 'Apple MacBook', { words: [['Air'], []] }],
  // `Ultra` after a model's number, and a `+` ending a word or model, which reads `Plus`.
  ['Samsung Galaxy S23 Ultra 256GB', 'Samsung Galaxy S23 256GB', { words: [['Ultra'], []] }],
  ['Galaxy Tab S8+', 'Galaxy Tab S8', { words: [['+'], []] }],
  ['Redmi Note 13 Pro+ 5G 256GB', 'Redmi Note 13 Pro 5G 256GB', { words: [['+'], []] }],
  ['Apple TV+', 'Apple TV', { words: [['+'], []] }],
  // Two sizes, one a letter doubled of the other, however many words agree.
  ['Duracell Plus AA Batteries Pack of 12', 'Duracell Plus AAA Batteries Pack of 12', { words: [['AA'], ['AAA']] }],
  ['Gildan Heavy Cotton Adult T-Shirt Size XL Navy Blue', 'Gildan Heavy Cotton Adult T-Shirt Size XXL Navy Blue', { words: [['XL'], ['XXL']] }],
  // Two sizes in letters after a size's word, however many words agree.
  ['Nike Dri-FIT Legend Training T-Shirt Mens Size M Black Cotton', 'Nike Dri-FIT Legend Training T-Shirt Mens Size L Black Cotton', { words: [['M'], ['L']] }],
  ['Jack Wolfskin Herren Jacke Gr. XS Schwarz Outdoor Winter', 'Jack Wolfskin Herren Jacke Gr. S Schwarz Outdoor Winter', { words: [['XS'], ['S']] }],
  // A letter ending an entry after a model's number or a number word, on one side only: a
  // model of its own (`Xbox One X` though `X` reads as a Roman numeral); a letter where the
  // other's model has digits: another model, shown as its number.
  ['Xbox One', 'Xbox One S', { words: [[], ['S']] }],
  ['Xbox One X', 'Xbox One', { words: [['X'], []] }],
  ['LG G3 S', 'LG G3', { words: [['S'], []] }],
  ['Sony Xperia L1', 'Sony Xperia L', { numbers: [['L1'], ['L']] }],
  ['Samsung Galaxy S8', 'Samsung Galaxy Y', { numbers: [['S8'], ['Y']] }],
  ['Motorola Moto G6 UK SIM Free', 'Motorola Moto C UK SIM Free', { numbers: [['G6'], ['C']] }],
  // Ordinals written out are their numbers: another conference.
  ['Report on the Fourth International Conference on Query Answering', 'Report on the Fifth International Conference on Query Answering', { numbers: [['Fourth'], ['Fifth']] }],
  // A katakana word beside numbers on both sides: a product's colour.
  ['iPhone 15 Pro 256GB ブラック', 'iPhone 15 Pro 256GB ホワイト', { words: [['ブラック'], ['ホワイト']] }],
  // A house number's suffix on one side only: another house.
  ['12 rue de la Paix, 75002 Paris', '12 bis rue de la Paix, 75002 Paris', { words: [[], ['bis']] }],
  // A generation ending a name, on one side only or another on each: a father and his son.
  ['John Smith', 'John Smith Jr.', { words: [[], ['Jr']] }],
  ['Robert Brown Sr', 'Robert Brown Jr', { words: [['Sr'], ['Jr']] }],
  // A letter with a diacritic replaced by another: no typo.
  ['Müller GmbH', 'Miller GmbH', { words: [['Müller'], ['Miller']] }],
  ['Jürgen Schröder', 'Jürgen Schrader', { words: [['Schröder'], ['Schrader']] }],
  // Titles of address, though `Mr` abbreviates `Mrs`: a couple.
  ['Mr J. Thompson, 4 Elm Road', 'Mrs J. Thompson, 4 Elm Road', { words: [['Mr'], ['Mrs']] }],
  ['Ms Alice Weber', 'Miss Alice Weber', { words: [['Ms'], ['Miss']] }],
  // A possessive's `s` is no letter of the word: `Mary` / `Mark` are 4 letters, one replaced.
  ["St. Mary's Hospital", "St. Mark's Hospital", { words: [["Mary's"], ["Mark's"]] }],
  // Roman numerals are numbers, equal or different.
  ['Database Tuning (Part I)', 'Database Tuning (Part II)', { numbers: [['I'], ['II']] }],
  // A lone word stands for every entry that holds it.
  ['Mitchell', 'Mitchell Green', { words: [[], ['Green']] }],
  ['Acme', 'Acme Gadgets LLC', { words: [[], ['Gadgets']] }],
  ['Acme Widgets GmbH', 'Acme Gadgets Gesellschaft mit beschränkter Haftung', { words: [['Widgets'], ['Gadgets']] }],
  // A model's generation, a Roman numeral after its number or `Mark`, on one side only.
  ['Sony DSC-RX10 IV', 'Sony DSC-RX10', { numbers: [['IV'], []] }],
  ['Canon EOS 6D Mark II', 'Canon EOS 6D', { numbers: [['II'], []], words: [['Mark'], []] }],
  ['Pentax K-5 II Body', 'Pentax K-5 Body', { numbers: [['II'], []] }],
  ['Toy Story', 'Toy Story 2', { numbers: [[], ['2']] }],
  // A modifier on one side only, wherever it stands.
  ['Organic Whole Milk Gallon Horizon', 'Organic Whole Milk Half Gallon Horizon', { words: [[], ['Half']] }],
  ['Springfield High School', 'Springfield Junior High School', { words: [[], ['Junior']] }],
  // A qualifier one side ends in, the other holding nothing more: another branch or place.
  ['First National Bank', 'First National Bank of Texas', { words: [[], ['of', 'Texas']] }],
  // A changed word each side says twice, among many shared (a one-line record's too).
  ['Department of Computer Science, University of Oxford, Oxford, UK', 'Department of Computer Science, University of Cambridge, Cambridge, UK',
    { words: [['Oxford', 'Oxford'], ['Cambridge', 'Cambridge']] }],
  ['Harry Potter and the Chamber of Secrets Audiobook Chapter One', 'Harry Potter and the Chamber of Secrets Audiobook Chapter Two', { words: [['One'], ['Two']] }],
  // CJK runs whose own characters differ: two branches, two places.
  ['三菱UFJ銀行 新宿支店', '三菱UFJ銀行 渋谷支店', { words: [['新宿支店'], ['渋谷支店']] }],
  ['中国工商银行北京分行', '中国工商银行上海分行', { words: [['中国工商银行北京分行'], ['中国工商银行上海分行']] }],
  ['山田商事 新宿支店', '山田商事 新大久保支店', { words: [['新宿支店'], ['新大久保支店']] }],
];

// Variants of one entity: nothing differs.
const VARIANTS = [
  ['Microsoft', 'Mircosoft'], ['John Smith', 'Smith, John'], ['José García', 'Jose Garcia'], ['Jon Smith', 'John Smith'],
  ['Siemens AG', 'Siemens Aktiengesellschaft'], ['Apple Inc.', 'Apple Incorporated'], ['Kestrel Dynamics Ltd', 'Kestrel Dynamics Limited'],
  ['Hauptstr. 5', 'Hauptstraße 5'], ['Johnson & Johnson', 'Johnson and Johnson'], ['Brightwell & Co', 'Brightwell and Co'], ['Brightwell & Co', 'Brightwell Co'], ['Margaret Smyth', 'Margaret Smith'],
  ['AquaPure Water Filter Pitcher 10-Cup', 'AquaPure Water Filter Pitcher 10 Cup'], ['IKEA KALLAX Regal weiß 77x147 cm', 'IKEA Kallax Regal Weiss 77 x 147 cm'],
  ['350 5th Ave, New York', '350 Fifth Avenue, New York'], ['Aquazone Seven Seas Deluxe', 'Aquazone Seven Seas Deluxe Edition'],
  ['Acme Corp Monthly All Hands Meeting Notes Jan 2024', 'Acme Corp Monthly All Hands Meeting Notes January 2024'], ['Acme Corp Monthly All Hands Meeting Notes Januar 2024', 'Acme Corp Monthly All Hands Meeting Notes January 2024'],
  ['営業部 定例会議 議事録 月曜日', '営業部 定例会議 議事録 月曜'], ['Apple iPhone 8 Plus 64GB Silver Unlocked SIM Free', 'Apple iPhone 8 Plus 64GB Silver Unlocked'], ['東京都新宿区西新宿2丁目8-1', '东京都新宿区西新宿2丁目8-1'], ['Womens Running Shoes Nike Air Zoom Pegasus', 'Ladies Running Shoes Nike Air Zoom Pegasus'], ['Calle Mayor 5, 3º B, Madrid', 'C/ Mayor 5, 3B, Madrid'],
  // An address's counters are separators; a name's reading in katakana varies.
  ['東京都港区六本木1-2-3', '東京都港区六本木1丁目2-3'], ['港区六本木1-2-3', '東京都港区六本木1-2-3'], ['斉藤商店 新宿支店', '斎藤商店 新宿支店'],
  ['株式会社山田商事 大阪支店', '山田商事株式会社 大阪支店'], ['有限会社山田商事 大阪支店', '株式会社山田商事 大阪支店'], ['東京都港区六本木1丁目2番3号', '東京都港区六本木1-2-3'], ['ヤマダ タロウ', 'ヤマダ タロー'], ['Bose AM53', 'Bose AM53BK'],
  ['Dr. Amelia Thornbury', 'Amelia Thornbury'], ['iPhone 14 Pro', 'iPhone 14 Pro 128GB'], ['北京大學', '北京大学'], ['張偉', '张伟'], ['臺灣大學 陳志明', '台湾大学 陈志明'], ['(株)ソニー', 'ソニー株式会社'], ['（有）山田商店', '山田商店有限会社'], ['梅田3丁目1番1号', '梅田3-1-1'],
  ['Sony Handycam HDR-SR10 Camcorder - HDRSR10', 'Sony 40GB Handycam Camcorder - HDRSR10'], // one code said twice: one token
  ['ＡＢＣ　１２３', 'abc 123'], ['Whitfield-Price', 'Whitfield Price'], ['Northgate Medical Supplies LLC', 'Northgate Medical Supply LLC'],
  ["St. Mary's Hospital", 'Saint Marys Hospital'], ["McDonald's", 'McDonalds'], ['Brown', 'Browne'], ['Isabella Ortiz', 'Isabela Ortiz'],
  ['Isabele Ortiz', 'Isabelle Ortiz'], ['29B Islington Park Street', 'Flat B 29 Islington Park Street'], ['Bose AM53', 'Bose AM53B'],
  ['Müller GmbH', 'Mueller GmbH'], ['Müller GmbH', 'Muller GmbH'], ['南京大学+', '南京大学 Plus'],
  // A number moved with its word, and a word followed by two numbers, are no numbers in other places.
  ['Flat 4, 1 Main Street', '1 Main Street, Flat 4'], ['Microsoft Office Standard 2007 - 02107746', 'Microsoft Office 2007 Standard - 021-07746'],
  ['National University of Singapore, 3 Science Drive 2, 117543, Singapore', 'National University of Singapore, 3 Science Drive 2, Singapore 117543'],
  ['Canon EOS M100 EF-M 15-45mm EF-M 55-200mm', 'Canon EOS M100 EF-M 15-45mm 55-200mm'],
  ['The Print Shop 20 Pro Publisher', 'The Print Shop 20 Professional Publisher'], ['Max Morrison', 'Max Morison'], ['Joshua Hann', 'Joshuaa Hann'], ['Helen Baker', 'Helene Baker'],
  // Legal forms distinguish no organisation: one group's entries in several countries.
  ['Akzo Nobel N.V.', 'Akzo Nobel B.V.'], ['Akzo Nobel GmbH', 'Akzo Nobel Inc.'],
  // Legal forms of several words are their abbreviations; `und` and `et` say `&`.
  ['Müller GmbH', 'Müller Gesellschaft mit beschränkter Haftung'], ['Acme LLC', 'Acme Limited Liability Company'],
  ['Renault S.A.', 'Renault Société Anonyme'], ['Tesco PLC', 'Tesco Public Limited Company'], ['Volvo AB', 'Volvo Aktiebolag'],
  ['Schmidt GmbH & Co. KG', 'Schmidt GmbH und Co. KG'],
  // `+` and `Plus` are one tier; `Ultra HD` and `Ultra` before a product line's name are none.
  ['Canon EOS 6D Mark II Body', 'Canon EOS 6D Mk II'], ['Henry VIII Road 5', 'Henry Road 5'],
  ['Department of Computer Science, University of Oxford, Oxford, UK', 'Dept. of Computer Science, University of Oxford, Oxford, United Kingdom'],
  ['Bank of America', 'Bank of America Corp'], ['Samsung Galaxy S8 in Black', 'Samsung Galaxy S8'],
  ['Galaxy S8+', 'Galaxy S8 Plus'], ['iPhone 7+', 'iPhone 7 Plus 128GB'], ['Redmi Note 13 Pro+', 'Redmi Note 13 Pro Plus'], ['C++ Primer', 'C++ Primer 5th'], ['Samsung 55" 4K Ultra HD TV', 'Samsung 55" 4K TV'],
  ['Linksys Ultra RangePlus WRT160N', 'Linksys RangePlus WRT160N'],
  ['12 bis rue de la Paix', '12bis rue de la Paix'], ['Via Roma 10 ter', 'Via Roma 10ter'],
  // A colour's code after a model code ending in a letter, a unit's `x` after digits, a
  // letter explained by a word: no model's letter.
  ['Panasonic Lumix DMC LX15 Schwarz', 'Panasonic Lumix LX15 Schwarz DMC LX15EG K'], ['Canon CMOS 5184', 'Canon CMOS 5184 x'],
  ['Xbox One S', 'Xbox One Slim'], ['Flat B 29 Islington Park Street', 'Flat 29 B Islington Park Street'],
  // `Jr` within a name is a street's or a school's, not a generation.
  ['8128 S Dr Martin Luther King Jr Drive', '8128 S Dr Martin Luther King Drive'],
  // A one-line record whose many fields agree, with a typo in its postcode and another in its street number.
  ['harley mccarthy, 177 pridham street, marsden 3167, 19080419', 'harley mccarthy, 17 pridham street, marsden 3165, 19080419'],
];

test('what differs: numbers, model codes and distinguishing words, each side as written', () => {
  for (const [a, b, want] of LOOK_ALIKES) {
    assert.deepEqual(differs(a, b), want, `${a} / ${b}`);
    assert.deepEqual(differs(b, a), { ...(want.numbers && { numbers: [want.numbers[1], want.numbers[0]] }),
      ...(want.words && { words: [want.words[1], want.words[0]] }) }, `${b} / ${a}`);
  }
});

test('an ASCII entry is read as the general path reads it (tokens.js reads ASCII by classes of its own): every ASCII character, in and around words and numbers', () => {
  // A first token not ASCII sends the rest of the entry down the general path, and marks none of it.
  const general = (text) => tokensOf(`é ${text}`).slice(1);
  for (let code = 0; code < 128; code++) {
    const c = String.fromCharCode(code);
    for (const text of [`a${c}b`, `${c}word${c}`, `${c}${c}`, `12${c}`, `Flat ${c}3B 2${c}+`, `Galaxy S8${c} Size ${c}M`, `John${c}s Jr${c}`]) {
      assert.deepEqual(tokensOf(text), general(text), JSON.stringify(text));
    }
    // A key drops punctuation (\p{P}) and keeps symbols (\p{S}), whatever the path, but for
    // a `+` ending a word, which reads `Plus` (a token of its own).
    if (/\s/.test(c)) continue;
    const word = `${c}a${c}b${c}`;
    assert.equal(tokensOf(word)[0]?.key ?? '', word.toLowerCase().replace(/\p{P}/gu, '').replace(/b\+$/, 'b'), JSON.stringify(word));
  }
});

test('`(株)` and `(有)` are dropped wherever they stand, as the short measure drops them', async () => {
  for (const [text, keys, normalized] of [['(株)ソニー', ['ソニー'], 'ソニー'], ['山田(有)商店', ['山田商店'], '山田商店'], ['Sony（株）Japan', ['sonyjapan'], 'sonyjapan']]) {
    assert.deepEqual(tokensOf(text).map((t) => t.key), keys, text);
    assert.equal(sh.similarity(text, normalized, { measure: 'short' }), 1, text);
  }
});

test('a `+` ending a CJK run reads `Plus`, as after a word: every token has a key', () => {
  assert.deepEqual(tokensOf('南京大学+ One').map((t) => t.key), ['南京大学', 'plus', 'one']);
  assert.deepEqual(tokensOf('Galaxy S8+').map((t) => t.key), ['galaxy', 's8', 'plus']);
});

test('what differs is the same either way round: a token said twice on one side, a number one edit from a longer one', () => {
  for (const [a, b, want] of [
    // `Maryland` twice on one side: six tokens shared, counted on the side that says it twice (affiliations).
    ['Computer Science Department, University of Maryland, College Park, Maryland', 'University of Maryland at College Park', null],
    ['Marcy-Newberry Marcy Center, 1539 S. Springfield', 'Marcy Newberry Association - Marcy Center, 1539 S Springfield Ave', null],
    // A model's digit dropped is no typo of a longer number: four digits identify.
    ['Panasonic VIERA 50in Plasma Flat Panel 1080p HDTV In Black - TH50PZ85U', 'Panasonic VIERA 50in 1080p Plasma HDTV In Black - TH50PZ850U',
      { numbers: [['TH50PZ85U'], ['TH50PZ850U']] }],
  ]) {
    assert.deepEqual(differs(a, b), want, `${a} / ${b}`);
    assert.deepEqual(differs(b, a), want && { numbers: [want.numbers[1], want.numbers[0]] }, `${b} / ${a}`);
  }
});

test("a word that names a property of JS objects is a word like any other (`constructor`, `__proto__`)", async () => {
  for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    // Shown without its edge punctuation, as every token is.
    assert.deepEqual(differs(`Object ${word} helpers`, 'Object builder helpers'), { words: [[word.replace(/_/g, '')], ['builder']] }, word);
    assert.equal(differs(`${word} helpers 2`, `${word} helpers 2`), null, word);
  }
  // A Debian synopsis and its neighbour, which made dedup throw (`x.slice is not a function`).
  const { groups } = await sh.dedup(['Perl module for object constructor helpers', 'Perl module for object constructors helpers', 'bar']);
  assert.deepEqual(groups, [[0, 1]]);
});

test("in a list, a lone word differs from an entry of more words, legal forms, numbers and CJK aside; in a record's field it does not", () => {
  for (const [a, b] of [['Siemens', 'Siemens AG'], ['iPhone', 'iPhone 128GB'], ['Mitchell', 'Mitchel'], ['Mitchell', 'Mitchell 北京'], ['Microsoft', 'Mircosoft']]) {
    assert.equal(differs(a, b), null, `${a} / ${b}`);
  }
  // A number of one or two digits ending an entry, the other holding none: a sequel's or a model's.
  assert.deepEqual(differs('iPhone', 'iPhone 14'), { numbers: [[], ['14']] });
  assert.equal(differingParts(identifyingParts('iPhone'), identifyingParts('iPhone 14')), null);
  assert.deepEqual(differs('Berkeley', 'U.C. Berkeley'), { words: [[], ['U.C']] });
  assert.deepEqual(differs('Morrison', 'Grace Morrison'), { words: [[], ['Grace']] });
  // A record's other fields tell a given name alone from another person's (records.js asks differingParts).
  assert.equal(differingParts(identifyingParts('Mitchell'), identifyingParts('Mitchell Green')), null);
  // As the CLI and the demo say it.
  assert.equal(differenceText(differs('Mitchell', 'Mitchell Green')), 'words (none) / Green');
  assert.equal(differenceText(differs('125 Main Street', '123 Main Street')), 'numbers 125 / 123');
  assert.equal(differenceText({ numbers: [['19560409'], ['19580612']], words: [['mitchell'], ['jane']] }), 'numbers 19560409 / 19580612; words mitchell / jane');
});

test('a title whose commas list words is no one-line record (thresholds.js isRecord): its number differs among many shared words', () => {
  const title = 'database tuning: principles, experiments, and troubleshooting techniques';
  assert.deepEqual(differs(`${title} (part ii)`, `${title} (part i)`), { numbers: [['ii'], ['i']] });
});

test('a legal form of several words is its abbreviation to the short measure and to the look-alike rule alike (similarity.cpp kListForms, legal-forms.js LEGAL_PHRASES)', () => {
  for (const [phrase, short] of LEGAL_PHRASES) {
    for (const [a, b] of [[`Kestrel ${phrase}`, `Kestrel ${short}`], [`Kestrel ${phrase} Holdings`, `Kestrel Holdings ${short}`]]) {
      assert.equal(sh.similarity(a, b, { measure: 'short' }), 1, `${a} / ${b}`);
      assert.equal(listDifference(identifyingParts(a), identifyingParts(b)), null, `${a} / ${b}`);
      assert.equal(listDifference(identifyingParts(b), identifyingParts(a)), null, `${b} / ${a}`);
    }
  }
  // Its words are legal forms there only: `Public` and `Liability` elsewhere distinguish.
  assert.deepEqual(differs('Kestrel Public Relations', 'Kestrel Liability Relations'), { words: [['Public'], ['Liability']] });
});

test('nothing differs between variants of one entity: typos, abbreviations, order, diacritics, width, joined words, records', () => {
  for (const [a, b] of VARIANTS) {
    assert.equal(differs(a, b), null, `${a} / ${b}`);
    assert.equal(differs(b, a), null, `${b} / ${a}`);
  }
});

test('a number of up to four digits one edit away differs; a longer one, or one changed word, counts unless six tokens agree; a number on one side only never does', () => {
  assert.deepEqual(differs('Acme Widget Deluxe Blue 42', 'Acme Widget Deluxe Blue 43'), { numbers: [['42'], ['43']] });
  // House numbers and models identify, however much else agrees: 3200 / 3400 Las Vegas Blvd, SX720 / SX730.
  assert.deepEqual(differs('Acme Widget Deluxe Blue Steel Edition 42', 'Acme Widget Deluxe Blue Steel Edition 43'), { numbers: [['42'], ['43']] });
  assert.deepEqual(differs('3200 Las Vegas Blvd. S. Las Vegas NV', '3400 Las Vegas Blvd. S. Las Vegas NV'), { numbers: [['3200'], ['3400']] });
  assert.deepEqual(differs('Canon PowerShot SX730 HS Digital Camera Black', 'Canon PowerShot SX720 HS Digital Camera Black'), { numbers: [['SX730'], ['SX720']] });
  // A postcode, a phone or a date one edit away may be a typo where six tokens agree.
  assert.equal(differs('Acme Widget Deluxe Blue Steel Edition 90210', 'Acme Widget Deluxe Blue Steel Edition 90201'), null);
  assert.deepEqual(differs('Acme Widget 90210', 'Acme Widget 90201'), { numbers: [['90210'], ['90201']] });
  assert.deepEqual(differs('Acme Widget Deluxe Blue Steel Edition 42', 'Acme Widget Deluxe Blue Steel Edition 57'), { numbers: [['42'], ['57']] });
  assert.equal(differs('Galaxy S24 Ultra', 'Galaxy Ultra'), null);
  assert.equal(differs('Deutsche Bank AG Frankfurt', 'Deutsche Bank AG'), null);
});

test('look-alikes alone: kept apart and listed with what differs, by the defaults', async () => {
  for (const [a, b, want] of LOOK_ALIKES) {
    const similarity = sh.similarity(a, b, { measure: 'short', weights: sh.learnWeights([a, b]) });
    const result = await sh.dedup([a, b]);
    assert.equal(result.measure, 'short');
    assert.deepEqual(result.groups, [], `${a} / ${b}`);
    if (similarity >= result.similarity) {
      assert.deepEqual(result.review, [{ a: 0, b: 1, similarity, differs: want }], `${a} / ${b}`);
      assert.equal(result.reviewOmitted, 0);
    } else {
      assert.deepEqual(result.review, [], `${a} / ${b}: below the threshold, nothing to list`);
    }
  }
});

test('the split is what made them apart: pairs above the threshold, and a kept entry without a number does not join two that differ', async () => {
  const list = ['iPhone Pro', 'iPhone 14 Pro', 'iPhone 15 Pro', 'iPhone 14 Pro Max'];
  const weights = sh.learnWeights(list);
  for (const b of list.slice(1)) assert.ok(sh.similarity(list[0], b, { measure: 'short', weights }) >= 0.6, `${list[0]} / ${b} reach 0.6`);
  const { groups, review } = await sh.dedup(list);
  // `Max` ends its entry: another model than `iPhone Pro` (and than `iPhone 14 Pro`).
  assert.deepEqual(groups, [[0, 1]]);
  assert.deepEqual(review.map((e) => [e.a, e.b, e.differs]), [[1, 2, { numbers: [['14'], ['15']] }], [0, 3, { words: [[], ['Max']] }]]);
});

/** Checks that every group member reaches its kept entry and does not differ from it, and that no two members differ in numbers. */
function assertNoLookAlikeGrouped(texts, { groups, similarity, weights }) {
  for (const group of groups) {
    for (let i = 1; i < group.length; i++) {
      assert.ok(sh.similarity(texts[group[0]], texts[group[i]], { measure: 'short', weights }) >= similarity, `${texts[group[0]]} / ${texts[group[i]]}`);
      assert.equal(differs(texts[group[0]], texts[group[i]]), null, `${texts[group[0]]} / ${texts[group[i]]}`);
      for (let j = 1; j < i; j++) assert.equal(differs(texts[group[j]], texts[group[i]])?.numbers, undefined, `${texts[group[j]]} / ${texts[group[i]]}`);
    }
  }
}

test('in a list: the Names sample and every look-alike and variant, with review 0.4 and without; the review explains its look-alikes', async () => {
  const list = [...NAMES_SAMPLE, ...LOOK_ALIKES.flatMap(([a, b]) => [a, b]), ...VARIANTS.flat()];
  const plain = await sh.dedup(list);
  assertNoLookAlikeGrouped(list, plain);
  const withReview = await sh.dedup(list, { review: 0.4 });
  assert.deepEqual(withReview.groups, plain.groups, 'the review leaves the groups as they are');
  assertNoLookAlikeGrouped(list, withReview);
  const groupOf = new Map();
  for (const g of plain.groups) for (const i of g) groupOf.set(i, g[0]);
  const group = (i) => groupOf.get(i) ?? i;
  for (const review of [plain.review, withReview.review]) {
    for (const entry of review) {
      assert.notEqual(group(entry.a), group(entry.b));
      assert.deepEqual(entry.differs ?? null, differs(list[entry.a], list[entry.b]));
      assert.equal(entry.similarity, sh.similarity(list[entry.a], list[entry.b], { measure: 'short', weights: plain.weights }));
    }
  }
  // Every look-alike pair kept apart by the split is listed without a review threshold, and with one.
  for (const [a, b] of LOOK_ALIKES) {
    const [i, j] = [list.indexOf(a), list.indexOf(b)];
    assert.notEqual(group(i), group(j), `${a} / ${b}`);
  }
  const listedPairs = (review) => new Set(review.map((e) => `${group(e.a)},${group(e.b)}`));
  const plainPairs = listedPairs(plain.review);
  for (const pair of plainPairs) assert.ok(listedPairs(withReview.review).has(pair), `review 0.4 also lists ${pair}`);
  assert.ok(plain.review.length >= 8, `${plain.review.length} look-alikes listed`);
});

test('every variant is grouped or listed with review 0.4, alone and in the list; legal forms, & and traditional Han are grouped', async () => {
  const list = [...NAMES_SAMPLE, ...LOOK_ALIKES.flatMap(([a, b]) => [a, b]), ...VARIANTS.flat()];
  const inList = await sh.dedup(list, { review: 0.4 });
  const groupOf = (result) => {
    const of = new Map();
    for (const g of result.groups) for (const i of g) of.set(i, g[0]);
    return (i) => of.get(i) ?? i;
  };
  const found = (result, i, j) => {
    const group = groupOf(result);
    if (group(i) === group(j)) return 'grouped';
    return result.review.some((e) => new Set([group(e.a), group(e.b)]).size === 2 && [group(e.a), group(e.b)].includes(group(i)) && [group(e.a), group(e.b)].includes(group(j))) ? 'listed' : 'missed';
  };
  const alwaysGrouped = new Set(['Siemens Aktiengesellschaft', 'Apple Incorporated', 'Johnson and Johnson', '北京大学', '张伟', '台湾大学 陈志明', 'ソニー株式会社', '山田商店有限会社', '梅田3-1-1', 'Müller Gesellschaft mit beschränkter Haftung',
    'Acme Limited Liability Company', 'Renault Société Anonyme', 'Tesco Public Limited Company', 'Schmidt GmbH und Co. KG']);
  for (const [a, b] of VARIANTS) {
    const alone = await sh.dedup([a, b], { review: 0.4 });
    const byThemselves = found(alone, 0, 1);
    const together = found(inList, list.indexOf(a), list.lastIndexOf(b));
    assert.notEqual(byThemselves, 'missed', `${a} / ${b} alone`);
    assert.notEqual(together, 'missed', `${a} / ${b} in the list`);
    if (alwaysGrouped.has(b)) assert.deepEqual([byThemselves, together], ['grouped', 'grouped'], `${a} / ${b}`);
  }
});

test('the text measure is left as it was: no review unless asked, no reasons', async () => {
  const result = await sh.dedup(['125 Main Street, Springfield, a house', '123 Main Street, Springfield, a house'], { measure: 'text', similarity: 0.5 });
  assert.equal('review' in result, false);
  const reviewed = await sh.dedup(['125 Main Street, Springfield, a house', '123 Main Street, Springfield, a house'], { measure: 'text', similarity: 0.9, review: 0.5 });
  assert.equal(reviewed.review.length, 1);
  assert.equal('differs' in reviewed.review[0], false);
});

test('the pool answers as one thread, look-alikes and reasons included', async () => {
  pool ??= await createPool({ size: 2 });
  const list = [...NAMES_SAMPLE, ...LOOK_ALIKES.flatMap(([a, b]) => [a, b])];
  for (const options of [{}, { review: 0.4 }]) {
    const { fingerprints: f1, weights: w1, ...one } = await sh.dedup(list, options);
    const { fingerprints: f2, weights: w2, ...pooled } = await pool.dedup(list, options);
    assert.deepEqual(pooled, one);
    assert.deepEqual(f2, f1);
  }
});
