// Opening the text index shared through Redis (docs/redis.md): createSharedTextIndex checks
// its parameters, loads the module that computes what a TextIndex of them stores, and opens
// (or creates) the index's meta hash, refusing one made with other parameters or weights.
import createSharedCore from '../wasm/shared/simhash_core.mjs';
import { nodeLoader } from '../node-loader.js';
import { checkKnownKeys, checkObject, typeName } from '../core/checks.js';
import { DEFAULT_SIMILARITY_OF, checkMeasure, checkReview, checkSimilarity } from '../core/thresholds.js';
import { keysOf } from '../bindings/text-index-keys.js';
import { checkWeights } from '../bindings/word-weights.js';
import { DEFINITIONS, LAYOUT, MAGIC, REVIEW_LAYOUT, commandsOf, keyNames, runScript } from './scripts.js';
import { describeWeights, readWeights, weightsBytes, weightsField } from './weights.js';
import { SharedTextIndex, textIndexInit } from './shared-index.js';

/** init() of the module with the calls of text-index-keys.js too (CMakeLists.txt), which the browser's leaves out. */
export const loadSharedModule = nodeLoader(createSharedCore, new URL('../wasm/shared/simhash_core.wasm', import.meta.url));

/** The band counts of these parameters: { bands, reviewBands } (0 without review), from a TextIndex of them. */
function bandsOf(sh, parameters) {
  const probe = sh.createTextIndex(textIndexInit({ ...parameters, weights: null }));
  try {
    const { keys, reviewKeys } = keysOf(probe, '');
    return { bands: keys.length, reviewBands: reviewKeys.length };
  } finally {
    probe.dispose();
  }
}

/**
 * Opens (creating when the key is free) the shared text index `name` on a connected client.
 * An index whose stored parameters differ from these, or a key that is not this library's
 * index, is refused with an Error naming what differs. By the short measure the index's
 * word weights are stored beside it when it is created (init.weights, or none) and read
 * back by every open: given weights must be the stored ones; missing or damaged ones refuse.
 */
export async function createSharedTextIndex(client, init) {
  const send = commandsOf(client);
  const o = checkObject(init, 'init');
  checkKnownKeys(o, 'init', ['name', 'similarity', 'measure', 'weights', 'review', 'options']);
  const measure = checkMeasure(o.measure ?? 'text', 'init.measure');
  // undefined: the stored weights, whatever they are (none for a new index).
  const given = o.weights === undefined ? undefined : checkWeights(o.weights, 'init.weights', measure);
  if (typeof o.name !== 'string' || o.name === '' || /[{}]/.test(o.name)) {
    throw new TypeError(`init.name must be a non-empty string without braces, got ${typeName(o.name)}`);
  }
  const similarity = checkSimilarity(o.similarity ?? DEFAULT_SIMILARITY_OF[measure], 'init.similarity');
  const review = o.review === undefined ? undefined : checkReview(o.review, similarity, 'init.review', measure);
  const sh = await loadSharedModule();
  const keys = keyNames(o.name);
  const parameters = { similarity, measure, review, options: o.options };
  const { bands, reviewBands } = bandsOf(sh, parameters); // checks the options too
  const givenBytes = given === undefined ? null : weightsBytes(given);
  // An index without review keeps layout 2, which readers of layout 2 open. By the text
  // measure the meta hash is as before the short measure: no measure or weights fields.
  const short = measure === 'short';
  const expected = [MAGIC, review === undefined ? LAYOUT : REVIEW_LAYOUT, DEFINITIONS[measure], String(similarity), String(bands),
    review === undefined ? '' : String(review), review === undefined ? '' : String(reviewBands)];
  const created = short ? [measure, weightsField(givenBytes), givenBytes === null ? '' : Buffer.from(givenBytes).toString('base64')] : ['', '', ''];
  const stored = await runScript(send, 'open', [keys.meta], [...expected, ...created]);
  if (stored[0] === 'not-hash') throw new Error(`${keys.meta} is not a simhash-wasm text index: it holds a ${stored[1]}`);
  if (stored[0] !== MAGIC) throw new Error(`${keys.meta} is not a simhash-wasm text index: its magic field is ${JSON.stringify(stored[0])}`);
  const shown = (value) => (value === null || value === undefined || value === '' ? 'none' : value);
  const differ = [['measure', stored[7] ?? 'text', measure]];
  const names = ['magic', 'layout', 'definition', 'threshold', 'bands', 'review', 'review bands'];
  names.forEach((field, i) => differ.push([field, shown(stored[i]), shown(expected[i])]));
  const different = differ.filter(([, was, want]) => was !== want);
  if (different.length > 0) {
    throw new Error(`the index ${o.name} was made with other parameters: ${different.map(([field, was, want]) => `${field} ${was} (this call: ${want})`).join(', ')}`);
  }
  let weights = null;
  let bytes = null;
  if (short) {
    ({ weights, bytes } = readWeights(sh, o.name, keys.weights, stored[8], stored[9], stored[10]));
    if (given !== undefined && weightsField(givenBytes) !== stored[8]) {
      throw new Error(`the index ${o.name} was made with other word weights: ${describeWeights(bytes)} (this call: ${describeWeights(givenBytes)})`);
    }
  }
  return new SharedTextIndex(sh, send, keys, { ...parameters, weights, weightsBytes: bytes });
}
