#!/usr/bin/env node
// Issue 14: check-ins per second and p99 through the gateway, with the cloud on SQLite (one
// instance, the baseline), on PostgreSQL with one instance, and on PostgreSQL with two instances
// behind one gateway; and the CPU share each process used, since everything shares this machine.
//
//   node bench/stores.js            (BENCH_SECONDS=N per row, default 8)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, startService, stop } from './lib.js';
import { startPostgres } from '../test/support/postgres-cluster.js';

const CLOUD_BIN = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
const GATEWAY_BIN = new URL('../gateway/bin/erasure-gateway.js', import.meta.url).pathname;
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

/** User + system CPU seconds a process has used so far. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
  } catch {
    return 0;
  }
}

/** The postmaster and every backend it forked (their parent pid is the postmaster's). */
function postgresPids(postmaster) {
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU used by named groups of processes over `work`, as a share of one core and of the machine. */
async function measureCpu(groups, work) {
  const sample = () => Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, pids().reduce((s, pid) => s + cpuSeconds(pid), 0)]));
  const before = sample();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const after = sample();
  const shares = Object.fromEntries(Object.keys(groups).map((name) => [name, (after[name] - before[name]) / seconds]));
  return { result, shares };
}

async function setup({ store, instances, postgres }) {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-stores-'));
  const keys = JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, 'keygen', '--json'], { encoding: 'utf8' }));
  const env = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dir,
    INTERNAL_API_SECRET: keys.internal_api_secret,
    DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key,
    ...(store === 'postgres' ? { DATABASE_URL: await postgres.createDatabase() } : {}),
  };
  const cli = (...args) => JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }));
  cli('migrate');
  const account = cli('admin', 'create-account', '--name', 'Bench');
  const minted = cli('admin', 'mint-device-token', '--account', account.id, '--quota', 'unlimited');
  // A fleet: one token per load connection (each machine its own token), besides the shared one.
  const fleet = Array.from({ length: CONNECTIONS }, () => cli('admin', 'mint-device-token', '--account', account.id, '--quota', 'unlimited').token);
  const clouds = [];
  for (let i = 0; i < instances; i++) clouds.push(await startService(CLOUD_BIN, env));
  const gateway = await startService(GATEWAY_BIN, {
    HOST: '127.0.0.1',
    PORT: '0',
    DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey,
    INTERNAL_API_SECRET: keys.internal_api_secret,
    CLOUD_INTERNAL_URL: clouds.map((c) => c.url).join(','),
  });
  return {
    gateway,
    clouds,
    token: minted.token,
    fleet,
    async close() {
      await stop(gateway.child);
      for (const cloud of clouds) await stop(cloud.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measure(label, options) {
  const running = await setup(options);
  try {
    const headers = { authorization: `Bearer ${running.token}` };
    const url = `${running.gateway.url}/api/checkin`;
    // Each load connection checks in with its own token, as a fleet of machines does; the shared
    // token row is measured apart below (every check-in then queues on one row lock).
    let next = 0;
    const setupClient = (client) => client.setHeaders({ authorization: `Bearer ${running.fleet[next++ % running.fleet.length]}` });
    await load({ url, headers, duration: 2, connections: CONNECTIONS, setupClient }); // warm-up: JIT, statement caches, pools
    const groups = {
      gateway: () => [running.gateway.child.pid],
      ...Object.fromEntries(running.clouds.map((c, i) => [`cloud ${i + 1}`, () => [c.child.pid]])),
      ...(options.store === 'postgres' ? { postgres: () => postgresPids(options.postgres.serverPid()) } : {}),
      'load generator': () => [process.pid],
    };
    const { result, shares } = await measureCpu(groups, () => load({ url, headers, duration: DURATION, connections: CONNECTIONS, setupClient }));
    const shared = await load({ url, headers, duration: Math.max(2, DURATION / 2), connections: CONNECTIONS });
    return { label, ...result, shares, shared };
  } finally {
    await running.close();
  }
}

const postgres = await startPostgres();
try {
  const rows = [];
  rows.push(await measure('SQLite, one instance (baseline)', { store: 'sqlite', instances: 1 }));
  rows.push(await measure('PostgreSQL, one instance', { store: 'postgres', instances: 1, postgres }));
  rows.push(await measure('PostgreSQL, two instances', { store: 'postgres', instances: 2, postgres }));

  console.log(`\n# Check-ins through the gateway by store (${DURATION} s per row, ${CONNECTIONS} connections each with its own token, ${cpus().length} cores, all on this machine)`);
  for (const r of rows) {
    console.log(`${r.label.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} check-ins/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms`);
    const share = Object.entries(r.shares).map(([name, s]) => `${name} ${(s * 100).toFixed(0)}%`).join(', ');
    console.log(`${''.padEnd(34)} CPU (100% = one core): ${share}`);
    console.log(`${''.padEnd(34)} one token shared by all ${CONNECTIONS} connections: ${r.shared.rps.toFixed(0)} check-ins/s, p99 ${r.shared.p99} ms`);
  }
  const [sqlite, pgOne, pgTwo] = rows;
  console.log(`PostgreSQL one instance at ${(pgOne.rps / sqlite.rps).toFixed(2)}× the SQLite baseline (goal ≥ 0.7×)`);
  console.log(`PostgreSQL two instances at ${(pgTwo.rps / pgOne.rps).toFixed(2)}× one instance (goal ≥ 1.5×)`);
} finally {
  await postgres.stop();
}
