// The two corpora: text that nobody on this project wrote, from Debian packages.
//   English: the `fortunes` package, /usr/share/games/fortunes/<category>.
//   Chinese: the `chinese` file of `fortunes-zh` (same directory), with ANSI colour codes.
// Records are separated by lines holding only "%".
import { readFileSync, readdirSync, lstatSync } from 'node:fs';
import { join } from 'node:path';

export const FORTUNES_DIR = '/usr/share/games/fortunes';

// Plain category files only: `x.dat` is the strfile index and `x.u8` a symlink to `x`.
// Offensive fortunes live in the off/ subdirectory (package fortunes-off), which the
// plain-file filter skips as a directory. Also skipped, as not English prose:
const NOT_ENGLISH_PROSE = new Set([
  'chinese', 'song100', 'tang300', // fortunes-zh: Chinese quotes, Song and Tang poems
  'translate-me',                  // Latin phrases
  'ascii-art',                     // drawings
]);

/** Bases are drawn from records of this many code points, so every edit has words to work on
 *  and one 40 kB record does not dominate the run time. */
export const MIN_CHARS = 20;
export const MAX_CHARS = 2000;

function splitRecords(text) {
  return text
    .split(/^%[ \t]*$/m)
    .map((record) => record.replace(/^\s*\n/, '').trimEnd())
    .filter((record) => record.trim().length > 0);
}

const ANSI_ESCAPE = /\x1b\[[0-9;]*[A-Za-z]/g;

/** Distinct records within the length bounds, in file order. */
function usable(records) {
  const seen = new Set();
  return records.filter((record) => {
    const length = [...record].length;
    if (length < MIN_CHARS || length > MAX_CHARS || seen.has(record)) return false;
    seen.add(record);
    return true;
  });
}

export function englishFiles(dir = FORTUNES_DIR) {
  return readdirSync(dir)
    .filter((name) => !name.includes('.') && !NOT_ENGLISH_PROSE.has(name))
    .filter((name) => lstatSync(join(dir, name)).isFile())
    .sort();
}

export function loadEnglish(dir = FORTUNES_DIR) {
  const files = englishFiles(dir);
  const records = files.flatMap((name) => splitRecords(readFileSync(join(dir, name), 'utf8')));
  return { name: 'english', files, records: usable(records) };
}

export function loadChinese(dir = FORTUNES_DIR) {
  const text = readFileSync(join(dir, 'chinese'), 'utf8').replace(ANSI_ESCAPE, '');
  return { name: 'chinese', files: ['chinese'], records: usable(splitRecords(text)) };
}

// Long documents: the HTML manual of Debian's `postgresql-doc-15` (one page per file,
// navigation header and footer dropped, tags stripped, entities decoded). A page of
// 2-20 KB of UTF-8 text is one document; a longer page is cut at paragraph breaks into
// the fewest pieces of at most 20 KB, of near-equal size; shorter pieces and pages are
// dropped. Natural near-duplicates: pages written from one template (release notes of
// minor versions, catalog and SPI reference pages).
export const POSTGRES_DOC_DIR = '/usr/share/doc/postgresql-doc-15/html';
export const LONG_MIN_BYTES = 2000;
export const LONG_MAX_BYTES = 20000;

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', mdash: '—', ndash: '–', hellip: '…' };

export function htmlToText(html) {
  return html
    .replace(/<head>[\s\S]*?<\/head>/, '')
    .replace(/<div class="navheader">[\s\S]*?<hr \/><\/div>/, '')
    .replace(/<div class="navfooter">[\s\S]*$/, '')
    .replace(/<(?:\/p|\/div|\/h[1-6]|\/li|\/tr|\/pre|br \/|\/dt|\/dd|\/table)>/g, '$&\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name) => {
      if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
      return ENTITIES[name] ?? entity;
    })
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/[ \t]+/g, ' ').replace(/ *\n */g, '\n').trim())
    .filter((paragraph) => paragraph.length > 0)
    .join('\n\n');
}

const utf8Bytes = (text) => Buffer.byteLength(text, 'utf8');

/** A page's text as documents of LONG_MIN_BYTES..LONG_MAX_BYTES (see above). */
export function splitDocument(text) {
  const bytes = utf8Bytes(text);
  if (bytes <= LONG_MAX_BYTES) return bytes >= LONG_MIN_BYTES ? [text] : [];
  const paragraphs = text.split('\n\n');
  const target = bytes / Math.ceil(bytes / LONG_MAX_BYTES);
  const pieces = [];
  let piece = [];
  let size = 0;
  for (const paragraph of paragraphs) {
    const length = utf8Bytes(paragraph) + 2;
    if (piece.length && (size + length > LONG_MAX_BYTES || size >= target)) {
      pieces.push(piece.join('\n\n'));
      piece = [];
      size = 0;
    }
    piece.push(paragraph);
    size += length;
  }
  if (piece.length) pieces.push(piece.join('\n\n'));
  return pieces.filter((p) => utf8Bytes(p) >= LONG_MIN_BYTES && utf8Bytes(p) <= LONG_MAX_BYTES);
}

export function loadLongDocuments(dir = POSTGRES_DOC_DIR) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.html')).sort();
  const seen = new Set();
  const records = [];
  for (const name of files) {
    for (const doc of splitDocument(htmlToText(readFileSync(join(dir, name), 'utf8')))) {
      if (!seen.has(doc)) {
        seen.add(doc);
        records.push(doc);
      }
    }
  }
  // 150 bases (not 600): labelling a variant costs JS 3-gram sets of a whole document.
  return { name: 'postgres-doc', language: 'english', bases: 150, files: [`${files.length} pages of ${dir}`], records };
}
