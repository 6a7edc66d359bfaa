// Entities of a benchmark from its matched pairs, shared by lists-make.js and records-make.js.

/**
 * Entity ids from matched pairs: connected components (union-find) of the keys, each named by
 * its smallest key, so ids do not depend on the pairs' order. A key repeated in `keys` throws.
 * @returns {{ entityOf: Map<string, string>, listed: number, unknown: number }} listed:
 *   distinct unordered pairs of two different known keys in the input, to set against the
 *   components' true pairs; unknown: pairs naming a key not in `keys` (ignored)
 */
export function componentsOf(keys, pairs) {
  const parent = new Map(keys.map((key) => [key, key]));
  if (parent.size !== keys.length) throw new Error('a record id repeats in its table');
  const find = (key) => {
    while (parent.get(key) !== key) {
      parent.set(key, parent.get(parent.get(key)));
      key = parent.get(key);
    }
    return key;
  };
  let unknown = 0;
  const listed = new Set();
  for (const [a, b] of pairs) {
    if (!parent.has(a) || !parent.has(b)) { unknown++; continue; }
    if (a !== b) listed.add(a < b ? `${a}\n${b}` : `${b}\n${a}`);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb); // the smaller key is the root
  }
  const smallest = new Map();
  for (const key of keys) {
    const root = find(key);
    if (!smallest.has(root) || key < smallest.get(root)) smallest.set(root, key);
  }
  return { entityOf: new Map(keys.map((key) => [key, smallest.get(find(key))])), listed: listed.size, unknown };
}
