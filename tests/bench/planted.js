// The benchmarks' uniform fingerprint sets with planted neighbours, generated identically
// here and in planted.h (plantedFingerprints): n fingerprints from splitmix64(seed); every
// 10th is a copy of the one before it with (i / 10) % (k + 1) bits flipped (bit positions
// from the same generator), so about 10% of the items have a planted neighbour within k.
import { random64 as splitmix64 } from '../js/helpers.js';

export function plantedFingerprints(n, k, seed) {
  const next = splitmix64(seed);
  const fps = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    if (i % 10 === 9) {
      const flips = Math.floor(i / 10) % (k + 1);
      let mask = 0n;
      let bits = 0;
      while (bits < flips) {
        const bit = 1n << (next() % 64n);
        if (!(mask & bit)) bits++;
        mask |= bit;
      }
      fps[i] = fps[i - 1] ^ mask;
    } else {
      fps[i] = next();
    }
  }
  return fps;
}
