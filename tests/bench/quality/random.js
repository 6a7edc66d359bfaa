// Seeded randomness for the quality benchmark. Every random choice comes from a stream
// named after its purpose (e.g. "english/bases"), so adding an edit type or a corpus does
// not reshuffle the choices of the others, and a run is reproducible from SEED alone.

/** The benchmark's seed (4, the issue number). Changing it draws a different sample. */
export const SEED = 4;

/** 32-bit FNV-1a of a string, to turn a stream name into a seed. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: small, fast, good enough for sampling (not for cryptography); numbers in [0, 1). */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Random {
  constructor(name, seed = SEED) {
    this.next = mulberry32(fnv1a(name) ^ seed);
  }

  /** Integer in [0, n). */
  int(n) {
    return Math.floor(this.next() * n);
  }

  /** Integer in [min, max]. */
  between(min, max) {
    return min + this.int(max - min + 1);
  }

  pick(list) {
    return list[this.int(list.length)];
  }

  chance(p) {
    return this.next() < p;
  }

  /** count distinct indices of [0, n), in random order (partial Fisher-Yates). */
  sampleIndices(n, count) {
    const indices = Array.from({ length: n }, (_, i) => i);
    const take = Math.min(count, n);
    for (let i = 0; i < take; i++) {
      const j = i + this.int(n - i);
      [indices[i], indices[j]] = [indices[j], indices[i]];
    }
    return indices.slice(0, take);
  }

  shuffled(list) {
    return this.sampleIndices(list.length, list.length).map((i) => list[i]);
  }
}
