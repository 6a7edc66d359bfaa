// What the CLI's test files share: the CLI run as a child process, and a directory of files
// for it, removed after the file's tests.
import { after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = new URL('../../js/cli/main.js', import.meta.url).pathname;
export const dir = mkdtempSync(join(tmpdir(), 'simhash-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI run with `args` and standard input `input`: { status, stdout, stderr } as text. */
export function cli(args, input = '') {
  const { status, stdout, stderr } = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
  return { status, stdout, stderr };
}

/** The CLI with its output as bytes. */
export function cliBytes(args, input) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [CLI, ...args], { input });
  return { status, stdout, stderr: stderr.toString() };
}

/** Writes `content` to `name` in `dir`; returns its path. */
export function file(name, content) {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The JSON values of output written one per line. */
export const jsonLines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));
