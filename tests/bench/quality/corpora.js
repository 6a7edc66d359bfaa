// The two corpora: text that nobody on this project wrote, from Debian packages.
//   English: the `fortunes` package, /usr/share/games/fortunes/<category>.
//   Chinese: the `chinese` file of `fortunes-zh` (same directory), with ANSI colour codes.
// Records are separated by lines holding only "%".
import { readFileSync, readdirSync, lstatSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
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

// Japanese one-line texts: the sentences of Debian's `manpages-ja` (/usr/share/man/ja,
// gzipped roff). A page's text is its plain lines and the words of its font macros (.B,
// .I, .BR, ...), escapes removed; other requests break paragraphs, and example blocks
// (.nf to .fi, .EX to .EE) are skipped. Lines of a paragraph join directly between two
// CJK characters (as a Japanese page renders) and with a space otherwise. A sentence ends
// at 。！？ (and closing brackets). A record is a paragraph of at most 300 code points (so
// some hold several sentences), or else one sentence of a longer paragraph; kept are the
// distinct records of 10-300 code points that hold kana (Japanese, not a Chinese or
// English line) and are at least half CJK.
export const MANPAGES_JA_DIR = '/usr/share/man/ja';
export const SENTENCE_MIN_CHARS = 10;
export const SENTENCE_MAX_CHARS = 300;

/** The CJK code points of the core's character classes (cpp/src/text/unicode.cpp, class Cjk). */
export const CJK_CLASS = '\\u1100-\\u11FF\\u2E80-\\u2FDF\\u3005-\\u3007\\u3021-\\u3029\\u3031-\\u3035\\u3038-\\u303C' +
  '\\u3041-\\u3096\\u3099-\\u309F\\u30A1-\\u30FA\\u30FC-\\u30FF\\u3105-\\u312F\\u3131-\\u318E\\u31A0-\\u31BF\\u31F0-\\u31FF' +
  '\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uA960-\\uA97F\\uAC00-\\uD7A3\\uD7B0-\\uD7FF\\uF900-\\uFAFF\\uFF66-\\uFF9F\\uFFA0-\\uFFDC' +
  '\\u{1B000}-\\u{1B16F}\\u{20000}-\\u{3134F}';
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

const FONT_MACROS = new Set(['B', 'I', 'BR', 'RB', 'BI', 'IB', 'IR', 'RI', 'SM', 'SB']);
const ROFF_CHARS = { '-': '-', em: '—', en: '–', lq: '“', rq: '”', oq: '‘', cq: '’', aq: "'", dq: '"', bu: '•', co: '©', rg: '®', tm: '™', mu: '×', '>=': '≥', '<=': '≤', ti: '~', ha: '^' };

function roffInline(line) {
  return line
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\\((..)/g, (_, name) => ROFF_CHARS[name] ?? '')
    .replace(/\\\[([^\]]*)\]/g, (_, name) => ROFF_CHARS[name] ?? '')
    .replace(/\\\*(\(..|\[[^\]]*\]|.)/g, '')
    .replace(/\\s[-+]?\d/g, '')
    .replace(/\\[&,/|^:%]/g, '')
    .replace(/\\[- ~0]/g, (e) => (e === '\\-' ? '-' : ' '))
    .replace(/\\e/g, '\\')
    .replace(/\\c$/, '');
}

/** A man page's paragraphs as plain text (see above). */
export function roffToParagraphs(roff) {
  const paragraphs = [];
  let lines = [];
  let literal = false;
  const close = () => {
    if (lines.length) paragraphs.push(lines.reduce((text, line) =>
      (CJK_CHAR.test(text.at(-1) ?? '') && CJK_CHAR.test(line[0] ?? '') ? text + line : `${text} ${line}`)).trim());
    lines = [];
  };
  for (const raw of roff.split('\n')) {
    if (/^['.]\s*\\"/.test(raw)) continue;
    const request = /^[.']\s*([A-Za-z]+)\s*(.*)$/.exec(raw);
    if (request) {
      const [, name, args] = request;
      if (name === 'nf' || name === 'EX') literal = true;
      if (name === 'fi' || name === 'EE') literal = false;
      if (FONT_MACROS.has(name) && !literal) {
        const words = [...args.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
        const text = roffInline(name.length === 2 && name !== 'SM' && name !== 'SB' ? words.join('') : words.join(' ')).trim();
        if (text) lines.push(text);
      } else close();
      continue;
    }
    if (literal || raw.startsWith('.')) continue;
    const text = roffInline(raw).trim();
    if (text) lines.push(text);
    else close();
  }
  close();
  return paragraphs;
}

const SENTENCE = /[^。！？]*[。！？]+[」』）)]*|[^。！？]+$/g;

export function japaneseSentences(paragraph) {
  return (paragraph.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

function isJapaneseSentence(sentence) {
  const cps = [...sentence];
  if (cps.length < SENTENCE_MIN_CHARS || cps.length > SENTENCE_MAX_CHARS || !KANA.test(sentence)) return false;
  const visible = cps.filter((c) => !/\s/.test(c));
  return 2 * visible.filter((c) => CJK_CHAR.test(c)).length >= visible.length;
}

function manPages(dir) {
  return readdirSync(dir).filter((d) => /^man\d$/.test(d)).sort()
    .flatMap((section) => readdirSync(join(dir, section)).sort().map((name) => join(dir, section, name)))
    .filter((path) => lstatSync(path).isFile() && path.endsWith('.gz'));
}

export function loadJapanese(dir = MANPAGES_JA_DIR) {
  const pages = manPages(dir);
  const seen = new Set();
  const records = [];
  for (const path of pages) {
    for (const paragraph of roffToParagraphs(gunzipSync(readFileSync(path)).toString('utf8'))) {
      const whole = [...paragraph].length <= SENTENCE_MAX_CHARS;
      for (const sentence of whole ? [paragraph] : japaneseSentences(paragraph)) {
        if (!seen.has(sentence) && isJapaneseSentence(sentence)) {
          seen.add(sentence);
          records.push(sentence);
        }
      }
    }
  }
  return { name: 'japanese', language: 'japanese', files: [`${pages.length} pages of ${dir}`], records };
}

// Chinese and Japanese documents: the translations of the Debian Reference
// (`debian-reference-zh-cn`, `debian-reference-ja`: one HTML file per chapter). Each
// chapter's text (htmlToText) is cut at its section headings ("4.6.1. ..."); consecutive
// sections make one piece of at least REFERENCE_PIECE_BYTES, and each piece becomes
// documents of LONG_MIN_BYTES..LONG_MAX_BYTES as splitDocument makes them.
// Natural near-duplicates: few (one manual, no templates); topical neighbours: many.
export const DEBIAN_REFERENCE_DIR = '/usr/share/debian-reference';
const SECTION_HEADING = /^\d+\.\d+(?:\.\d+)*\.\s+\S/u;
const REFERENCE_PIECE_BYTES = 4000;

export function loadReferenceDocuments(language, dir = DEBIAN_REFERENCE_DIR) {
  const suffix = { chinese: 'zh-cn', japanese: 'ja' }[language];
  const files = readdirSync(dir).filter((name) => /^(ch\d+|apa|pr01)\./.test(name) && name.endsWith(`.${suffix}.html`)).sort();
  const seen = new Set();
  const records = [];
  for (const name of files) {
    const html = readFileSync(join(dir, name), 'utf8').replace(/<hr\/>/g, '<hr />');
    const sections = [];
    for (const paragraph of htmlToText(html).split('\n\n')) {
      if (SECTION_HEADING.test(paragraph) || sections.length === 0) sections.push([]);
      sections.at(-1).push(paragraph);
    }
    // Consecutive sections join until a piece reaches REFERENCE_PIECE_BYTES (most
    // sections are shorter than a document).
    let piece = [];
    const flush = () => {
      for (const doc of splitDocument(piece.join('\n\n'))) {
        if (!seen.has(doc)) {
          seen.add(doc);
          records.push(doc);
        }
      }
      piece = [];
    };
    for (const section of sections) {
      piece.push(...section);
      if (utf8Bytes(piece.join('\n\n')) >= REFERENCE_PIECE_BYTES) flush();
    }
    flush();
  }
  return { name: `debian-reference-${suffix}`, language, bases: 150, files: [`${files.length} chapters of ${dir}/*.${suffix}.html`], records };
}
