#!/usr/bin/env node
// `npm run demo`: builds demo/ with Vite (demo/vite.config.js) into build/demo and serves it
// on localhost under a strict Content-Security-Policy, as a user's site would send it.
//
//   node demo/serve.js [--port N] [--host H] [--out DIR] [--build-only] [--no-build]
//
// --port 0 picks a free port; without --port, PORT or 5173 (the next free one if taken).
// --out builds into and serves DIR instead of build/demo (the browser tests give each server
// its own, so that test files running at once never serve each other's half-written build).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const OUT_DIR = fileURLToPath(new URL('../build/demo/', import.meta.url));

/** No eval of any kind (WebAssembly compilation is the one exception), no inline scripts or styles. */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'";

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

/** Builds the demo into `outDir` (emptied first). */
export async function buildDemo(outDir = OUT_DIR) {
  const { build } = await import('vite');
  await build({ configFile: join(HERE, 'vite.config.js'), build: { outDir } });
}

/** Serves `root` (a built demo); resolves to the node:http server once it listens. */
export function serveDemo({ port = 5173, host = '127.0.0.1', tryNext = false, root = OUT_DIR } = {}) {
  root = normalize(join(root, '/'));
  const server = createServer(async (request, response) => {
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      const body = await readFile(file);
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'cache-control': extname(file) === '.html' ? 'no-cache' : 'max-age=3600',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-security-policy': CSP }).end('not found\n');
    }
  });
  return new Promise((resolve, reject) => {
    let attempt = port;
    server.on('error', (error) => {
      if (error.code === 'EADDRINUSE' && tryNext && attempt < port + 20) server.listen(++attempt, host);
      else reject(error);
    });
    server.listen(attempt, host, () => resolve(server));
  });
}

function parseArgs(argv) {
  const args = { port: undefined, host: process.env.HOST ?? '127.0.0.1', out: OUT_DIR, build: true, serve: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--port') args.port = Number(argv[++i]);
    else if (arg === '--host') args.host = argv[++i];
    else if (arg === '--out') {
      if (!argv[i + 1]) throw new Error('--out takes a directory');
      args.out = resolvePath(argv[++i]);
    }
    else if (arg === '--build-only') args.serve = false;
    else if (arg === '--no-build') args.build = false;
    else throw new Error(`unknown argument ${arg} (use --port N, --host H, --out DIR, --build-only, --no-build)`);
  }
  if (args.port !== undefined && !(Number.isInteger(args.port) && args.port >= 0 && args.port < 65536)) throw new Error('--port takes 0..65535');
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.build) {
    const started = Date.now();
    await buildDemo(args.out);
    console.log(`demo built into ${args.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (!args.serve) return;
  const fixed = args.port ?? (process.env.PORT ? Number(process.env.PORT) : undefined);
  const server = await serveDemo({ port: fixed ?? 5173, host: args.host, tryNext: fixed === undefined, root: args.out });
  const { port } = server.address();
  const shown = args.host.includes(':') ? `[${args.host}]` : args.host;
  console.log(`simhash-wasm demo: http://${shown}:${port}/  (Ctrl+C to stop)`);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  main().catch((error) => {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  });
}
