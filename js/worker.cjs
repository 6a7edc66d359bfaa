// CommonJS entry of `simhash-wasm/worker` for Node: createPool() reaches the ES module
// implementation by a dynamic import (allowed from CommonJS); it is asynchronous anyway.
'use strict';

/** Starts a pool and resolves once every worker has loaded the WASM module. */
exports.createPool = (options) => import('./worker.js').then((entry) => entry.createPool(options));
