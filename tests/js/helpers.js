// Shared by the node:test files: the package as Node users load it, and seeded data.
import { init } from '../../js/node.js';

export const sh = await init();

/** Deterministic 64-bit generator (splitmix64) so failures reproduce. */
export function random64(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

export function flipBits(fp, count, next) {
  let mask = 0n;
  let bits = 0;
  while (bits < count) {
    const bit = 1n << (next() % 64n);
    if (!(mask & bit)) {
      mask |= bit;
      bits++;
    }
  }
  return fp ^ mask;
}

/** bases random fingerprints, each with neighbours at every distance 0..maxPlanted. */
export function plantedSet(bases, maxPlanted, seed) {
  const next = random64(seed);
  const fps = [];
  for (let i = 0; i < bases; i++) {
    const base = next();
    fps.push(base);
    for (let d = 0; d <= maxPlanted; d++) fps.push(flipBits(base, d, next));
  }
  for (let i = fps.length - 1; i > 0; i--) {
    const j = Number(next() % BigInt(i + 1));
    [fps[i], fps[j]] = [fps[j], fps[i]];
  }
  return fps;
}

/** Disposes a WASM-backed object when test t ends (`using` needs Node 22+). */
export function disposing(t, object) {
  t.after(() => object.dispose());
  return object;
}
