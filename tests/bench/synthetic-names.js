// Distinct person names for the speed benchmarks (names.js, dedup-ab.js --texts=names): FEBRL's
// given names and surnames (tests/data/lists/febrl-names.tsv) paired at random with a fixed
// seed, so that every run and every build compares the same names.
import { loadLists } from './lists-data.js';

/** `count` distinct "given surname" lines, deterministic. */
export function syntheticNames(count) {
  const [febrl] = loadLists({ names: ['febrl-names'] });
  const given = [...new Set(febrl.texts.map((t) => t.split(' ')[0]))];
  const surnames = [...new Set(febrl.texts.map((t) => t.split(' ').slice(1).join(' ')).filter(Boolean))];
  if (count > given.length * surnames.length) throw new RangeError(`at most ${given.length * surnames.length} names`);
  let state = 1;
  const below = (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
  const names = new Set();
  while (names.size < count) names.add(`${given[below(given.length)]} ${surnames[below(surnames.length)]}`);
  return [...names];
}
