// The look-alike split (js/dedup/look-alikes.js splitLookAlikes) equals its rule asked pair
// by pair on random groups of look-alikes, with each part's first entry and the members it
// reaches, and bounded as it says: reaches asked once per member, of MOST_PARTS parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identifyingParts, listDifference } from '../../js/core/look-alikes.js';
import { MOST_PARTS, splitLookAlikes } from '../../js/dedup/look-alikes.js';

const differs = (x, y) => listDifference(identifyingParts(x), identifyingParts(y));

test('splitLookAlikes equals its rule asked pair by pair, on random groups of look-alikes, and asks reaches at most once per member, of MOST_PARTS parts', () => {
  // The rule (dedup/look-alikes.js): each member, in ascending order, joins the first of the group's
  // first MOST_PARTS parts whose first entry it does not differ from and reaches (the kept item's part
  // needs no reach), and none of whose other entries differs from it in numbers; else it starts a
  // part. Written here pair by pair.
  const reference = (labels, textOf, reaches, { keptChecked = false, firstOnly = false } = {}) => {
    const split = Array.from(labels);
    const a = [];
    const b = [];
    const members = new Map();
    labels.forEach((kept, i) => kept !== i && (members.get(kept) ?? members.set(kept, []).get(kept)).push(i));
    for (const [kept, list] of members) {
      const parts = [[kept]];
      for (const member of list) {
        let joined = false;
        for (let g = 0; g < Math.min(parts.length, MOST_PARTS) && !joined; g++) {
          const other = parts[g].find((entry, e) => {
            if (e > 0 && firstOnly) return false;
            if (keptChecked && g === 0 && e === 0) return false;
            const found = differs(textOf(entry), textOf(member));
            return found !== null && (e === 0 && !keptChecked ? true : found.numbers !== undefined);
          });
          if (other === undefined && (g === 0 || reaches(parts[g][0], member))) {
            split[member] = parts[g][0];
            parts[g].push(member);
            joined = true;
          } else if (g === 0) {
            a.push(Math.min(other, member));
            b.push(Math.max(other, member));
          }
        }
        if (!joined) {
          split[member] = member;
          parts.push([member]);
        }
      }
    }
    return { labels: split, a, b };
  };
  // A model's letter against another's digits (`Galaxy S8` / `Galaxy Y`) and a sequel's number
  // ending one entry differ where only one side has numbers.
  const WORDS = ['Main', 'Street', 'Acme', 'Gadgets', 'Widgets', 'Bahn', 'Bank', 'Smith', 'Smyth', 'Jon', 'John', 'Pro', 'Galaxy', 'Y'];
  const NUMBERS = ['12', '21', '14', '15', 'S23', 'S24', '4B', '3B', '90210', '90201', 'S8', '2'];
  let state = 11;
  const below = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  let capped = 0;
  for (let round = 0; round < 40; round++) {
    const texts = Array.from({ length: 60 }, () => Array.from({ length: 1 + below(3) },
      () => (below(3) === 0 ? NUMBERS[below(NUMBERS.length)] : WORDS[below(WORDS.length)])).join(' '));
    // Groups of 15 items, and of 60 in every fourth round, where members that differ outnumber MOST_PARTS.
    const leaders = round % 4 === 3 ? [0] : [0, 1, 2, 3].map((k) => k * 15);
    const labels = new Uint32Array(texts.length).map((_, i) => (leaders.includes(i) || below(5) === 0 ? i : leaders[below(4)]));
    for (let i = 0; i < labels.length; i++) if (labels[i] > i) labels[i] = i; // a kept item comes first, as a list's does
    const reach = new Set(); // a random symmetric relation
    for (let k = 0; k < 900; k++) {
      const [x, y] = [below(60), below(60)];
      reach.add(`${Math.min(x, y)},${Math.max(x, y)}`);
    }
    const reachesPair = (x, y) => reach.has(`${Math.min(x, y)},${Math.max(x, y)}`);
    for (const options of [{}, { keptChecked: true }, { firstOnly: true }]) {
      const asked = new Map();
      const got = splitLookAlikes(labels, (i) => texts[i], (firsts, member) => {
        asked.set(member, (asked.get(member) ?? 0) + 1);
        assert.ok(firsts.length < MOST_PARTS);
        capped += firsts.length === MOST_PARTS - 1;
        return firsts.map((x) => reachesPair(x, member));
      }, options);
      const want = reference(labels, (i) => texts[i], reachesPair, options);
      assert.deepEqual(Array.from(got.labels), want.labels, JSON.stringify(options));
      assert.deepEqual([Array.from(got.apart.a), Array.from(got.apart.b)], [want.a, want.b]);
      for (const count of asked.values()) assert.equal(count, 1);
    }
  }
  assert.ok(capped > 0, 'some members were asked of MOST_PARTS parts');
});
