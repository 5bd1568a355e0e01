#!/usr/bin/env node
// Gateway and cloud throughput: verify and check-in through gateway → cloud, the same against the
// cloud directly, a bare Fastify route as the baseline, and validate transactions/s against a raw
// better-sqlite3 UPDATE loop. Uses the built binaries (npm ci builds them).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import Database from 'better-sqlite3';
import { signServiceRequest } from '@erasure/shared';
import { SqliteDatabase } from '../cloud/dist/adapters/sql/sqlite.js';
import { systemClock } from '../cloud/dist/adapters/clock.js';
import { deviceStore } from '../cloud/dist/adapters/db/device-store.js';
import { validateToken } from '../cloud/dist/domain/device/tokens.js';
import { load, row, sequentialLatency, startService, stop } from './lib.js';

const CLOUD_BIN = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
const GATEWAY_BIN = new URL('../gateway/bin/erasure-gateway.js', import.meta.url).pathname;
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-'));
const keys = JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, 'keygen', '--json'], { encoding: 'utf8' }));
const cloudEnv = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, INTERNAL_API_SECRET: keys.internal_api_secret, DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key };
const cli = (...args) => JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...cloudEnv }, encoding: 'utf8' }));
const account = cli('admin', 'create-account', '--name', 'Bench');
const minted = cli('admin', 'mint-device-token', '--account', account.id, '--quota', 'unlimited');

const children = [];
try {
  // Baseline: a bare Fastify route answering a constant, same process model as the services.
  const bare = Fastify();
  bare.post('/bare', async () => ({ allow: true }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const cloud = await startService(CLOUD_BIN, cloudEnv);
  children.push(cloud.child);
  const gateway = await startService(GATEWAY_BIN, {
    HOST: '127.0.0.1', PORT: '0', DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey,
    INTERNAL_API_SECRET: keys.internal_api_secret, CLOUD_INTERNAL_URL: cloud.url,
  });
  children.push(gateway.child);

  const device = { authorization: `Bearer ${minted.token}` };
  const internalBody = JSON.stringify({ jti: minted.jti, account_id: account.id });
  const signed = { 'content-type': 'application/json', ...signServiceRequest(keys.internal_api_secret, internalBody) };

  console.log(`\n# Gateway and cloud (${DURATION} s per row, 32 connections, loopback)`);
  const base = await load({ url: `${bareUrl}/bare`, duration: DURATION });
  console.log(row('baseline: bare Fastify route', base));
  const cloudVerify = await load({ url: `${cloud.url}/internal/tokens/verify`, headers: signed, body: internalBody, duration: DURATION });
  console.log(row('cloud direct: POST /internal/tokens/verify', cloudVerify));
  const gwVerify = await load({ url: `${gateway.url}/api/verify`, headers: device, duration: DURATION });
  console.log(row('gateway → cloud: POST /api/verify', gwVerify));
  const cloudCheckin = await load({ url: `${cloud.url}/internal/tokens/validate`, headers: signed, body: internalBody, duration: DURATION });
  console.log(row('cloud direct: POST /internal/tokens/validate', cloudCheckin));
  const gwCheckin = await load({ url: `${gateway.url}/api/checkin`, headers: device, duration: DURATION });
  console.log(row('gateway → cloud: POST /api/checkin', gwCheckin));
  console.log(`check-in through the gateway ${gwCheckin.rps.toFixed(0)}/s (goal ≥ 3000/s)`);

  // Overhead of the gateway hop itself: one request in flight, so no queueing hides or inflates it.
  console.log('\n# Gateway overhead, one request at a time (µs)');
  const us = (n) => `${n.toFixed(0).padStart(6)} µs`;
  for (const [name, path, internal] of [['verify', '/api/verify', '/internal/tokens/verify'], ['check-in', '/api/checkin', '/internal/tokens/validate']]) {
    const direct = await sequentialLatency({ url: `${cloud.url}${internal}`, headers: signed, body: internalBody });
    const via = await sequentialLatency({ url: `${gateway.url}${path}`, headers: device });
    console.log(`${name.padEnd(9)} cloud direct p50 ${us(direct.p50)} p99 ${us(direct.p99)}   via gateway p50 ${us(via.p50)} p99 ${us(via.p99)}   overhead p50 ${us(via.p50 - direct.p50)} (goal ≤ 1000 µs)`);
  }
  await bare.close();
} finally {
  for (const child of children.reverse()) await stop(child);
}

// Validate transactions/s (the metering statement + check-in row) against a raw UPDATE loop.
const N = 20_000;
const db = SqliteDatabase.open(join(dir, 'cloud.sqlite'));
let t = performance.now();
for (let i = 0; i < N; i++) {
  const outcome = await db.transaction((tx) => validateToken({ db: tx, clock: systemClock, store: deviceStore }, { jti: minted.jti }));
  if (outcome.kind !== 'allow') throw new Error(`validate ${i}: ${outcome.kind}`);
}
const validateRate = N / ((performance.now() - t) / 1000);
await db.close();
const raw = new Database(join(dir, 'raw.sqlite'));
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = FULL');
raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)');
raw.prepare('INSERT INTO t (id, n) VALUES (1, 0)').run();
const update = raw.prepare('UPDATE t SET n = n + 1 WHERE id = 1');
t = performance.now();
for (let i = 0; i < N; i++) update.run();
const rawRate = N / ((performance.now() - t) / 1000);
raw.close();
console.log(`\n# Metering (${N} sequential transactions, WAL, synchronous=FULL)`);
console.log(`validate (ladder UPDATE … RETURNING + check-in row, one transaction) ${validateRate.toFixed(0).padStart(8)} tx/s`);
console.log(`baseline: raw better-sqlite3 UPDATE loop                          ${rawRate.toFixed(0).padStart(8)} tx/s   (validate at ${(validateRate / rawRate * 100).toFixed(0)}% of raw)`);
rmSync(dir, { recursive: true, force: true });
