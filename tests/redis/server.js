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

/**
 * A Redis Cluster of `count` masters (no replicas), each a server as startRedis starts one
 * with cluster mode on, its slots assigned by `redis-cli --cluster create`. Resolves to {
 * nodes: [{ host, port }], stop() }.
 */
export async function startCluster(count = 3) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await startRedis(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--appendonly', 'no']));
    const cli = REDIS_SERVER.replace(/redis-server$/, 'redis-cli');
    await new Promise((resolve, reject) => {
      const create = spawn(cli, ['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', '0', '--cluster-yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      create.stdout.on('data', (chunk) => { out += chunk; });
      create.stderr.on('data', (chunk) => { out += chunk; });
      create.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`redis-cli --cluster create exited with ${code}:\n${out}`))));
    });
    // Every node knows every slot's owner before a client asks.
    const cli2 = (port, args) => new Promise((resolve) => {
      const p = spawn(cli, ['-p', String(port), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      p.stdout.on('data', (chunk) => { out += chunk; });
      p.on('exit', () => resolve(out));
    });
    for (const deadline = Date.now() + 20_000; ;) {
      const states = await Promise.all(servers.map((s) => cli2(s.port, ['cluster', 'info'])));
      if (states.every((state) => /cluster_state:ok/.test(state))) break;
      if (Date.now() > deadline) throw new Error('the cluster did not reach cluster_state:ok in 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
  return {
    nodes: servers.map((s) => ({ host: '127.0.0.1', port: s.port })),
    stop: () => Promise.all(servers.map((s) => s.stop())),
  };
}
