// Makes the tests' capped module (CMakeLists.txt, build/wasm/capped): the bench module's
// .wasm, and its glue with the heap's maximum lowered to BYTES, so that tests can run the
// module out of memory. The module grows its memory only through the glue's
// emscripten_resize_heap, which refuses any size over that maximum, as it would in a module
// linked with -sMAXIMUM_MEMORY=BYTES; a second link of the same objects cost 17 s of the build.
//   node .ci/cap-memory.js FROM_DIR TO_DIR BYTES
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [from, to, bytes] = process.argv.slice(2);
if (!from || !to || !/^[1-9][0-9]*$/.test(bytes ?? '')) {
  console.error('usage: node .ci/cap-memory.js FROM_DIR TO_DIR BYTES');
  process.exit(2);
}
// Emscripten's default maximum with ALLOW_MEMORY_GROWTH: the glue's one use of the number is
// emscripten_resize_heap's maximum, written once, or twice where Closure inlined it.
const DEFAULT_MAXIMUM = '2147483648';
const glue = readFileSync(join(from, 'simhash_core.mjs'), 'utf8');
const uses = glue.split(DEFAULT_MAXIMUM).length - 1;
if (uses < 1 || uses > 2) {
  console.error(`cap-memory: expected the heap maximum ${DEFAULT_MAXIMUM} once or twice in ${from}/simhash_core.mjs, found it ${uses} times (another Emscripten?)`);
  process.exit(1);
}
mkdirSync(to, { recursive: true });
copyFileSync(join(from, 'simhash_core.wasm'), join(to, 'simhash_core.wasm'));
writeFileSync(join(to, 'simhash_core.mjs'), glue.replaceAll(DEFAULT_MAXIMUM, bytes));
