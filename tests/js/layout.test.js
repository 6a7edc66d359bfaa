// The package's layers (docs/layout.md): every import in js/ goes to its own folder or to a
// lower layer, no module imports itself through a cycle, and only js/bindings/ touches the
// WASM module's exports and memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const JS = fileURLToPath(new URL('../../js/', import.meta.url));

/** Each layer and the modules in it, lowest first; a module imports only from its own folder or a lower layer. */
const LAYERS = [
  ['core/'],
  ['bindings/'],
  ['dedup/'],
  ['records/'],
  ['simhash.js', 'helpers.js'],
  ['node-loader.js'],
  ['index.js', 'node.js'],
  ['pool/', 'redis/'],
  ['cli/', 'worker.js', 'redis.js'],
];

function layerOf(module) {
  const at = LAYERS.findIndex((layer) => layer.some((part) => (part.endsWith('/') ? module.startsWith(part) : module === part)));
  assert.notEqual(at, -1, `${module} belongs to no layer of docs/layout.md`);
  return at;
}

/** The js/ modules (paths relative to js/), without the built module in wasm/. */
function modules(dir = JS) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'wasm' ? [] : modules(path);
    return entry.name.endsWith('.js') ? [relative(JS, path)] : [];
  });
}

/** The js/ modules a module imports statically or by a literal dynamic import. */
function importsOf(module) {
  const source = readFileSync(join(JS, module), 'utf8');
  const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]);
  return specifiers.filter((s) => s.startsWith('.') && !s.includes('/wasm/')).map((s) => relative(JS, join(dirname(join(JS, module)), s)));
}

const graph = new Map(modules().map((module) => [module, importsOf(module)]));

test('only js/bindings/ calls the WASM module\'s exports', () => {
  const calls = [...graph.keys()].filter((module) => !module.startsWith('bindings/'))
    .flatMap((module) => [...readFileSync(join(JS, module), 'utf8').matchAll(/\b(?:core|this\.#core)\._\w+|\._(?:malloc|free)\b|\bHEAP(?:U8|32|U32|F64)\b/g)].map((m) => `${module}: ${m[0]}`));
  assert.deepEqual(calls, []);
});

test('js/ is in folders by job: only entries, Node\'s loader of a module and the SimHash class at the top', () => {
  const top = [...graph.keys()].filter((module) => !module.includes('/')).sort();
  assert.deepEqual(top, ['helpers.js', 'index.js', 'node-loader.js', 'node.js', 'redis.js', 'simhash.js', 'worker.js']);
});

test('every import goes to its own folder or a lower layer', () => {
  const wrong = [];
  for (const [module, imports] of graph) {
    for (const imported of imports) {
      assert.ok(graph.has(imported), `${module} imports ${imported}, which is not a module of js/`);
      const sameFolder = dirname(module) === dirname(imported) && dirname(module) !== '.';
      if (!sameFolder && layerOf(imported) >= layerOf(module)) wrong.push(`${module} -> ${imported}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('no import cycle', () => {
  const state = new Map();
  const cycles = [];
  const visit = (module, path) => {
    if (state.get(module) === 'done') return;
    if (state.get(module) === 'open') {
      cycles.push([...path.slice(path.indexOf(module)), module].join(' -> '));
      return;
    }
    state.set(module, 'open');
    for (const imported of graph.get(module) ?? []) visit(imported, [...path, module]);
    state.set(module, 'done');
  };
  for (const module of graph.keys()) visit(module, []);
  assert.deepEqual(cycles, []);
});

/**
 * cpp/src's folders by job (docs/layout.md) and the folders each may include from besides
 * itself: a folder's files depend only on the folders listed, so the graph has no cycle.
 */
const CPP_FOLDERS = {
  base: [],
  text: [],
  fingerprint: ['base'],
  hamming: ['base'],
  similarity: ['base', 'text'],
  lists: ['text'],
  bands: ['base', 'similarity'],
  text_index: ['base', 'similarity', 'text'],
};
const CPP_SRC = fileURLToPath(new URL('../../cpp/src/', import.meta.url));

test('cpp/src is in folders by job, each including only from itself and the folders below it', () => {
  const entries = readdirSync(CPP_SRC, { withFileTypes: true });
  assert.deepEqual(entries.filter((e) => !e.isDirectory()).map((e) => e.name), [], 'no file at the top of cpp/src');
  assert.deepEqual(entries.map((e) => e.name).sort(), Object.keys(CPP_FOLDERS).sort());
  const wrong = [];
  for (const folder of Object.keys(CPP_FOLDERS)) {
    for (const file of readdirSync(join(CPP_SRC, folder))) {
      const source = readFileSync(join(CPP_SRC, folder, file), 'utf8');
      for (const [, included] of source.matchAll(/^#include "([^"]+)"/gm)) {
        if (included.startsWith('simhash/')) continue; // the public headers
        const [to, name] = included.split('/');
        assert.ok(name && readdirSync(join(CPP_SRC, to)).includes(name), `${folder}/${file} includes ${included}, not a file of cpp/src`);
        if (to !== folder && !CPP_FOLDERS[folder].includes(to)) wrong.push(`${folder}/${file} -> ${included}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});
