// The short texts of the scale benchmarks: every record of Debian's `fortunes` (all plain
// files of /usr/share/games/fortunes, ANSI colours removed), in a seeded order, then copies
// of random records with 1-3 word edits up to the number asked for; and the synthetic lines
// the text index benchmarks store.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { random64 } from '../js/helpers.js';

const FORTUNES = '/usr/share/games/fortunes';

function fortunes() {
  const records = new Set();
  for (const name of readdirSync(FORTUNES).sort()) {
    const path = join(FORTUNES, name);
    if (name.endsWith('.dat') || !lstatSync(path).isFile()) continue;
    for (const record of readFileSync(path, 'utf8').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split(/^%$/m)) {
      if (record.trim()) records.add(record.trim());
    }
  }
  return [...records];
}

/**
 * 1-3 word edits of `words`, in place: a word dropped, repeated, or replaced by `word()`;
 * `pick(n)` draws from [0, n).
 */
export function editWords(words, pick, word) {
  for (let edits = 1 + pick(3); edits > 0; edits--) {
    const at = pick(words.length);
    const kind = pick(3);
    if (kind === 0 && words.length > 1) words.splice(at, 1);
    else if (kind === 1) words.splice(at, 0, words[at]);
    else words[at] = word();
  }
  return words;
}

/** The distinct records in a seeded order, then copies of random records with 1-3 word edits. */
export function makeTexts(n) {
  const next = random64(2024);
  const pick = (count) => Number(next() % BigInt(count));
  const records = fortunes();
  for (let i = records.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [records[i], records[j]] = [records[j], records[i]];
  }
  const words = records.map((r) => r.split(' '));
  const texts = records.slice(0, n);
  while (texts.length < n) {
    texts.push(editWords(words[pick(words.length)].slice(), pick, () => words[pick(words.length)][0]).join(' '));
  }
  return { texts, records: records.length };
}

/**
 * The synthetic stored corpus of the text index benchmarks (text-index.js describes it):
 * `storedCount` lines, then `furtherCount` texts, half edited copies of stored lines and
 * half fresh lines, in a seeded order.
 * source[i] is the position in `stored` that further[i] copies, -1 for a fresh line.
 */
export function syntheticCorpus(records, storedCount, furtherCount) {
  const next = random64(28);
  const pick = (n) => Number(next() % BigInt(n));
  const words = records.flatMap((record) => record.split(/\s+/).filter((word) => word !== ''));
  const line = () => {
    const lineWords = new Array(6 + pick(25));
    for (let w = 0; w < lineWords.length; w++) lineWords[w] = words[pick(words.length)];
    return lineWords;
  };
  const stored = new Array(storedCount);
  for (let i = 0; i < storedCount; i++) stored[i] = line().join(' ');
  const further = [];
  const source = [];
  for (let i = 0; i < furtherCount; i++) {
    if (i < furtherCount / 2) {
      const from = pick(storedCount);
      further.push(editWords(stored[from].split(' '), pick, () => words[pick(words.length)]).join(' '));
      source.push(from);
    } else {
      further.push(line().join(' '));
      source.push(-1);
    }
  }
  for (let i = further.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [further[i], further[j]] = [further[j], further[i]];
    [source[i], source[j]] = [source[j], source[i]];
  }
  return { stored, further, source };
}
