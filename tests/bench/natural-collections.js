// Whole natural collections for the speed benchmarks (`node tests/bench/dedup.js --natural`):
// Debian's package descriptions, each package's English description once (packages that
// share a description, such as a library and its -dev package, share one Description-md5
// and count once), as paragraphs (the synopsis, then the long description with its
// formatting dots removed) and as one-line texts (the synopses alone). Nothing is planted:
// what is alike is alike as maintainers wrote it.
//
// The source is apt's Translation-en index of the machine's Debian release, which apt
// fetches only when asked for languages: `apt-get update -o Acquire::Languages=en` (as root;
// Debian's container images set Acquire::Languages "none").
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const LISTS = '/var/lib/apt/lists';
export const FETCH_COMMAND = 'apt-get update -o Acquire::Languages=en';

/** The text of one apt index file, whatever apt compressed it with. */
function readIndex(path) {
  if (path.endsWith('.lz4')) return execFileSync('lz4cat', [path], { maxBuffer: 1 << 30 }).toString('utf8');
  if (path.endsWith('.xz')) return execFileSync('xz', ['-dc', path], { maxBuffer: 1 << 30 }).toString('utf8');
  if (path.endsWith('.gz')) return gunzipSync(readFileSync(path)).toString('utf8');
  return readFileSync(path, 'utf8');
}

/**
 * Debian's package descriptions: { paragraphs, synopses }, one entry per distinct
 * Description-md5, in the index's order (the main archive first). Throws, naming the
 * command that fetches them, when apt has no Translation-en index.
 */
export function debianDescriptions() {
  const files = readdirSync(LISTS).filter((name) => /_i18n_Translation-en(\.\w+)?$/.test(name)).sort((x, y) => {
    const update = (name) => (/-(security|updates)_/.test(name) ? 1 : 0);
    return update(x) - update(y) || x.localeCompare(y);
  });
  if (files.length === 0) throw new Error(`no Translation-en index in ${LISTS}: run ${FETCH_COMMAND}`);
  const seen = new Set();
  const paragraphs = [];
  const synopses = [];
  for (const file of files) {
    for (const record of readIndex(join(LISTS, file)).split('\n\n')) {
      const md5 = record.match(/^Description-md5: (\S+)$/m)?.[1];
      const at = record.indexOf('\nDescription-en: ');
      if (!md5 || at === -1 || seen.has(md5)) continue;
      seen.add(md5);
      const [synopsis, ...body] = record.slice(at + '\nDescription-en: '.length).split('\n');
      const long = body.map((line) => line.replace(/^ \.?/, '')).join('\n').trim();
      synopses.push(synopsis.trim());
      paragraphs.push(long ? `${synopsis.trim()}\n${long}` : synopsis.trim());
    }
  }
  return { paragraphs, synopses };
}
