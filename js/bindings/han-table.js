// The short measure folds traditional Han characters to simplified ones (學 -> 学) by a table
// the module does not carry (cpp/include/simhash/similarity.h installHanVariants), so that a
// browser downloads it (han_variants.bin beside the .wasm, 5 KB gzipped) only for a list that
// holds Han characters. A core reads it with `core.readHanTable()` where its entry gave one
// (Node's: every call then folds alike), else fetches it (`core.fetchHanTable(core)`, or from
// `core.hanTableUrl`, where the glue located it): asynchronous calls load it first, and a
// synchronous call on Han text before it is loaded (sh.loadHanTable()) throws rather than
// answer unfolded.
import { withAllocations } from './memory.js';
import { useHanVariants } from '../core/tokens.js';

// U+3400..U+9FFF, the table's range; in UTF-8, E3 90..BF and E4..E9 as the first two bytes.
const HAN = /[\u3400-\u9fff]/;

/** Whether `texts` (strings, or UTF-8 with its bounds as text.js encodeTexts lays them out) hold a character the table may fold, and the core has no table yet. */
function needsTable(core, texts) {
  if (core.hanTableInstalled) return false;
  if (Array.isArray(texts)) return texts.some((text) => HAN.test(text));
  const { utf8 } = texts;
  for (let i = 0; i + 1 < utf8.length; i++) {
    if ((utf8[i] >= 0xe4 && utf8[i] <= 0xe9) || (utf8[i] === 0xe3 && utf8[i + 1] >= 0x90)) return true;
  }
  return false;
}

/** The table installed in the core, and lent to the look-alike rule (tokens.js useHanVariants). */
function install(core, bytes) {
  const table = withAllocations(core, (mem) => core._installHanVariants(mem.copyIn(bytes), bytes.length));
  if (!table) throw new Error('simhash-wasm: han_variants.bin is not the one of this release');
  useHanVariants(new Uint16Array(core.HEAPU8.buffer, table, 2 * (bytes[0] | (bytes[1] << 8))));
  core.hanTableInstalled = true;
}

async function fetchTable(core) {
  const response = await fetch(core.hanTableUrl);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Before a synchronous call that compares `texts` by the short measure. */
export function requireHanTable(core, texts) {
  if (!needsTable(core, texts)) return;
  if (!core.readHanTable) throw new Error('simhash-wasm: Han text by the short measure needs `await sh.loadHanTable()` first');
  install(core, core.readHanTable());
}

/** The table installed, fetched if need be (sh.loadHanTable). */
export async function loadHanTable(core) {
  if (core.hanTableInstalled) return;
  let bytes;
  try {
    bytes = await (core.readHanTable ?? core.fetchHanTable ?? fetchTable)(core);
  } catch (error) {
    throw new Error(`simhash-wasm: could not load ${core.hanTableUrl} (${error.message})`, { cause: error });
  }
  if (!core.hanTableInstalled) install(core, bytes);
}

/** Before an asynchronous call that compares `texts` by the short measure. */
export async function loadHanTableFor(core, texts) {
  if (needsTable(core, texts)) await loadHanTable(core);
}
