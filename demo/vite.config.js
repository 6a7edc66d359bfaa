// Builds the demo as a user's app would be built: `import { init } from 'simhash-wasm'`
// resolves through this repository's package.json (its "exports" map, browser condition),
// exactly as it would from node_modules. `npm run demo` builds and serves it (demo/serve.js).
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export default {
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './', // the built files work from any path, e.g. a project page
  logLevel: 'warn',
  resolve: {
    alias: { 'simhash-wasm': ROOT },
  },
  worker: {
    format: 'es', // a module worker, so the glue's new URL('simhash_core.wasm', import.meta.url) works
  },
  build: {
    outDir: `${ROOT}build/demo`,
    emptyOutDir: true,
    reportCompressedSize: false,
  },
};
