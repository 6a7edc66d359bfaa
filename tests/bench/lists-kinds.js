// `node tests/bench/lists-kinds.js [--review=0.4] [--all]`: the true pairs of the public lists
// (tests/data/lists/) by the kind of variation between their two texts, and the share of each
// kind that `sh.dedup(list)` groups at the defaults, and groups or lists for review with
// `review` (a pair is listed when a review entry joins its two groups). The README's table of
// what the defaults find on lists comes from here, on its eight lists (README_LISTS); --all
// measures every list of lists.json.
//
// A pair's kind is the first of these that holds, on lower-cased words (runs of letters and
// digits), so each kind isolates one variation:
//   case or punctuation   the same words
//   diacritics            the same words once diacritics are removed (NFD, marks dropped)
//   spacing in a word     the same letters once spaces are removed (Mc Donald / McDonald)
//   word order            the same words in another order
//   typos                 as many words on each side, the differing ones paired each within
//                         two edits (Damerau-Levenshtein)
//   abbreviation          the differing words paired each as a prefix of the other (Corp /
//                         Corporation, St / Street, J / John)
//   word added or dropped the words of one are among the other's (a legal form, a middle name)
//   several               anything else (several variations at once, nicknames, rewordings)
import { init } from '../../js/node.js';
import { loadLists } from './lists-data.js';
import { truePairs } from './lists-metrics.js';

/** The eight lists the README's table counts (lists.json has more since). */
export const README_LISTS = ['febrl-names', 'febrl-records', 'affiliations', 'restaurant-names', 'restaurant-addresses', 'abt-buy', 'amazon-google', 'dblp-acm-titles'];

export const KINDS = ['case or punctuation', 'diacritics', 'spacing in a word', 'word order', 'typos', 'abbreviation', 'word added or dropped', 'several'];

const wordsOf = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const withoutDiacritics = (word) => word.normalize('NFD').replace(/\p{M}/gu, '');

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped: limit + 1 when above. */
function editDistance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = null;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    [before, previous] = [previous, row];
  }
  return Math.min(previous[b.length], limit + 1);
}

/** The words of x not matched by an equal word of y (a multiset difference). */
function unmatched(x, y) {
  const left = [...y];
  return x.filter((word) => {
    const at = left.indexOf(word);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}

/** Whether every word of x pairs with a distinct word of y under `fits` (greedy, in order). */
function pairsUp(x, y, fits) {
  if (x.length !== y.length) return false;
  const left = [...y];
  return x.every((word) => {
    const at = left.findIndex((other) => fits(word, other));
    if (at === -1) return false;
    left.splice(at, 1);
    return true;
  });
}

/** The kind of variation between two texts of one entity (see the file's comment). */
export function variationKind(a, b) {
  const [wa, wb] = [wordsOf(a), wordsOf(b)];
  if (wa.join(' ') === wb.join(' ')) return 'case or punctuation';
  const [ba, bb] = [wa.map(withoutDiacritics), wb.map(withoutDiacritics)];
  if (ba.join(' ') === bb.join(' ')) return 'diacritics';
  if (ba.join('') === bb.join('')) return 'spacing in a word';
  const [onlyA, onlyB] = [unmatched(ba, bb), unmatched(bb, ba)];
  if (onlyA.length === 0 && onlyB.length === 0) return 'word order';
  if (pairsUp(onlyA, onlyB, (x, y) => editDistance(x, y, 2) <= 2)) return 'typos';
  if (pairsUp(onlyA, onlyB, (x, y) => x !== y && (x.startsWith(y) || y.startsWith(x)))) return 'abbreviation';
  if (onlyA.length === 0 || onlyB.length === 0) return 'word added or dropped';
  return 'several';
}

/**
 * The true pairs of the public lists (copies aside) by kind, and how many of each dedup()
 * groups at the defaults and groups or lists with `review`.
 * @returns {{ kind: string, pairs: number, grouped: number, groupedOrListed: number }[]} in KINDS order
 */
export async function pairsByKind(sh, review, lists = loadLists({ names: README_LISTS })) {
  const tally = new Map(KINDS.map((kind) => [kind, { kind, pairs: 0, grouped: 0, groupedOrListed: 0 }]));
  for (const { texts, entities } of lists) {
    const { groups, review: entries } = await sh.dedup(texts, { review });
    const group = Int32Array.from(texts, (_, i) => -1 - i); // a text in no group: a group of its own
    groups.forEach((members, g) => { for (const i of members) group[i] = g; });
    const key = (x, y) => `${Math.min(x, y)},${Math.max(x, y)}`;
    const links = new Set(entries.map(({ a, b }) => key(group[a], group[b])));
    for (const [i, j] of truePairs(entities)) {
      if (texts[i] === texts[j]) continue; // copies: every method groups them
      const row = tally.get(variationKind(texts[i], texts[j]));
      row.pairs++;
      if (group[i] === group[j]) row.grouped++;
      if (group[i] === group[j] || links.has(key(group[i], group[j]))) row.groupedOrListed++;
    }
  }
  return [...tally.values()];
}

/** A share as the README prints it: a whole percent. */
export const percent = (x, n) => `${Math.round((100 * x) / n)}%`;

async function main() {
  const review = Number(process.argv.find((a) => a.startsWith('--review='))?.split('=')[1] ?? 0.4);
  const sh = await init();
  const lists = process.argv.includes('--all') ? loadLists() : loadLists({ names: README_LISTS });
  const rows = await pairsByKind(sh, review, lists);
  console.log(`True pairs of the ${lists.length} lists by kind of variation (distinct texts); dedup() at the defaults, and with review ${review}:`);
  console.log('| kind | true pairs | grouped | grouped or listed |\n|---|---:|---:|---:|');
  for (const { kind, pairs, grouped, groupedOrListed } of rows) {
    console.log(`| ${kind} | ${pairs.toLocaleString('en')} | ${percent(grouped, pairs)} | ${percent(groupedOrListed, pairs)} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
