// A throwaway PostgreSQL cluster, shared by the tests (postgres.ts types it) and the benchmarks.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * `initdb` into a temporary folder, `pg_ctl start` on a Unix socket in that folder (no TCP port,
 * nothing reachable from outside), trust auth for the local socket only; `stop()` shuts it down
 * and removes the folder. Debian's server binaries live in /usr/lib/postgresql/<version>/bin
 * (`.ci/run` installs the `postgresql` package when missing). PostgreSQL refuses to run as root,
 * so as root the server runs as the `postgres` user.
 */
function serverBin(name) {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', name))).sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(`PostgreSQL server binary ${name} not found under ${root}: apt-get install postgresql (.ci/run does)`);
  }
  return join(root, versions[0], 'bin', name);
}

const asRoot = process.getuid?.() === 0;

function runServerTool(bin, args) {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
}

let databases = 0;

/** @param {{ settings?: Record<string, string> }} [options] extra `-c` server settings */
export async function startPostgres(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-pg-'));
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const data = join(dir, 'data');
  const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  runServerTool(serverBin('initdb'), ['-D', data, '-U', user, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '-N']);
  // No TCP listener; the socket lives in the cluster's own folder. fsync stays on: the tests
  // that kill processes mid-write rely on the same durability a real deployment has.
  const settings = { listen_addresses: "''", unix_socket_directories: `'${dir}'`, max_connections: '200', shared_buffers: '64MB', ...options.settings };
  const flags = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');
  runServerTool(serverBin('pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', flags, '-w', '-t', '60', 'start']);
  const urlFor = (database) => `postgresql://${encodeURIComponent(user)}@/${database}?host=${encodeURIComponent(dir)}`;
  const adminUrl = urlFor('postgres');
  return {
    adminUrl,
    /** The postmaster's pid (its backends are its children). */
    serverPid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async createDatabase(name = `test_${process.pid}_${++databases}`) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    async stop() {
      try {
        runServerTool(serverBin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
