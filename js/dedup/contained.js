// Review entries for texts one of which holds the other's words (README "Review"): `Spago` /
// `Spago (Los Angeles)`, `Bones` / `Bones Restaurant`, a nickname's `Bob Smith` / `Robert
// Smith` (nicknames.js: records compare names so). A short name and its longer form share
// few bigrams among all the longer one's (similarity 0.2-0.4), so no threshold lists them
// without listing chance pairs by the thousand; a person recognizes them at a glance.
import { tokensOf } from '../core/tokens.js';
import { fullNames } from '../core/nicknames.js';

/**
 * Groups that may hold a word for it to be the contained text's rarest: a rarer word names
 * something; a common one (`Restaurant`, `Smith`) alone would pair a text with every group
 * that holds it. Counted in groups, not texts: a word all rows of one entity hold (a patent
 * applicant's name in its many forms) still names it.
 */
const MAX_HOLDERS = 50;
/**
 * The groups that may hold the word of a one-word text: its own and the other's alone. One
 * word names something when no third group holds it (`Spago`, `Bones`); a surname or a given
 * name alone (`Morrison`) is held by many names, of which it is rarely one (febrl-names: 61%
 * of such pairs one entity at 2 groups, 3% at 11-50).
 */
const MAX_ONE_WORD_HOLDERS = 2;

/**
 * The pairs { a, b } (a < b) of the `count` texts (`textOf(i)`) of different groups (`labels`)
 * where every distinct word of one (folded as look-alikes fold them, nicknames in full) is among the other's
 * and the rarest of them (held by the fewest groups) is held by at most MAX_HOLDERS
 * groups (MAX_ONE_WORD_HOLDERS for a text of one word): one pair per two groups (the first
 * found, taking the contained texts in order).
 * Cost: the texts' tokens, and per text a pass over the texts that hold its rarest word,
 * comparing the word lists of those in other groups.
 */
export function containedPairs(count, textOf, labels) {
  const words = Array.from({ length: count }, (_, i) => wordsOf(fullNames(textOf(i).toLowerCase())));
  // Each text's words and the acronyms it spells out, which hold a text's that writes them, never
  // its own rarest (`CWI` / `Centrum voor Wiskunde en Informatica`).
  const spelled = new Set();
  const held = spellingOut(words, textOf, spelled);
  // Texts per word, then groups per word for the words over MAX_HOLDERS texts hold (a word
  // fewer texts hold, fewer groups do): a set per word of every text costs more than the rest.
  // The rarest word is then taken by these counts; which word it is changes only the work,
  // as every text that holds all of a text's words is in each word's list.
  const holders = new Map();
  held.forEach((own) => { for (const word of own) holders.set(word, (holders.get(word) ?? 0) + 1); });
  const groupsOf = new Map();
  held.forEach((own, i) => { for (const word of own) if (holders.get(word) > MAX_HOLDERS) (groupsOf.get(word) ?? groupsOf.set(word, new Set()).get(word)).add(labels[i]); });
  groupsOf.forEach((groups, word) => holders.set(word, groups.size));
  const holding = new Map(); // word -> the texts that hold it, for words MAX_HOLDERS groups hold at most
  held.forEach((own, i) => {
    for (const word of own) if (holders.get(word) <= MAX_HOLDERS) (holding.get(word) ?? holding.set(word, []).get(word)).push(i);
  });
  const a = [];
  const b = [];
  const joined = new Set();
  words.forEach((own, i) => {
    let rarest;
    for (const word of own) if (rarest === undefined || holders.get(word) < holders.get(rarest)) rarest = word;
    const others = holding.get(rarest) ?? [];
    if (own.size === 1 && new Set(others.map((j) => labels[j])).size > MAX_ONE_WORD_HOLDERS && !spelled.has(rarest)) return;
    for (const j of others) {
      const other = held[j];
      // Equal word sets are counted once, from the first of the two.
      if (labels[i] === labels[j] || other.size < own.size || (other.size === own.size && j < i) || !contains(own, other)) continue;
      const groups = Math.min(labels[i], labels[j]) * count + Math.max(labels[i], labels[j]);
      if (joined.has(groups)) continue;
      joined.add(groups);
      a.push(Math.min(i, j));
      b.push(Math.max(i, j));
    }
  });
  return { a: Uint32Array.from(a), b: Uint32Array.from(b) };
}

/** A word written in 3 to 6 capitals, which may be an acronym (in ASCII: a Unicode class makes the search 5x slower). */
const ACRONYM = /\b[A-Z]{3,6}\b/g;
/** A capitalized word's first two letters, or a mark that ends a part of a text (its initials' runs). */
const INITIAL = /(?<![\w'’.])\p{Lu}\p{Ll}|[,;:()/]/gu;

/**
 * `words` with the acronyms each text spells out that some text writes (ACRONYM), folded,
 * added to `spelled`: the initials of runs of its capitalized words within one part between
 * commas, lowercase words between them skipped (`Centrum voor Wiskunde en Informatica`
 * spells `CWI`, `The Pennsylvania State University` `PSU`). A text that spells an acronym
 * out was one entity with one that writes it in 453 of the 477 pairs this adds on the affiliations.
 */
function spellingOut(words, textOf, spelled) {
  const written = new Set(words.flatMap((_, i) => textOf(i).match(ACRONYM) ?? []));
  return written.size ? words.map((own, i) => {
    const initials = (textOf(i).match(INITIAL) ?? []).map((c) => (c[1] ? c[0] : ' ')).join('');
    for (let at = 0; at < initials.length; at++) {
      for (let end = at + 3; end <= at + 6; end++) {
        const acronym = initials.slice(at, end);
        if (!written.has(acronym)) continue;
        spelled.add(acronym.toLowerCase());
        own = new Set(own).add(acronym.toLowerCase());
      }
    }
    return own;
  }) : words;
}

/** The distinct words of a text, folded as look-alikes fold them. */
export const wordsOf = (text) => new Set(tokensOf(text).map((token) => token.key));

/** Whether the words of one text are all among the other's (`Bones` / `Bones Restaurant`, `The Palm` / `Palm, The (Los Angeles)`). */
export function contains(x, y) {
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  if (!small.size) return false;
  for (const word of small) if (!large.has(word)) return false;
  return true;
}
