// The labelled lists of tests/data/lists/ (made by lists-make.js, described in its SOURCE.md):
// short strings people keep (names, companies, addresses, restaurants, product titles, person
// records), each with the id of the entity it names. Two items are a true pair when their
// entity ids are equal.
//
// Files: lists.json, an array of { name, kind, file }, and for each list a UTF-8 TSV whose first
// line is the header `entity<TAB>text` and each further line one item (no tab or newline in
// either field).
import { readFileSync } from 'node:fs';
import { mulberry32 } from './quality/random.js';

export const LISTS_DIR = new URL('../data/lists/', import.meta.url);

/**
 * Every list, or those named, in lists.json's order.
 * @param {{ names?: string[], maxItems?: number, seed?: number }} [options]
 *   names: only these lists (an unknown name throws); maxItems: cap each list with
 *   sampleEntities (whole entities, deterministic for a seed).
 * @returns {{ name: string, kind: string, texts: string[], entities: string[] }[]}
 */
export function loadLists({ names, maxItems, seed = 1 } = {}) {
  const index = JSON.parse(readFileSync(new URL('lists.json', LISTS_DIR), 'utf8'));
  if (names) {
    const known = new Set(index.map((entry) => entry.name));
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`unknown list(s): ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  const lists = [];
  for (const { name, kind, file } of index) {
    if (names && !names.includes(name)) continue;
    const list = { name, kind, ...readListTsv(new URL(file, LISTS_DIR)) };
    lists.push(maxItems && list.texts.length > maxItems ? { ...list, ...sampleEntities(list, maxItems, seed) } : list);
  }
  return lists;
}

/** { texts, entities } of a TSV with the header `entity<TAB>text`. */
export function readListTsv(url) {
  const lines = readFileSync(url, 'utf8').split('\n');
  if (lines[0] !== 'entity\ttext') throw new Error(`${url}: the first line must be 'entity<TAB>text'`);
  const texts = [];
  const entities = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const fields = lines[i].split('\t');
    if (fields.length !== 2) throw new Error(`${url}:${i + 1}: expected 2 fields, found ${fields.length}`);
    entities.push(fields[0]);
    texts.push(fields[1]);
  }
  return { texts, entities };
}

/** A deterministic generator of floats in [0, 1): the quality benchmark's mulberry32. */
export const seededRandom = mulberry32;

/** The array shuffled by Fisher-Yates with the generator (a copy; the input is left alone). */
export function shuffled(array, random) {
  const out = array.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * At most maxItems items of the list, drawn as whole entities (every item of an entity or
 * none, so the true pairs inside the sample are all the true pairs of its entities), in a
 * seeded random order of entities; entities that would overflow are skipped, smaller ones may
 * still fit. Items keep their original relative order.
 * @returns {{ texts: string[], entities: string[], indices: number[] }} indices: into the input
 */
export function sampleEntities({ texts, entities }, maxItems, seed = 1) {
  const members = new Map();
  entities.forEach((entity, i) => {
    if (!members.has(entity)) members.set(entity, []);
    members.get(entity).push(i);
  });
  const order = shuffled([...members.keys()].sort(), seededRandom(seed));
  const chosen = [];
  for (const entity of order) {
    const items = members.get(entity);
    if (chosen.length + items.length > maxItems) continue;
    chosen.push(...items);
    if (chosen.length === maxItems) break;
  }
  chosen.sort((a, b) => a - b);
  return { texts: chosen.map((i) => texts[i]), entities: chosen.map((i) => entities[i]), indices: chosen };
}
