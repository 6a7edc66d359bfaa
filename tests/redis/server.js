// A redis-server of the tests' own (Debian's; bash .ci/redis.sh installs it): on a free
// loopback port, in a temporary directory, append-only with every write synced, never a
// system service. Without the binary the tests skip, unless CI=true, where that fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/** Why the Redis tests cannot run here, or false. CI=true never skips: a missing server fails there. */
export const MISSING = !existsSync(REDIS_SERVER) && process.env.CI !== 'true'
  && `${REDIS_SERVER} is not installed (bash .ci/redis.sh installs it)`;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server; resolves to { url, port, dir, stop(), kill(), restart() } once it accepts
 * connections. kill() is SIGKILL; restart() starts it again on the same port and directory
 * (its append-only file reloaded). `args` are extra server arguments.
 */
export async function startRedis(args = []) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'simhash-redis-'));
  let child;
  const start = () => new Promise((resolve, reject) => {
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes',
      '--appendfsync', 'always', '--daemonize', 'no', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 20 s:\n${out}`)), 20_000);
    const onData = (chunk) => {
      out += chunk;
      if (/Ready to accept connections/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${out}`));
    });
  });
  const exited = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', resolve);
  });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async kill() {
      child.kill('SIGKILL');
      await exited();
    },
    restart: start,
    async stop() {
      child.kill('SIGTERM');
      await exited();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
