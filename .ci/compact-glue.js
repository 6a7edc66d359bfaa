// Rewrites an Emscripten glue file (the module's .mjs) in place, run by CMakeLists.txt after
// each link: the lazy wrapper Emscripten writes for every exported C function,
//   var _f=Module["_f"]=function(){return(_f=Module["_f"]=Module["asm"]["x"]).apply(null,arguments)};
// about 110 bytes each and one per export (98), becomes a row of one table, "f:x", and one
// loop defines the same Module["_f"] wrappers from it: 0.7 KB gzipped of a 96 KiB download.
// Wrappers whose variable the glue reads elsewhere are kept as written. The JS layer reads
// exports only as Module["_f"] (js/bindings/), which the loop defines exactly as before.
// Emscripten 3.1.6 cannot do this itself: DECLARE_ASM_MODULE_EXPORTS=0 refuses MODULARIZE.
//   node .ci/compact-glue.js FILE.mjs
// Leaves the file as it was, with a warning, when the glue holds no wrapper of that shape
// (another Emscripten: the module still works, larger, and the download budget's test says by
// how much) or is compacted already.
import { readFileSync, writeFileSync } from 'node:fs';

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
const table = wrappers.filter(([, name]) => !readElsewhere(name)).map(([, name, exported]) => `${name.slice(1)}:${exported}`);
const loop = `"${table.join(',')}".split(",").forEach(function(e){e=e.split(":");var n="_"+e[0];`
  + 'Module[n]=function(){return(Module[n]=Module["asm"][e[1]]).apply(null,arguments)}});';
let first = true;
const compacted = glue.replace(WRAPPER, (wrapper, name) => {
  const kept = readElsewhere(name) ? wrapper : '';
  if (!first) return kept;
  first = false;
  return loop + kept;
});
writeFileSync(file, compacted);
