#!/usr/bin/env node
// A hotswap station erasing four drives at once: aggregate zero-overwrite + verify throughput of
// the agent's erase path on 4 loop devices concurrently, against the same on one device alone,
// beside dd's own 4-writers-vs-1 ratio on the same storage (what the storage itself allows).
// Needs root, losetup and a built engine-agent (npm ci). Usage: node bench/station.js [size MiB]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { overwriteAndVerify } from '../engine-agent/dist/erase/overwrite-verify.js';

const sizeMiB = Number(process.argv[2] ?? 256);
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
} finally {
  for (const d of devices) execFileSync('losetup', ['-d', d]);
  rmSync(dir, { recursive: true, force: true });
}
