// Synthetic lines for trying large inputs (the demo's "100,000 lines" button and the browser
// test): sentences of made-up words, one in ten a near-duplicate of an earlier line (a word
// replaced, inserted or dropped, or its case and punctuation changed) and one in fifty an
// exact copy. Deterministic for a seed.

function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'st', 'tr', 'pl', 'gr', 'sh'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ea'];

/**
 * A line maker for a seed: make(count) appends count more lines to make.lines, so a page can
 * generate a large input a chunk at a time.
 */
export function lineMaker(seed = 1) {
  const random = mulberry32(seed);
  const pick = (array) => array[Math.floor(random() * array.length)];
  const vocabulary = [];
  for (let i = 0; i < 4000; i++) {
    let word = '';
    const syllables = 1 + Math.floor(random() * 3);
    for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(VOWELS);
    vocabulary.push(random() < 0.3 ? word + pick(['n', 'r', 's', 't']) : word);
  }
  const lines = [];
  const make = (count) => {
    for (const stop = lines.length + count; lines.length < stop;) {
      const i = lines.length;
      const roll = random();
      if (i > 10 && roll < 0.02) {
        lines.push(lines[Math.floor(random() * i)]);
      } else if (i > 10 && roll < 0.12) {
        const words = lines[Math.floor(random() * i)].replace(/[.!?]$/, '').split(' ');
        const at = Math.floor(random() * words.length);
        const edit = random();
        if (edit < 0.35) words[at] = pick(vocabulary);
        else if (edit < 0.6) words.splice(at, 0, pick(vocabulary));
        else if (edit < 0.8 && words.length > 6) words.splice(at, 1);
        else words[0] = words[0].toUpperCase();
        lines.push(`${words.join(' ')}${pick(['.', '!', '?', ''])}`);
      } else {
        const length = 8 + Math.floor(random() * 12);
        const words = Array.from({ length }, () => pick(vocabulary));
        words[0] = words[0][0].toUpperCase() + words[0].slice(1);
        lines.push(`${words.join(' ')}.`);
      }
    }
    return lines;
  };
  make.lines = lines;
  return make;
}

export function generateLines(count, seed = 1) {
  return lineMaker(seed)(count);
}
