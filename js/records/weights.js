// The match weights of pairs of records under a model (model.js): per field the weight of its
// level, an exact agreement weighed by the rarity of the value agreed on, summed with the
// prior's log-odds.
import { MISSING } from './levels.js';
import { exactWeight, logit } from './model.js';

/** How many rows hold the rarest code that codes x and y (space-separated) share. */
function rarestShared(x, y, counts) {
  const codes = new Set(x.split(' '));
  let least = Infinity;
  for (const code of y.split(' ')) if (codes.has(code)) least = Math.min(least, counts.get(code) ?? 1);
  return Number.isFinite(least) ? least : 1;
}

/** Each field's share of rows per key, for the weight of an exact agreement. */
export function keyShares(fields, rows) {
  return fields.map((field) => {
    const counts = new Map();
    let present = 0;
    for (const r of rows) {
      const key = field.keys[r];
      if (key === '') continue;
      present++;
      for (const part of field.kind === 'code' ? key.split(' ') : [key]) counts.set(part, (counts.get(part) ?? 0) + 1);
    }
    // The share of the value two random rows agree on, on average: sum of p^3 over sum of p^2.
    let squares = 0;
    let cubes = 0;
    for (const count of counts.values()) {
      const p = count / present;
      squares += p * p;
      cubes += p * p * p;
    }
    return { counts, present, typical: squares > 0 ? cubes / squares : 1 };
  });
}

/** The weight (nats) of field j's `level` for rows r and s: an exact agreement weighs by the value's rarity (keyShares' `shares`). */
export function fieldWeight(model, fields, shares, j, level, r, s) {
  if (level === MISSING) return 0;
  if (level !== 0 || fields[j].kind === 'text') return model.fields[j].weights[level];
  const { counts, present, typical } = shares[j];
  const [x, y] = [fields[j].keys[r], fields[j].keys[s]];
  const share = (fields[j].kind === 'code' ? rarestShared(x, y, counts) : Math.max(counts.get(x) ?? 1, counts.get(y) ?? 1)) / present;
  return exactWeight(model.fields[j], share, typical, present);
}

/** The match weight (nats) of each pair, or of those at the indices `at`. */
export function matchWeights(model, fields, rows, { a, b }, levels, shares, at = null) {
  const f = fields.length;
  const base = logit(model.prior);
  const total = new Float64Array(at ? at.length : a.length);
  for (let q = 0; q < total.length; q++) {
    const p = at ? at[q] : q;
    let t = base;
    for (let j = 0; j < f; j++) t += fieldWeight(model, fields, shares, j, levels[p * f + j], rows[a[p]], rows[b[p]]);
    total[q] = t;
  }
  return total;
}
