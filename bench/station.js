#!/usr/bin/env node
// A hotswap station erasing four drives at once: aggregate zero-overwrite + verify throughput of
// the agent's erase path on 4 loop devices concurrently, against the same on one device alone,
// beside dd's own 4-writers-vs-1 ratio on the same storage (what the storage itself allows).
// Then the station's own path: a udev insertion through the settle window, the bay runner's
// check-in through a real gateway and cloud on loopback, to the first bytes erased, beside its
// floor (the settle window plus one bare check-in round trip).
// Needs root, losetup and built workspaces (npm ci). Usage: node bench/station.js [size MiB]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import si from 'systeminformation';
import { openCloud } from '../engine-agent/dist/agent.js';
import { createRunner } from '../engine-agent/dist/adapters/runner.js';
import { stationBayRunner } from '../engine-agent/dist/adapters/station-bay-runner.js';
import { nodeSystemView } from '../engine-agent/dist/adapters/system-view.js';
import { loadConfig } from '../engine-agent/dist/config.js';
import { overwriteAndVerify } from '../engine-agent/dist/erase/overwrite-verify.js';
import { readDriveIdentity } from '../engine-agent/dist/probes/drive-identity.js';
import { guardTarget } from '../engine-agent/dist/safety/guard.js';
import { DEFAULT_LIMITS } from '../engine-agent/dist/session/types.js';
import { createDebouncer, DEFAULT_SETTLE_MS } from '../engine-agent/dist/station/debounce.js';
import { createStation } from '../engine-agent/dist/station/station.js';
import { createUdevParser } from '../engine-agent/dist/station/udev-events.js';
import { startService, stop } from './lib.js';

const sizeMiB = Number(process.argv[2] ?? 256);
const CLOUD_BIN = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
const GATEWAY_BIN = new URL('../gateway/bin/erasure-gateway.js', import.meta.url).pathname;
/** Insertions timed through the station path, and check-ins timed alone for its baseline. */
const INSERTIONS = Number(process.env.BENCH_STATION_INSERTIONS ?? 5);
const CHECKINS = 20;
const bytes = sizeMiB * 1024 * 1024;
if (process.getuid?.() !== 0) {
  console.error('bench/station.js needs root (losetup)');
  process.exit(1);
}
const dir = mkdtempSync('/var/tmp/station-bench-');
const devices = [];
const mbps = (totalBytes, ms) => totalBytes / 1e6 / (ms / 1000);
const dd = (dev) =>
  new Promise((resolve, reject) => {
    const child = spawn('dd', ['if=/dev/zero', `of=${dev}`, 'bs=4M', `count=${Math.floor(sizeMiB / 4)}`, 'oflag=direct', 'conv=fdatasync'], { stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`dd exit ${code}`))));
  });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The station's own path, timed per insertion: udev's `add` of the drive (as `udevadm monitor`
 * prints it) goes through the parser and the debouncer on real timers (the settle window), the
 * station starts the bay under auto-start, and the bay runner probes the drive, checks it in
 * through the gateway and the cloud (product hotswap, its own job id) and erases. "First bytes
 * erased" is the bay's first progress report, sent when the first write (4 MiB) completed.
 * The baseline is the floor of that path: the settle window plus one check-in round trip
 * through the same client, timed alone.
 */
async function stationPath(workDir, loops) {
  const keys = JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, 'keygen', '--json'], { encoding: 'utf8' }));
  const cloudEnv = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(workDir, 'cloud'), INTERNAL_API_SECRET: keys.internal_api_secret, DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key };
  mkdirSync(cloudEnv.DATA_DIR, { recursive: true });
  const cli = (...args) => JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...cloudEnv }, encoding: 'utf8' }));
  const account = cli('admin', 'create-account', '--name', 'Station bench');
  writeFileSync(join(workDir, 'device-token'), `${cli('admin', 'mint-device-token', '--account', account.id, '--product', 'hotswap', '--quota', 'unlimited').token}\n`);
  const children = [];
  try {
    const cloud = await startService(CLOUD_BIN, cloudEnv);
    children.push(cloud.child);
    const gateway = await startService(GATEWAY_BIN, { HOST: '127.0.0.1', PORT: '0', DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey, INTERNAL_API_SECRET: keys.internal_api_secret, CLOUD_INTERNAL_URL: cloud.url });
    children.push(gateway.child);
    const env = {
      config: loadConfig({ ERASURE_GATEWAY_URL: gateway.url, ERASURE_DEVICE_TOKEN_FILE: join(workDir, 'device-token'), DATA_DIR: join(workDir, 'agent') }),
      run: createRunner(),
      sys: nodeSystemView(),
      si,
      now: () => new Date(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      version: '0.1.0',
      limits: { ...DEFAULT_LIMITS, certificateLookupDelaysMs: [] },
    };

    // Baseline: check-ins alone, one at a time, through the agent's own client (after a warm-up).
    const client = await openCloud(env);
    const rtt = [];
    for (let i = 0; i < CHECKINS + 3; i++) {
      const started = performance.now();
      const r = await client.call('checkin', {});
      if (!r.ok) throw new Error(`bench check-in refused: ${JSON.stringify(r.error)}`);
      if (i >= 3) rtt.push(performance.now() - started);
    }

    const device = loops[0];
    let marks = {};
    const stamp = (name) => (marks[name] ??= performance.now());
    const station = createStation(
      { name: 'Station bench', bays: [{ lane: 'bench-lane', label: 'Bay 1' }] },
      {
        laneOf: async () => ({ lane: 'bench-lane', connector: { transport: 'scsi', controller: '0000:00:03.0', target: '0:0:0:0' } }),
        // The bay's work is bound to the disk probed, as the real probe binds it.
        probe: async (d) => ({ device: d, health: 'unknown', identity: await readDriveIdentity(env.sys, d) }),
        guard: async (d) => {
          const v = await guardTarget(env.sys, d, [d]);
          return v.ok ? { ok: true } : { ok: false, reason: v.reason };
        },
        runBay: stationBayRunner(env, { account: 'Station bench', recordId: 'CW-20261125-070000' }),
        changed: () => {
          const bay = station.views()[0].bay;
          if (bay.state === 'checking_in') stamp('checkingIn');
          if (bay.state === 'erasing') stamp(bay.progress ? 'firstBytes' : 'allowed');
          if (bay.state === 'passed' || bay.state === 'failed' || bay.state === 'empty') stamp(bay.state);
        },
      },
      () => 'auto',
    );
    const parse = createUdevParser();
    const debouncer = createDebouncer({
      settleMs: DEFAULT_SETTLE_MS,
      timers: { set: (ms, fn) => { const t = setTimeout(fn, ms); return () => clearTimeout(t); } },
      onSettled: (p) => void station.presence(p),
    });
    const devpath = `/devices/pci0000:00/0000:00:03.0/virtio1/host0/target0:0:0/0:0:0:0/block/${device.slice(5)}`;
    const udev = (action) => `UDEV  [${(performance.now() / 1000).toFixed(6)}] ${action.padEnd(8)} ${devpath} (block)\nACTION=${action}\nDEVPATH=${devpath}\nSUBSYSTEM=block\nDEVNAME=${device}\nDEVTYPE=disk\nID_PATH=pci-0000:00:03.0-scsi-0:0:0:0\n\n`;
    const until = async (name) => {
      const deadline = performance.now() + 120_000;
      while (marks[name] === undefined) {
        if (performance.now() > deadline) throw new Error(`station bench: no ${name} (bay ${station.views()[0].bay.state})`);
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    const runs = [];
    for (let i = 0; i < INSERTIONS; i++) {
      marks = {};
      const inserted = performance.now();
      for (const ev of parse(udev('add'))) debouncer.push(ev);
      await Promise.race([until('passed'), until('failed')]);
      if (marks.failed !== undefined) throw new Error(`station bench: bay failed: ${station.views()[0].bay.reason}`);
      runs.push({ settle: marks.checkingIn - inserted, checkin: marks.allowed - marks.checkingIn, write: marks.firstBytes - marks.allowed, total: marks.firstBytes - inserted });
      marks = {};
      for (const ev of parse(udev('remove'))) debouncer.push(ev);
      await until('empty');
    }
    return { runs, rtt };
  } finally {
    for (const child of children) await stop(child);
  }
}

const timed = async (fn) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
try {
  for (let i = 0; i < 4; i++) {
    const file = join(dir, `bay${i}.img`);
    execFileSync('truncate', ['-s', `${sizeMiB}M`, file]);
    devices.push(execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], { encoding: 'utf8' }).trim());
  }
  // Allocate every backing file once, so each run writes over allocated blocks.
  await Promise.all(devices.map(dd));
  const load = loadavg()[0];
  const ddOne = await timed(() => dd(devices[0]));
  const ddFour = await timed(() => Promise.all(devices.map(dd)));
  const agentOne = await timed(() => overwriteAndVerify(devices[0], 'zero'));
  const agentFour = await timed(async () => {
    const results = await Promise.all(devices.map((d) => overwriteAndVerify(d, 'zero')));
    if (!results.every((r) => r.verified)) throw new Error('verification failed during the bench');
  });
  const rows = [
    ['dd zero write, one device', mbps(bytes, ddOne)],
    ['dd zero write, four devices at once (aggregate)', mbps(4 * bytes, ddFour)],
    ['agent overwrite + verify, one bay', mbps(bytes, agentOne)],
    ['agent overwrite + verify, four bays at once (aggregate)', mbps(4 * bytes, agentFour)],
  ];
  console.log(`station bench: ${sizeMiB} MiB per bay, loop --direct-io=on over files in ${dir}; load average ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
  for (const [name, rate] of rows) console.log(`${name.padEnd(56)} ${rate.toFixed(0).padStart(6)} MB/s`);
  const agentRatio = agentOne / agentFour * 4;
  const ddRatio = ddOne / ddFour * 4;
  console.log(`4 bays: ${agentRatio.toFixed(2)}x one bay (goal >= 3.5x where the storage allows it); dd 4 writers: ${ddRatio.toFixed(2)}x one writer on the same storage`);

  const { runs, rtt } = await stationPath(join(dir, 'stack'), devices);
  const ms = (x) => `${x.toFixed(0).padStart(6)} ms`;
  const col = (key) => runs.map((r) => r[key]);
  console.log(`station path: ${runs.length} insertions of a ${sizeMiB} MiB bay, udev add -> settle -> check-in through gateway + cloud on loopback -> first 4 MiB written (medians)`);
  console.log(`${'insertion -> checking in (settle window, station)'.padEnd(56)} ${ms(median(col('settle')))}`);
  console.log(`${'checking in -> check-in allowed (guard, probe, check-in)'.padEnd(56)} ${ms(median(col('checkin')))}`);
  console.log(`${'check-in allowed -> first bytes erased'.padEnd(56)} ${ms(median(col('write')))}`);
  console.log(`${'insertion -> first bytes erased'.padEnd(56)} ${ms(median(col('total')))}   (${Math.min(...col('total')).toFixed(0)}-${Math.max(...col('total')).toFixed(0)} ms)`);
  const floor = DEFAULT_SETTLE_MS + median(rtt);
  console.log(`${'baseline: settle window + one bare check-in round trip'.padEnd(56)} ${ms(floor)}   (${DEFAULT_SETTLE_MS} + ${median(rtt).toFixed(1)} ms; the station adds ${(median(col('total')) - floor).toFixed(0)} ms)`);
} finally {
  for (const d of devices) execFileSync('losetup', ['-d', d]);
  rmSync(dir, { recursive: true, force: true });
}
