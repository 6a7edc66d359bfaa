// Shared by the browser tests: Debian's Chromium driven by playwright-core and Debian's
// Firefox ESR driven by puppeteer-core over WebDriver BiDi (never a downloaded browser), and
// a static file server that sends a strict Content-Security-Policy.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** No eval of any kind; WebAssembly compilation is the one exception scripts get. */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'";

const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs a command, returning its stdout; its stderr is in the error when it fails. */
export function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The package as users get it: `npm pack` of this repository installed (offline: it has no
 * dependencies) into a new empty project. Returns { work, tarball, project }; remove `work`.
 */
export function installPackedPackage(prefix) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const tarball = join(work, run('npm', ['pack', '--silent', '--pack-destination', work], ROOT).trim().split('\n').at(-1));
  const project = join(work, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], project);
  return { work, tarball, project };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Firefox ESR, headless, in a new profile that puppeteer-core fills with prefs that turn
 * off updates and background network traffic. Its pages take the same calls the tests make
 * on playwright-core's (goto, evaluate, close, the events watchProblems listens to).
 */
export function launchFirefox() {
  return puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: FIREFOX, headless: true });
}

/**
 * The text of the page's #out once the page writes it (polled, so that playwright-core and
 * puppeteer-core pages are read alike); an Error after `timeout` ms.
 */
export async function outputOf(page, timeout = 30_000) {
  const deadline = performance.now() + timeout;
  for (;;) {
    const out = await page.evaluate(() => document.getElementById('out')?.textContent);
    if (out) return out;
    if (performance.now() > deadline) throw new Error(`the page wrote nothing into #out in ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8', '.csv': 'text/csv; charset=utf-8',
};

/**
 * Collects what went wrong in a page: uncaught errors, console errors and failed
 * requests (other than the favicon browsers ask for on their own).
 */
export function watchProblems(page) {
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}

/**
 * The demo as `npm run demo` serves it (a Vite build under the strict CSP, demo/serve.js) on
 * a free port, built into a directory of its own (test files run at once): resolves to
 * { url, close }; close() stops the server and removes its build.
 */
export function startDemoServer() {
  const root = new URL('../..', import.meta.url).pathname;
  const build = mkdtempSync(join(tmpdir(), 'simhash-demo-build-'));
  const server = spawn(process.execPath, [join(root, 'demo/serve.js'), '--port', '0', '--out', build], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const close = () => {
    server.kill('SIGTERM');
    rmSync(build, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the demo server did not start in 90 s:\n${out}${err}`)), 90_000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/[^\s]+\//);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[0], close });
      }
    });
    server.stderr.on('data', (chunk) => { err += chunk; });
    server.on('exit', (code) => reject(new Error(`the demo server exited with ${code}:\n${out}${err}`)));
  });
}

/** A new page of `browser` on the demo at `url`, once it is ready: { page, problems } (watchProblems). */
export async function openDemo(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const problems = watchProblems(page);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems };
}

/** Serves `root` on a free localhost port; resolves to { url, close }. */
export function serveDirectory(root, { csp = STRICT_CSP } = {}) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(normalize(root))) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': csp });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
