// Rewrites an Emscripten glue file (the module's .mjs) in place, run by CMakeLists.txt after
// each link: the lazy wrapper Emscripten writes for every exported C function,
//   var _f=Module["_f"]=function(){return(_f=Module["_f"]=Module["asm"]["x"]).apply(null,arguments)};
// about 110 bytes each and one per export (98), becomes a row of one table, "f:x" (or "f" where
// the minified names follow Emscripten's order, below), and one loop defines the same
// Module["_f"] wrappers from it: 0.8 KB gzipped of a 96 KiB download.
// Wrappers whose variable the glue reads elsewhere are kept as written. The JS layer reads
// exports only as Module["_f"] (js/bindings/), which the loop defines exactly as before.
// Emscripten 3.1.6 cannot do this itself: DECLARE_ASM_MODULE_EXPORTS=0 refuses MODULARIZE.
//   node .ci/compact-glue.js FILE.mjs
// Leaves the file as it was, with a warning, when the glue holds no wrapper of that shape
// (another Emscripten: the module still works, larger, and the download budget's test says by
// how much) or is compacted already.
//
// Then Closure Compiler minifies it (SIMPLE: local names and dead code; the names the JS layer
// reads, Module["_f"], are strings and stay): 0.3 KB gzipped less after a bundler's own
// minifier. It runs as the npm package's native binary (no Java); a script cannot hold
// import.meta, so import.meta.url crosses as a placeholder and the default export is written
// back after. Without the package (`npm start` builds before any npm ci) or on any failure,
// the compacted glue stays as it is, with a warning.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node .ci/compact-glue.js FILE.mjs');
  process.exit(2);
}
const glue = readFileSync(file, 'utf8');
const WRAPPER = /var (_\w+)=Module\["\1"\]=function\(\)\{return\(\1=Module\["\1"\]=Module\["asm"\]\["([\w$]+)"\]\)\.apply\(null,arguments\)\};/g;
const wrappers = [...glue.matchAll(WRAPPER)];
if (wrappers.length === 0) {
  console.warn(`${file}: left as it was: no export wrapper of Emscripten 3.1.6's shape (another Emscripten, or compacted already)`);
  process.exit(0);
}
const rest = glue.replace(WRAPPER, '');
const readElsewhere = (name) => new RegExp(`(^|[^\\w$"])${name.replace(/\$/g, '\\$')}($|[^\\w$"])`).test(rest);
const rows = wrappers.filter(([, name]) => !readElsewhere(name)).map(([, name, exported]) => [name.slice(1), exported]);
// Emscripten minifies the export names in order: a-z, A-Z, _, $, then two characters, the
// first cycling fastest. When the table's follow that order without a gap, the loop computes
// them from each row's place and the table holds the names alone (0.1 KB gzipped less).
const MINIFIED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
const minifiedName = (n) => MINIFIED[n % MINIFIED.length] + (n < MINIFIED.length ? '' : MINIFIED[Math.floor(n / MINIFIED.length) - 1]);
const first = rows.length ? Array.from({ length: 2 * MINIFIED.length }, (_, n) => n).find((n) => minifiedName(n) === rows[0][1]) : undefined;
const ordered = first !== undefined && rows.every(([, exported], i) => exported === minifiedName(first + i));
const loop = ordered
  ? `"${rows.map(([name]) => name).join(',')}".split(",").forEach(function(e,i){var n="_"+e,j=i+${first},c="${MINIFIED}";`
    + `Module[n]=function(){return(Module[n]=Module["asm"][c[j%${MINIFIED.length}]+(j<${MINIFIED.length}?"":c[j/${MINIFIED.length}-1|0])]).apply(null,arguments)}});`
  : `"${rows.map((row) => row.join(':')).join(',')}".split(",").forEach(function(e){e=e.split(":");var n="_"+e[0];`
    + 'Module[n]=function(){return(Module[n]=Module["asm"][e[1]]).apply(null,arguments)}});';
let looped = false;
const compacted = glue.replace(WRAPPER, (wrapper, name) => {
  const kept = readElsewhere(name) ? wrapper : '';
  if (looped) return kept;
  looped = true;
  return loop + kept;
});
writeFileSync(file, compacted);
minifyWithClosure(file, compacted);

/** Writes `glue` (an ES module ending in `export default NAME;`) to `file` minified by Closure, or leaves `file` with a warning. */
function minifyWithClosure(file, glue) {
  const compiler = new URL('../node_modules/.bin/google-closure-compiler', import.meta.url).pathname;
  const EXPORT = /\nexport default (\w+);\s*$/;
  const PLACEHOLDER = '__SIMHASH_IMPORT_META_URL__';
  const exported = EXPORT.exec(glue);
  if (!existsSync(compiler) || !exported) {
    console.warn(`${file}: not minified by Closure: ${exported ? 'no node_modules/.bin/google-closure-compiler (npm ci)' : 'no default export at its end'}`);
    return;
  }
  const urls = glue.split('import.meta.url').length - 1;
  const dir = mkdtempSync(join(tmpdir(), 'glue-'));
  try {
    const [input, output, externs] = ['in.js', 'out.js', 'externs.js'].map((name) => join(dir, name));
    writeFileSync(input, glue.replace(EXPORT, '\n').replaceAll('import.meta.url', PLACEHOLDER));
    writeFileSync(externs, `var ${PLACEHOLDER};\n`);
    const run = spawnSync(compiler, ['--platform', 'native', '--compilation_level', 'SIMPLE', '--language_in', 'ECMASCRIPT_2020',
      '--language_out', 'ECMASCRIPT_2020', '--externs', externs, '--js', input, '--js_output_file', output], { encoding: 'utf8' });
    const minified = run.status === 0 ? readFileSync(output, 'utf8') : '';
    if (run.status !== 0 || minified.split(PLACEHOLDER).length - 1 !== urls) {
      console.warn(`${file}: not minified by Closure: ${run.status !== 0 ? run.stderr.trim().split('\n').slice(-3).join(' ') : 'import.meta.url lost'}`);
      return;
    }
    writeFileSync(file, `${minified.replaceAll(PLACEHOLDER, 'import.meta.url')}export default ${exported[1]};\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
