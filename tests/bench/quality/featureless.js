// Texts without features (issue 4, item 5): empty, punctuation-only, emoji-only. Format 1
// gives every one of them fingerprint 0, so all of them are "identical" to each other, and 0
// sits within k of any real text whose fingerprint has at most k one-bits. Format 2 gives
// them the character n-grams of their text, and format 4 gives blank texts the one feature
// "". The report shows what the built library does, next to an alternative fallback and
// the npm packages.
import simhashJsPackage from 'simhash-js';
import simhashPackage from 'simhash';
import { autoFeatures } from './fingerprinters.js';

export const FEATURELESS = ['', ' ', '。', '！？', '...', '—', '#', '😀', '😀😀😀', '🎉👍', '♥♥', '(ﾉ◕ヮ◕)ﾉ'];

/**
 * An alternative fallback, emulated with fingerprintTokens: when a text has
 * no features, its features are its non-space code points after NFKC (so "。" and "！？"
 * differ and "😀" ≈ "😀😀😀"), and a text with none of those (empty or blank) is the single
 * feature "" (as in the library since format 4).
 */
export function fallbackFeatures(text) {
  const chars = Array.from(text.normalize('NFKC').replace(/\s+/gu, ''));
  return chars.length ? chars : [''];
}

const popcount64 = (fp) => {
  let n = 0;
  for (let x = fp; x; x &= x - 1n) n++;
  return n;
};

/**
 * { rows: per text [text, library now, with fallback, simhash-js, simhash], zeros, pairs, todayWithin and
 *   fallbackWithin (pairs within k), nearZero / nearBlankFallback: real texts within k of 0 / of
 *   the fallback's blank fingerprint }
 */
export function featurelessReport(sh, realFingerprints, k) {
  const today = sh.fingerprintAll(FEATURELESS);
  const fallback = FEATURELESS.map((t) => sh.fingerprintTokens(fallbackFeatures(t)));
  const simhashJs = new simhashJsPackage.SimHash();
  const simhash = simhashPackage();
  const rows = FEATURELESS.map((t, i) => [
    JSON.stringify(t), sh.toHex(today[i]), sh.toHex(fallback[i]),
    (simhashJs.hash(t) >>> 0).toString(16).padStart(8, '0'),
    parseInt(simhash(autoFeatures(t)).reverse().join(''), 2).toString(16).padStart(8, '0'),
  ]);
  const pairsWithin = (fps, limit) => {
    const pairs = [];
    for (let i = 0; i < fps.length; i++) {
      for (let j = i + 1; j < fps.length; j++) {
        if (sh.distance(fps[i], fps[j]) <= limit) pairs.push(`${JSON.stringify(FEATURELESS[i])}~${JSON.stringify(FEATURELESS[j])}`);
      }
    }
    return pairs;
  };
  // Real fingerprints lean towards 0 (a tie on a bit gives 0, and short texts tie often), so
  // 0 is a worse home for blank texts than any fixed fingerprint such as the fallback's.
  const blank = fallback[0];
  let nearZero = 0;
  let nearBlankFallback = 0;
  for (const fp of realFingerprints) {
    if (popcount64(fp) <= k) nearZero++;
    if (popcount64(fp ^ blank) <= k) nearBlankFallback++;
  }
  return {
    rows,
    pairs: (FEATURELESS.length * (FEATURELESS.length - 1)) / 2,
    zeros: today.filter((fp) => fp === 0n).length,
    todayWithin: pairsWithin(today, k),
    fallbackWithin: pairsWithin(fallback, k),
    nearZero,
    nearBlankFallback,
    realCount: realFingerprints.length,
  };
}
