// Runs the package smoke test (smoke.mjs) under every server-side runtime the package
// supports: Node (this one), Bun and Deno (the npm packages `bun` and `deno`, whose binaries
// come from the registry packages' platform dependencies; nothing else is downloaded).
// The package tested is the one users get: `npm pack` of this repository installed into a
// new empty project, where smoke.mjs imports it by name.
//
// Prints each runtime's "<runtime>: N passed, M failed" line, then the time each took.
// A runtime that is missing or does not start is skipped with the reason, except under
// CI=true, where it is a failure. Exits 1 when any runtime failed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { installPackedPackage } from '../browser/browser.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'node_modules/.bin');
const VECTORS = join(ROOT, 'tests/vectors/fingerprints.tsv');
const STRICT = process.env.CI === 'true';
/** A runtime's whole smoke run, CLI runs and pool included, took 0.8-4 s here; this bounds a hang. */
const TIMEOUT_MS = 60_000;

/**
 * Each runtime: its executable and the arguments before the script. Deno gets what the
 * smoke reads (the package, the vectors), writes (the CLI's input file in the temp
 * directory, which it finds through the environment) and runs (itself, for the CLI).
 */
const RUNTIMES = [
  { name: 'node', command: process.execPath, args: [] },
  { name: 'bun', command: join(BIN, 'bun'), args: [] },
  { name: 'deno', command: join(BIN, 'deno'), args: ['run', '--no-lock', '--allow-read', '--allow-write', '--allow-env', '--allow-run'] },
];

/** The runtime's version, or the reason it cannot start. */
function probe({ command }) {
  const result = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (result.error?.code === 'ENOENT') return { reason: `${command} is missing (npm install puts it there: a devDependency)` };
  if (result.error) return { reason: `${command}: ${result.error.code ?? result.error.message}` };
  if (result.status !== 0) return { reason: `${command} --version exited ${result.status}: ${result.stderr.trim()}` };
  return { version: /\d+\.\d+\.\d+\S*/.exec(result.stdout)?.[0] ?? result.stdout.trim() };
}

const packStart = performance.now();
const { work, project } = installPackedPackage('simhash-runtimes-');
const packSeconds = (performance.now() - packStart) / 1000;
let failures = 0;
const timings = [];
try {
  copyFileSync(new URL('./smoke.mjs', import.meta.url), join(project, 'smoke.mjs'));
  copyFileSync(new URL('../vectors/spec.js', import.meta.url), join(project, 'vector-spec.mjs'));
  for (const runtime of RUNTIMES) {
    const { version, reason } = probe(runtime);
    if (reason) {
      if (STRICT) failures++;
      console.log(`${runtime.name}: ${STRICT ? 'FAILED (CI=true): cannot start' : 'skipped'}: ${reason}`);
      continue;
    }
    const start = performance.now();
    const result = spawnSync(runtime.command, [...runtime.args, 'smoke.mjs', VECTORS], {
      cwd: project, encoding: 'utf8', timeout: TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' },
    });
    const seconds = (performance.now() - start) / 1000;
    timings.push(`${runtime.name} ${version} ${seconds.toFixed(2)} s`);
    process.stderr.write(result.stderr);
    const lines = result.stdout.trim().split('\n');
    const summary = new RegExp(`^${runtime.name}: (\\d+) passed, (\\d+) failed$`).exec(lines.at(-1));
    if (summary) console.log(lines.at(-1));
    // A run counts only when it says it ran checks, none failed, and it exited 0 on its own.
    const ok = result.status === 0 && summary && Number(summary[1]) > 0 && summary[2] === '0';
    if (!ok) {
      failures++;
      const why = result.error ? `${result.error.code ?? result.error.message} after ${seconds.toFixed(1)} s` : `exit ${result.status ?? result.signal}`;
      console.log(`${runtime.name}: FAILED (${why}${summary ? '' : ', no summary line'})`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`runtimes: ${timings.join(', ')}; npm pack and install ${packSeconds.toFixed(2)} s`);
process.exitCode = failures > 0 ? 1 : 0;
