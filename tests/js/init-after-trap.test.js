// init() caches its instance until a WebAssembly trap makes it unusable, then gives a new
// one. In a process of its own: init()'s instance is process-wide.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from '../../js/node.js';

test('init() gives a new instance once a trap has made its instance unusable, and caches that one', async () => {
  const bytes = readFileSync(new URL('../../js/wasm/simhash_core.wasm', import.meta.url));
  let core;
  const sh = await init({
    // Emscripten calls this as a method of the module object: `this` is the core, which
    // lets the test force a real trap in one of its calls.
    instantiateWasm(imports, receive) {
      core = this;
      WebAssembly.instantiate(bytes, imports).then(({ instance, module }) => receive(instance, module));
      return {};
    },
  });
  assert.equal(await init(), sh);
  core._simhash_similarity_one = () => core._simhash_text_index_size(0xfffffff0); // reads past the end of memory
  assert.throws(() => sh.similarity('a', 'b'), { message: /^simhash-wasm: sh\.similarity\(\) hit a WebAssembly trap/ });
  assert.throws(() => sh.fingerprint('a'), { message: /unusable since sh\.similarity\(\) hit a WebAssembly trap/ });
  const renewed = await init();
  assert.notEqual(renewed, sh);
  assert.equal(renewed.similarity('hello world', 'hello world'), 1);
  assert.equal(await init(), renewed);
});
