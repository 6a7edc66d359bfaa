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
