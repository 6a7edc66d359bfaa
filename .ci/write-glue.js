// Writes the module's glue (the .mjs that loads the .wasm) in place of the one Emscripten
// wrote, run by CMakeLists.txt after each link. Emscripten 3.1.6's glue for MODULARIZE (run
// dependencies, callbacks, environment sniffing, a lazy wrapper per export) is 4.6 KB
// gzipped, 2.5 KB with its wrappers as one table and minified by Closure, of a 96 KiB
// download; this module needs only its imports, a view of its memory, its constructors and
// its exports under the names the JS layer calls (Module["_f"]): 1.5 KB.
//   node .ci/write-glue.js FILE.mjs
//
// From Emscripten's glue it reads what the link decided: the import object's keys and the
// library function behind each (written below, or an EM_JS function's source as Emscripten
// wrote it), the export names of the memory and of the constructors, and each exported C
// function's minified name. The glue written keeps Emscripten's contract for what this
// package uses: createSimhashCore(Module) resolves to Module with HEAPU8 (current after the
// memory grows) and Module["_f"] for each export; Module.wasmBinary, Module.locateFile(file,
// scriptDirectory) and Module.instantiateWasm(imports, receive) (called as a method of Module)
// as Emscripten takes them; the .wasm fetched from `new URL("simhash_core.wasm",
// import.meta.url)`, which bundlers follow; the heap grown as Emscripten grows it, up to its
// maximum 2147483648 (which .ci/cap-memory.js lowers); an abort a WebAssembly.RuntimeError.
// A glue it cannot read (another Emscripten, a library function not written here) is left
// as Emscripten wrote it, with a warning: the module still works, larger, and the download
// budget's test says by how much.
//
// Then Closure Compiler minifies it (SIMPLE: local names and dead code; the names the JS
// layer reads, Module["_f"], are strings and stay). It runs as the npm package's native
// binary (no Java); a script cannot hold import.meta, so import.meta.url crosses as a
// placeholder and the default export is written back after. Without the package (`npm start`
// builds before any npm ci) or on any failure, the glue stays unminified, with a warning.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node .ci/write-glue.js FILE.mjs');
  process.exit(2);
}
const emscripten = readFileSync(file, 'utf8');
const leave = (why) => {
  console.warn(`${file}: left as Emscripten wrote it: ${why}`);
  process.exit(0);
};

// The library functions this module imports, as the glue written defines them.
const LIBRARY = {
  _abort: '() => abort("")',
  _emscripten_memcpy_big: '(dest, src, num) => { Module.HEAPU8.copyWithin(dest, src, src + num); }',
  // Emscripten's policy: up to 20% more than the memory holds, then 10%, then 5%, never more
  // than 96 MiB past the request, in 64 KiB pages, up to the maximum.
  _emscripten_resize_heap: `(requested) => {
    requested >>>= 0;
    const maximum = 2147483648;
    if (requested > maximum) return false;
    const old = Module.HEAPU8.length;
    for (let cutDown = 1; cutDown <= 4; cutDown *= 2) {
      let size = Math.max(requested, Math.min(old * (1 + 0.2 / cutDown), requested + 100663296));
      size = Math.min(maximum, size + ((65536 - (size % 65536)) % 65536));
      try {
        memory.grow((size - memory.buffer.byteLength + 65535) >>> 16);
        Module.HEAPU8 = new Uint8Array(memory.buffer);
        return true;
      } catch {
        // A smaller step may fit.
      }
    }
    return false;
  }`,
};

const importTable = /var asmLibraryArg=\{([^}]*)\};/.exec(emscripten);
if (!importTable) leave('no import object (asmLibraryArg)');
const imports = [...importTable[1].matchAll(/"([\w$]+)":([\w$]+)/g)].map(([, key, name]) => [key, name]);
if (imports.length === 0 || imports.map((row) => `"${row[0]}":${row[1]}`).join(',') !== importTable[1]) leave(`an import object of another shape: {${importTable[1]}}`);
const definitions = [];
for (const [, name] of imports) {
  if (LIBRARY[name]) continue;
  // An EM_JS function, as Emscripten wrote it: its body may use nothing of Emscripten's glue.
  const source = functionSource(name);
  if (!source) leave(`the import ${name} is neither written here nor a function of the glue`);
  definitions.push(source);
}
const memoryExport = /wasmMemory=Module\["asm"\]\["([\w$]+)"\]/.exec(emscripten)?.[1];
const constructors = /addOnInit\(Module\["asm"\]\["([\w$]+)"\]\)/.exec(emscripten)?.[1];
if (!memoryExport || !constructors) leave('no memory or constructors export');
const WRAPPER = /var (_\w+)=Module\["\1"\]=function\(\)\{return\(\1=Module\["\1"\]=Module\["asm"\]\["([\w$]+)"\]\)\.apply\(null,arguments\)\};/g;
const rows = [...emscripten.matchAll(WRAPPER)].map(([, name, exported]) => [name.slice(1), exported]).filter(([, exported]) => exported !== constructors);
if (rows.length === 0) leave('no export wrapper of Emscripten 3.1.6\'s shape');

// Emscripten minifies the export names in order: a-z, A-Z, _, $, then two characters, the
// first cycling fastest. When the rows follow that order without a gap, the glue computes
// them from each row's place and holds the names alone (0.1 KB gzipped less).
const MINIFIED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
const minifiedName = (n) => MINIFIED[n % MINIFIED.length] + (n < MINIFIED.length ? '' : MINIFIED[Math.floor(n / MINIFIED.length) - 1]);
const first = Array.from({ length: 2 * MINIFIED.length }, (_, n) => n).find((n) => minifiedName(n) === rows[0][1]);
const ordered = first !== undefined && rows.every(([, exported], i) => exported === minifiedName(first + i));
const defineExports = ordered
  ? `"${rows.map(([name]) => name).join(' ')}".split(" ").forEach((name, i) => {
        const j = i + ${first};
        const c = "${MINIFIED}";
        Module["_" + name] = exports[c[j % ${MINIFIED.length}] + (j < ${MINIFIED.length} ? "" : c[((j / ${MINIFIED.length}) | 0) - 1])];
      });`
  : `"${rows.map((row) => row.join(':')).join(' ')}".split(" ").forEach((row) => {
        const [name, exported] = row.split(":");
        Module["_" + name] = exports[exported];
      });`;

const glue = `var createSimhashCore = (() => {
  const scriptDirectory = import.meta.url.startsWith("blob:") ? "" : import.meta.url.slice(0, import.meta.url.replace(/[?#].*/, "").lastIndexOf("/") + 1);
  return (Module = {}) => new Promise((resolve, reject) => {
    let memory;
    const abort = (what) => {
      const error = new WebAssembly.RuntimeError("Aborted(" + what + ")");
      reject(error);
      throw error;
    };
    ${definitions.join('\n    ')}
    const imports = { a: { ${imports.map(([key, name]) => `"${key}": ${LIBRARY[name] ?? name}`).join(',\n      ')} } };
    const receive = (instance) => {
      const exports = (Module.asm = instance.exports);
      memory = exports["${memoryExport}"];
      Module.HEAPU8 = new Uint8Array(memory.buffer);
      exports["${constructors}"]();
      ${defineExports}
      resolve(Module);
    };
    // Where the short measure's Han table is, beside the .wasm (js/bindings/han-table.js).
    Module.hanTableUrl = Module.locateFile ? Module.locateFile("han_variants.bin", scriptDirectory) : new URL("han_variants.bin", import.meta.url).toString();
    if (Module.instantiateWasm) {
      Module.instantiateWasm(imports, receive);
      return;
    }
    const url = Module.locateFile ? Module.locateFile("simhash_core.wasm", scriptDirectory) : new URL("simhash_core.wasm", import.meta.url).toString();
    const fromBytes = (bytes) => WebAssembly.instantiate(bytes, imports);
    const fetched = () => fetch(url, { credentials: "same-origin" });
    const fromFetch = () => fetched().then((response) => {
      if (!response.ok) throw new Error("failed to load wasm binary file at '" + url + "'");
      return response.arrayBuffer();
    }).then(fromBytes);
    (Module.wasmBinary
      ? fromBytes(Module.wasmBinary)
      : typeof WebAssembly.instantiateStreaming === "function"
        // A server that sends the .wasm as another type fails the streaming compile: then as bytes.
        ? fetched().then((response) => WebAssembly.instantiateStreaming(response, imports)).catch(fromFetch)
        : fromFetch()
    ).then((result) => receive(result.instance), reject);
  });
})();
export default createSimhashCore;
`;
writeFileSync(file, glue);
minifyWithClosure(file, glue);

/** The source of the glue's top-level `function name(...){...}`, or null. */
function functionSource(name) {
  const start = emscripten.indexOf(`function ${name}(`);
  if (start < 0) return null;
  let depth = 0;
  for (let i = emscripten.indexOf('{', start); i < emscripten.length; i++) {
    if (emscripten[i] === '{') depth++;
    else if (emscripten[i] === '}' && --depth === 0) return emscripten.slice(start, i + 1);
  }
  return null;
}

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
