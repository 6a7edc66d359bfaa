// Legal forms and conjunctions as the short measure knows them (README "Similarity of short
// strings"): the look-alike rule (look-alikes.js) sets them aside, so that `Siemens AG` /
// `Siemens Aktiengesellschaft`, `Müller GmbH` / `Müller Gesellschaft mit beschränkter
// Haftung` and `Johnson & Johnson` / `Johnson and Johnson` do not differ. The measure's own
// table (cpp/src/similarity/similarity.cpp kListForms, kCjkLegalForms) is read from the
// module once (useListForms), so that both know one.

/**
 * Legal forms, folded: no distinguishing word (`Akzo Nobel N.V.` / `Akzo Nobel B.V.` / `Akzo
 * Nobel Inc.`: one organisation's entries in several countries, as the patent applicants'
 * list names one entity). These, and the forms the short measure writes short and their
 * abbreviations (useListForms).
 */
const LEGAL_FORMS = new Set(['oy', 'as', 'aps']);
/** Legal forms of several words, as the short measure writes them (useListForms), by their abbreviations. */
export const LEGAL_PHRASES = new Map();
/** Legal forms of one word written out, by their abbreviations; conjunctions; LEGAL_PHRASES' words by their first. */
const WRITTEN_SHORT = new Map();
const CONJUNCTIONS = new Set();
const PHRASES_BY_FIRST_WORD = new Map();
/** CJK legal forms at either end of a run (`株式会社ソニー`), longest first (useListForms); none until then. */
let cjkLegalForms = /$^/;

/**
 * Takes the short measure's table of words it writes short and CJK legal forms it drops
 * (bindings/memory.js listForms), so that this rule reads as that measure does: a legal form
 * of several words is one (`Müller GmbH` / `Müller Gesellschaft mit beschränkter Haftung`),
 * and a conjunction says `&` (`GmbH & Co. KG` / `GmbH und Co. KG`). Every module's table is
 * the same: the first one taken stays.
 */
export function useListForms(table) {
  if (CONJUNCTIONS.size > 0) return;
  const [forms, cjkForms = '|'] = table.split('#');
  const either = `(?:${cjkForms.slice(0, -1)})+`;
  cjkLegalForms = new RegExp(`^${either}|${either}$`, 'g');
  for (const [written, short] of forms.split('|').filter(Boolean).map((entry) => entry.split('='))) {
    const words = written.split(' ');
    if (words.length > 1) {
      LEGAL_PHRASES.set(written, short);
      PHRASES_BY_FIRST_WORD.set(words[0], [...PHRASES_BY_FIRST_WORD.get(words[0]) ?? [], words]);
      for (const form of short.split(' ')) LEGAL_FORMS.add(form);
    } else if (short) {
      WRITTEN_SHORT.set(written, short);
      LEGAL_FORMS.add(written).add(short);
    } else CONJUNCTIONS.add(written);
  }
  // A phrase's first word written out too (`limited` for `ltd`), so that a token needs one look-up.
  for (const [written, short] of WRITTEN_SHORT) if (PHRASES_BY_FIRST_WORD.has(short)) PHRASES_BY_FIRST_WORD.set(written, PHRASES_BY_FIRST_WORD.get(short));
}

/** A token's key as the short measure writes it (WRITTEN_SHORT), or undefined past the last token. */
const writtenShort = (token) => WRITTEN_SHORT.get(token?.key) ?? token?.key;

/** Marks `legal` the tokens (tokens.js tokensOf's) of each of LEGAL_PHRASES they spell, their legal forms written short. */
export function markLegalPhrases(tokens) {
  for (let i = 0; i < tokens.length; ++i) {
    const phrase = PHRASES_BY_FIRST_WORD.get(tokens[i].key)?.find((words) => words.every((word, k) => writtenShort(tokens[i + k]) === word));
    if (phrase === undefined) continue;
    for (let k = 0; k < phrase.length; ++k) tokens[i + k].legal = true;
    i += phrase.length - 1;
  }
}

/** Whether a token's key is a legal form (LEGAL_FORMS) or a conjunction. */
export const isLegalFormOrConjunction = (key) => LEGAL_FORMS.has(key) || CONJUNCTIONS.has(key);

/** A CJK run without the legal forms at either end, as the short measure drops them; a run that is one stays. */
export const withoutCjkLegalForms = (run) => run.replace(cjkLegalForms, '') || run;
