// The comparison of pairs of records (README "Records"), field by field: each pair's level in
// each field, by the field's kind (levels.js): keyed fields by their keys, name and text
// fields by the similarity of their values' shingle sets in the core.
import { mapArray } from '../core/arrays.js';
import { buildShingleSets, createShingleSets, deleteShingleSets, setSimilarities } from '../bindings/shingle-sets.js';
import { learnWeights, lendWeights } from '../bindings/word-weights.js';
import { partsOfItems } from '../dedup/look-alikes.js';
import { differingParts, hasNumbers } from '../core/look-alikes.js';
import { collapseTexts } from '../dedup/dedup.js';
import { contains, wordsOf } from '../dedup/contained.js';
import { KEYED } from './candidates.js';
import { LEVELS, MISSING, keyLevel, keySignature, signaturesApart, similarityLevel } from './levels.js';

const SIMILAR = LEVELS.name.indexOf('similar');
const DIFFERENT = LEVELS.name.indexOf('different');

/**
 * use(comparer), a comparison of pairs of distinct rows field by field, whose
 * `levels(pairs, on, out, at)` writes the levels of the pairs { a, b } at the indices `at`
 * (all when not given) in the fields `on` (indices) into `out` ({ levels (pairs × fields,
 * row-major; MISSING where not compared), apart }; new when not given), and returns it. A
 * name or text field's distinct values are shingled when the field is first compared, and
 * held until `use` settles, so that pairs compared later (matchRecords' KEYS_APART) cost no
 * second building. Two values of a name field beside the identity (an address, a branch)
 * whose words are alike and whose numbers differ (`3555` / `3570 Las Vegas Blvd.`:
 * core/look-alikes.js) are 'different': two houses of one street, two flats of one building
 * are two places; `apart` maps each such pair to the first such field.
 */
export async function withComparer(core, fields, rows, pacer, use) {
  const shingled = new Map(); // field index -> its values' sets and what its levels ask of them
  const rowKeys = []; // field index -> its keys of the rows
  const rowSignatures = []; // field index -> keySignature's of its rows' keys
  /** Field j's distinct values (of its rows' `keys`) in one set each, by its measure. */
  async function shingle(j, keys) {
    const field = fields[j];
    const { distinct: values, of: slot } = await collapseTexts(keys, pacer);
    const measure = field.kind === 'name' ? 'short' : 'text';
    const wordSets = new Array(values.length);
    const partsOf = partsOfItems((v) => values[v]);
    const compared = {
      sets: createShingleSets(core),
      slot,
      wordsAt: (v) => (wordSets[v] ??= wordsOf(values[v])),
      numbersDiffer: (x, y) => !field.identity && measure === 'short' && hasNumbers(partsOf(x)) && hasNumbers(partsOf(y))
        && differingParts(partsOf(x), partsOf(y))?.numbers !== undefined,
    };
    shingled.set(j, compared);
    const build = (weights) => buildShingleSets(core, compared.sets, values, () => pacer.pause(), 0, measure, weights);
    if (measure === 'short') await lendWeights(core, await learnWeights(core, values, () => pacer.pause()), build);
    else await build(0);
    return compared;
  }
  const comparer = {
    async levels({ a, b }, on, out = { levels: new Uint8Array(a.length * fields.length).fill(MISSING), apart: new Map() }, at = null) {
      const f = fields.length;
      const count = at ? at.length : a.length;
      const { levels, apart } = out;
      for (const j of on) {
        const field = fields[j];
        const keys = (rowKeys[j] ??= mapArray(rows, (r) => field.keys[r]));
        if (KEYED.has(field.kind)) {
          const last = LEVELS[field.kind].length - 1;
          let signatures = rowSignatures[j];
          if (!signatures && field.kind !== 'code') {
            signatures = rowSignatures[j] = new Uint32Array(keys.length);
            for (let r = 0; r < keys.length; r++) signatures[r] = keySignature(field.kind, keys[r]);
          }
          for (let q = 0; q < count; q++) {
            const p = at ? at[q] : q;
            const x = keys[a[p]];
            const y = keys[b[p]];
            if (x !== '' && y !== '') levels[p * f + j] = signatures && signaturesApart(signatures[a[p]], signatures[b[p]]) ? last : keyLevel(field.kind, x, y);
          }
          continue;
        }
        const { sets, slot, wordsAt, numbersDiffer } = shingled.get(j) ?? await shingle(j, keys);
        const [slotsA, slotsB] = [new Uint32Array(count), new Uint32Array(count)];
        for (let q = 0; q < count; q++) {
          const p = at ? at[q] : q;
          [slotsA[q], slotsB[q]] = [slot[a[p]], slot[b[p]]];
        }
        const similarity = setSimilarities(core, sets, slotsA, slotsB);
        for (let q = 0; q < count; q++) {
          const p = at ? at[q] : q;
          if (keys[a[p]] === '' || keys[b[p]] === '') continue;
          const [x, y] = [slotsA[q], slotsB[q]];
          const level = similarityLevel(similarity[q], x === y);
          if (level === DIFFERENT) levels[p * f + j] = contains(wordsAt(x), wordsAt(y)) ? SIMILAR : level;
          else if (level > 0 && numbersDiffer(x, y)) {
            levels[p * f + j] = DIFFERENT;
            if (!apart.has(p)) apart.set(p, j);
          } else levels[p * f + j] = level;
        }
        await pacer.pause();
      }
      return out;
    },
  };
  try {
    return await use(comparer);
  } finally {
    for (const { sets } of shingled.values()) deleteShingleSets(core, sets);
  }
}
