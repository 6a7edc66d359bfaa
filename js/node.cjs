// CommonJS entry for Node. The pure helpers come from js/helpers.cjs, which the build
// generates from the ES modules that define them (.ci/cjs.js), so both entries run the same
// code. init() reaches the ES module implementation by a dynamic import (allowed from
// CommonJS); loading is asynchronous anyway: `const sh = await init();`.
'use strict';

const helpers = require('./helpers.cjs');

/** Loads the WASM module once (node.js init: the same instance for later calls, a new one once it is unusable). */
exports.init = (options) => import('./node.js').then((entry) => entry.init(options));
Object.assign(exports, helpers); // js/helpers.js lists them
