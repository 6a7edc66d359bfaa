// CommonJS entry for Node: the implementation is an ES module, reached by a dynamic
// import (allowed from CommonJS). Loading is asynchronous anyway, so `init()` keeps its
// shape: `const { init } = require('simhash-wasm'); const sh = await init();`.
'use strict';

const entry = import('./node.js');

/** Loads the WASM module once; later calls return the same instance. */
exports.init = (options) => entry.then((m) => m.init(options));
