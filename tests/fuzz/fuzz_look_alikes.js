// The look-alike rule fuzzed (issue 51: js/core/tokens.js and js/core/look-alikes.js, which
// dedup asks of every pair its grouping by the short measure would merge): random entries
// drawn from pieces of names, addresses and product titles (numbers, model codes, tiers,
// editions, legal forms of one word or several, ordinals, CJK and katakana, JS property names) and from any UTF-16
// unit, lone surrogates too, each pair checked against the contracts dedup relies on: tokens of text, an
// answer that says what differs or null, the same either way round, none within one entry.
// Plain JS, run by .ci/fuzz.sh beside the libFuzzer targets.
//   node tests/fuzz/fuzz_look_alikes.js [SECONDS=5] [--seed=N]
import { init } from '../../js/node.js';
import { differenceText, differingParts, identifyingParts, listDifference } from '../../js/core/look-alikes.js';
import { KIND_CJK, KIND_NUMBER, KIND_WORD } from '../../js/core/tokens.js';
import { fuzzRun } from './js-fuzz.js';

await init(); // the short measure's legal forms and conjunctions, which the rule reads (legal-forms.js useListForms)

const { seconds, seed, next, below, pick, check, running } = fuzzRun('fuzz_look_alikes');

const PIECES = ['Main', 'Street', 'St.', 'Hauptstraße', 'Hauptstr.', '123', '125', '12', '4B', 'Apt', 'bis', 'iPhone', '14', 'Pro', 'Plus',
  'Galaxy', 'S24', 'S8+', 'WH-1000XM4', 'Xbox', 'One', 'X', 'S', 'Size', 'M', 'XL', 'XXL', 'AA', 'AAA', 'Deutsche', 'Bank', 'Bahn', 'AG',
  'GmbH', 'Inc.', 'Ltd', '&', 'and', 'und', 'Gesellschaft', 'mit', 'beschränkter', 'Haftung', 'Limited', 'Liability', 'Company', 'Public', 'Jr.', 'Sr', 'fifth', '5th', '3º', 'Edition', 'Digital', 'Premium', 'Ultra', 'HD', 'John', 'Jon',
  'Smith', 'Robert', 'Roberta', 'Müller', 'Mueller', 'January', 'Jan', 'Januar', 'Mars', 'May', 'North', 'Süd', 'Mens', 'Womens', 'Ladies', 'Damen', '月曜日', '火曜', '星期一', '北京大学', '南京大学', '西新宿', '東', '东', 'メンズ', 'ウィメンズ', '北京大学', '北京大學', '罗刚', '罗刚刚', '新宿支店', '渋谷支店', '株式会社', '有限会社山田', '斎藤', '六本木1丁目2番3号', 'ブラック', 'ホワイト',
  '256GB', '77x147', '77', 'x', '147', '90210', '19560409', 'constructor', '__proto__', 'toString', 'ii', 'iii', ',', ';', '|', '\t',
  '-', '/', "'s", '’', '(', ')', 'ＡＢＣ', '１２３', 'é', '\u0301', '\uD800', '\uDC00', '😀', '\u0000', '٣', '²', ' ', '  ', '\n'];

/** An entry of a few pieces, spaced or not, and random units. */
function entry() {
  const parts = [];
  for (let n = below(9); n >= 0; n--) {
    parts.push(next() < 0.85 ? pick(PIECES) : String.fromCharCode(below(0x10000)));
    if (next() < 0.7) parts.push(' ');
  }
  return parts.join('');
}

/** An edit of an entry: a piece inserted, replaced or removed, or its words reordered. */
function edit(text) {
  const words = text.split(' ');
  const at = below(words.length + 1);
  const choice = below(4);
  if (choice === 0) words.splice(at, 0, pick(PIECES));
  else if (choice === 1) words.splice(at, 1, pick(PIECES));
  else if (choice === 2) words.splice(at, 1);
  else words.reverse();
  return words.join(' ');
}

const KINDS = new Set([KIND_WORD, KIND_NUMBER, KIND_CJK]);
const sides = (pair) => Array.isArray(pair) && pair.length === 2 && pair.every((side) => Array.isArray(side) && side.every((t) => typeof t === 'string'));

/** One pair's contracts: tokens made of text, an answer null or saying what differs as text, nothing differing from itself. */
function fuzzPair(a, b) {
  const [partsA, partsB] = [identifyingParts(a), identifyingParts(b)];
  for (const [text, parts] of [[a, partsA], [b, partsB]]) {
    check(parts.tokens.every((t) => typeof t.key === 'string' && t.key !== '' && typeof t.shown === 'string' && KINDS.has(t.kind)),
      'identifyingParts: each token a key and a shown text, of a kind', text);
    check(listDifference(parts, parts) === null && differingParts(parts, parts) === null, 'an entry differs from nothing in itself', text);
  }
  for (const rule of [listDifference, differingParts]) {
    const differs = rule(partsA, partsB);
    // The split asks a member against its kept entry, the review either way round.
    check((differs === null) === (rule(partsB, partsA) === null), `${rule.name}: the same answer either way round`, a, b);
    if (differs === null) continue;
    found++;
    check(Object.keys(differs).length > 0 && Object.keys(differs).every((k) => (k === 'numbers' || k === 'words') && sides(differs[k])),
      `${rule.name}: null or { numbers, words }, each side's tokens as text`, a, b);
    check(typeof differenceText(differs) === 'string', 'differenceText: text', a, b);
  }
}

let runs = 0;
let found = 0;
while (running()) {
  for (let k = 0; k < 200; k++, runs++) {
    const a = entry();
    fuzzPair(a, next() < 0.6 ? edit(a) : entry());
  }
}
check(found > 0 && found < 2 * runs, `some pairs differ and some do not (${found} of ${2 * runs})`);
console.error(`fuzz: fuzz_look_alikes ok: ${runs} runs, ${Math.round(runs / seconds)} exec/s, ${found} differences, seed ${seed}`);
