// Look-alikes kept apart (README "Look-alikes"): by the short measure, no leader group holds
// a member whose identifying parts differ from its kept entry's, or two whose numbers differ
// (core/look-alikes.js). The leader grouping's groups are split here, between the grouping
// and its review, in whichever thread groups.
import { differingParts, hasNumbers, identifyingParts, listDifference } from '../core/look-alikes.js';

/**
 * The texts' strings by index, decoded on each call when they cross as UTF-8 (text.js
 * encodeTextsPaced's { utf8, bounds }); splitLookAlikes asks each grouped text once.
 */
export function textsByIndex(texts) {
  if (Array.isArray(texts)) return (i) => texts[i];
  const decoder = new TextDecoder();
  const { utf8, bounds } = texts;
  return (i) => decoder.decode(utf8.subarray(bounds[i], bounds[i + 1]));
}

/**
 * The parts of a group a member is asked of, the kept item's first: a member that joins
 * none of them starts its own, listed (a missed merge costs a glance, a wrong one a
 * record). Lines of a template (`Order 17 of customer 4: shipped on day 9`) make groups of
 * hundreds whose members differ from one another, each a part, so that asking each member
 * of every part is quadratic in the group (`node tests/bench/list-shapes.js`).
 */
export const MOST_PARTS = 16;

/**
 * `labels` (each item's kept item, as the grouping gives them: a kept item labels itself;
 * a list's kept item comes first, a record's may not) with every group split into parts. Each member, in ascending order, joins
 * the first part of its group (the kept item's first) whose first entry it does not differ
 * from and reaches (`reaches(firsts, member)[k]`: first entry firsts[k]'s similarity with
 * the member is at least the threshold, which the grouping has checked for the kept item;
 * asked once per member, of the other parts' first entries), and none of whose other entries it
 * differs from in numbers; else it starts a part of its own, which it keeps. The other
 * entries are asked of numbers only: a kept entry without a number (`iPhone Pro`) must not
 * hold both `iPhone 14 Pro` and `iPhone 15 Pro`, while two members' other differences are
 * mostly their own typos (measured: docs/lists.md). `textOf(i)` is item i's text.
 * Returns { labels (a new array when any group splits), apart }: apart.a[p] < apart.b[p],
 * for each member that did not join its kept item's part, itself and the first entry of
 * that part it differs from. With `keptChecked`, each member was found not to differ from its
 * kept item already (records.js, whose identifiers may override a difference), so members
 * are asked of numbers alone, the kept item not at all. With `firstOnly`, a member is asked
 * of each part's first entry alone: around a central leader (one-line records, dedup.js),
 * the members are the kept record's copies, whose differences among themselves are each
 * one's own typos.
 * Cost: the grouped items' tokens, a comparison with the kept item per member, and per
 * member that differs from it a `reaches` of the other parts' first entries, then a
 * comparison with those it reaches: a leader can hold hundreds of members that differ
 * from it and from one another (1M names' largest group holds 743), and comparing each
 * with every part would cost 11 s of the split there; it asks MOST_PARTS parts at most.
 */
export function splitLookAlikes(labels, textOf, reaches, { keptChecked = false, firstOnly = false } = {}) {
  const count = labels.length;
  const members = new Map(); // kept item -> its members, ascending
  for (let i = 0; i < count; i++) {
    if (labels[i] === i) continue;
    const list = members.get(labels[i]);
    if (list) list.push(i);
    else members.set(labels[i], [i]);
  }
  let split = labels;
  const a = [];
  const b = [];
  for (const [kept, list] of members) {
    const partsOf = partsOfItems(textOf);
    const groups = [[kept]];
    for (const member of list) {
      let joined = false;
      let reached; // reaches(the parts' first entries but the kept item's, member), asked once the kept item's part is left
      for (let g = 0; g < Math.min(groups.length, MOST_PARTS) && !joined; g++) {
        if (g > 0 && !(reached ??= reaches(groups.slice(1, MOST_PARTS).map((part) => part[0]), member))[g - 1]) continue;
        const other = groups[g].find((entry, e) => {
          // Past a part's first entry only numbers count, and they differ only where a side has
          // some (against the other's, a model's letter, letterForModel, or none, sequel).
          if (e > 0 && firstOnly) return false;
          const numbersOnly = e > 0 || keptChecked;
          if ((keptChecked && !g && !e) || (numbersOnly && !hasNumbers(partsOf(entry)) && !hasNumbers(partsOf(member)))) return false;
          const differs = listDifference(partsOf(entry), partsOf(member));
          return differs !== null && (!numbersOnly || differs.numbers !== undefined);
        });
        if (other === undefined) {
          if (g > 0) {
            if (split === labels) split = labels.slice();
            split[member] = groups[g][0];
          }
          groups[g].push(member);
          joined = true;
        } else if (g === 0) {
          a.push(Math.min(other, member));
          b.push(Math.max(other, member));
        }
      }
      if (!joined) {
        if (split === labels) split = labels.slice();
        split[member] = member;
        groups.push([member]);
      }
    }
  }
  return { labels: split, apart: { a: Uint32Array.from(a), b: Uint32Array.from(b) } };
}

/** Item i's identifyingParts, made once: `textOf(i)` is its text. */
export function partsOfItems(textOf) {
  const parts = new Map();
  return (i) => parts.get(i) ?? parts.set(i, identifyingParts(textOf(i))).get(i);
}

/** Whether items x and y of a list do not differ (listDifference; `textOf(i)` is item i's text). */
export function alikeItems(textOf) {
  const partsOf = partsOfItems(textOf);
  return (x, y) => !listDifference(partsOf(x), partsOf(y));
}

/**
 * What differs between texts x and y, or null: by `rule`, core/look-alikes.js differingParts
 * for a record's fields, listDifference for a list's entries.
 */
export function differenceOf(x, y, rule = differingParts) {
  return rule(identifyingParts(x), identifyingParts(y));
}
