// Records at scale: `sh.dedup(rows)` of N synthetic contacts of 6 fields (name, e-mail, phone,
// city, company, birthday), a tenth of them copies of another row with a typo, a changed
// format or a missing field; prints the time, the WASM memory and the pair precision and
// recall against the planted copies.
//   node tests/bench/records-scale.js [N=100000] [--runs=1] [--names=febrl|syllables|common] [--pool=SIZE]
// Names: `febrl` (the default) pairs FEBRL's given names and surnames (tests/data/lists/
// febrl-names.tsv, as names.js does, drawn as often as the list holds them), takes a
// company's name from its surnames and numbers a mailbox up to 9,999 (two people share a
// common name, not their e-mail); `syllables` draws 30 given names and surnames of 2-3 of
// 20 syllables (8,400 of them, close to one another) and numbers up to 99: a stress test,
// whose names are similar to those of about 33 other rows each where real lists' are not;
// `common` pairs the 30 given names with 30 common surnames (900 names, each held by about
// 100 people of 100,000) and numbers up to 9,999, each mailbox one person's: people of one
// name, some of their mailboxes a digit apart.
import { init } from '../../js/node.js';
import { createPool } from '../../js/worker.js';
import { loadLists } from './lists-data.js';
import { mulberry32 } from './quality/random.js';

const GIVEN = ['James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David', 'Barbara', 'Richard',
  'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Wei', 'Fang', 'Hiroshi', 'Yuki', 'Ahmed', 'Fatima', 'Carlos', 'Sofia', 'Ivan', 'Olga'];
const CITIES = ['Springfield', 'Portland', 'Austin', 'Denver', 'Boston', 'Seattle', 'Chicago', 'Phoenix', 'Atlanta', 'Dayton', 'Madison', 'Salem'];
const COMMON_SURNAMES = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris',
  'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson'];
const SYLLABLES = ['an', 'der', 'son', 'mil', 'ler', 'ro', 'dri', 'guez', 'ka', 'to', 'ber', 'g', 'ham', 'wic', 'ko', 'va', 'lin', 'ston', 'chen', 'ma'];

/** FEBRL's given names and surnames, capitalized, each as often as the list holds it. */
function febrlNames() {
  const [febrl] = loadLists({ names: ['febrl-names'] });
  const capitalized = (name) => name.replace(/(^|[ '-])(\p{L})/gu, (_, before, letter) => before + letter.toUpperCase());
  const parts = febrl.texts.map((text) => text.split(' '));
  return {
    given: parts.filter((p) => p.length > 1).map((p) => capitalized(p[0])),
    surnames: parts.filter((p) => p.length > 1).map((p) => capitalized(p.slice(1).join(' '))),
  };
}

/** N rows and the entity of each: distinct people, then copies with one change each. */
function contacts(n, names, seed = 1) {
  const random = mulberry32(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const digits = (k) => Array.from({ length: k }, () => Math.floor(random() * 10)).join('');
  const febrl = names === 'febrl' ? febrlNames() : null;
  const surname = () => {
    if (febrl) return pick(febrl.surnames);
    if (names === 'common') return pick(COMMON_SURNAMES);
    const s = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join('');
    return s[0].toUpperCase() + s.slice(1);
  };
  const people = Math.round(n / 1.1);
  const mailboxes = new Set();
  const rows = [];
  const entities = [];
  for (let i = 0; i < people; i++) {
    const [given, family] = [pick(febrl ? febrl.given : GIVEN), surname()];
    const mailbox = (name) => name.toLowerCase().replace(/[^a-z]/g, '');
    let email = `${mailbox(given)}.${mailbox(family)}${Math.floor(random() * (names === 'syllables' ? 100 : 10000))}@example.com`;
    while (names === 'common' && mailboxes.has(email)) email = email.replace(/\d*@/, `${Math.floor(random() * 10000)}@`);
    mailboxes.add(email);
    rows.push({
      name: `${given} ${family}`,
      email,
      phone: `(${digits(3)}) ${digits(3)}-${digits(4)}`,
      city: pick(CITIES),
      company: `${surname()} ${pick(['Inc.', 'LLC', 'Ltd', 'Group', 'Partners'])}`,
      birthday: `${1940 + Math.floor(random() * 60)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
    });
    entities.push(i);
  }
  while (rows.length < n) {
    const e = Math.floor(random() * people);
    const copy = { ...rows[e] };
    const change = Math.floor(random() * 4);
    if (change === 0) copy.name = copy.name.split(' ').reverse().join(', ');
    else if (change === 1) copy.phone = copy.phone.replace(/\D/g, '').replace(/(\d{3})(\d{3})(\d{4})/, '$1.$2.$3');
    else if (change === 2) copy.email = '';
    else copy.name = copy.name.replace(/([a-z])([a-z])/, '$2$1');
    rows.push(copy);
    entities.push(e);
  }
  return { rows, entities };
}

const args = process.argv.slice(2);
const n = Number(args.find((a) => !a.startsWith('--')) ?? 100000);
const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice(7) ?? 1);
const names = args.find((a) => a.startsWith('--names='))?.slice(8) ?? 'febrl';
if (!['febrl', 'syllables', 'common'].includes(names)) throw new Error(`--names must be febrl, syllables or common, got ${names}`);
const { rows, entities } = contacts(n, names);
const poolSize = args.find((a) => a.startsWith('--pool='))?.slice(7);
const sh = await init();
// With --pool, pool.dedup in that many workers.
const pool = poolSize && await createPool({ size: Number(poolSize) });
const times = [];
let result;
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  result = await (pool ?? sh).dedup(rows);
  times.push((performance.now() - started) / 1000);
}
let found = 0;
let right = 0;
for (const g of result.groups) {
  for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) found++, right += entities[g[x]] === entities[g[y]] ? 1 : 0;
}
const counts = new Map();
for (const e of entities) counts.set(e, (counts.get(e) ?? 0) + 1);
let truePairs = 0;
for (const c of counts.values()) truePairs += (c * (c - 1)) / 2;
const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
const utf8 = rows.reduce((sum, r) => sum + Object.values(r).reduce((s, v) => s + Buffer.byteLength(v), 0), 0);
console.log(`${n.toLocaleString('en')} contacts of 6 fields, ${names} names (${(utf8 / 2 ** 20).toFixed(1)} MiB of UTF-8): ${median.toFixed(2)} s (median of ${runs}), `
  + `${pool ? `in a pool of ${poolSize}, peak resident ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (this process and its workers)` : `WASM memory ${(sh.memoryBytes / 2 ** 20).toFixed(0)} MiB`}; ${result.compared.toLocaleString('en')} pairs compared; `
  + `pair P ${(right / found).toFixed(3)} R ${(right / truePairs).toFixed(3)}; fields ${result.fields.map((f) => `${f.name}:${f.kind}`).join(' ')}`);
await pool?.terminate();
