#!/usr/bin/env node
// Validation read (issue 29): the validate mode's full read of a drive, which checks every 4 KiB
// block against what the method left and scans what differs for file signatures, against a
// `dd iflag=direct` read of the same loop device in the same run. Each round runs dd and the
// reader back to back (same background load); the figure is the median of the rounds' ratios.
// Needs root, losetup and a built engine-agent. Usage: node bench/validation.js [size MiB] [rounds]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// As the agent runs (bin/erasure-agent.js sizes libuv's threadpool before it starts).
if (!process.env.UV_THREADPOOL_SIZE) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, UV_THREADPOOL_SIZE: '128' } });
  process.exit(r.status ?? 1);
}

const { readAndCheckDrive } = await import('../engine-agent/dist/validate/read-drive.js');

const sizeMiB = Number(process.argv[2] ?? 1024);
const ROUNDS = Number(process.argv[3] ?? 5);
if (process.getuid?.() !== 0) {
  console.error('bench/validation.js needs root (losetup)');
  process.exit(1);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// /var/tmp, not /tmp: the backing file must sit on a disk filesystem, not tmpfs.
const dir = mkdtempSync('/var/tmp/validation-bench-');
const file = join(dir, 'disk.img');
execFileSync('truncate', ['-s', `${sizeMiB}M`, file]);
const dev = execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], { encoding: 'utf8' }).trim();
const count = `count=${Math.floor(sizeMiB / 4)}`;
const dd = (args) => {
  const t = performance.now();
  execFileSync('dd', args, { stdio: 'ignore' });
  return performance.now() - t;
};
const ddRead = () => dd([`if=${dev}`, 'of=/dev/null', 'bs=4M', 'iflag=direct']);
try {
  const load = loadavg()[0];
  const rows = [];
  // Zeros (what Clear and most named methods leave) and random bytes (a crypto erase or a final
  // random pass: every 4 KiB block's entropy is measured, the reader's most expensive check).
  for (const [name, source, expected] of [
    ['zeros', '/dev/zero', { kind: 'zeros' }],
    ['high-entropy data', '/dev/urandom', { kind: 'random' }],
  ]) {
    dd([`if=${source}`, `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']);
    const dds = [];
    const reads = [];
    const ratios = [];
    for (let round = 0; round < ROUNDS; round++) {
      const base = ddRead();
      const t = performance.now();
      const read = await readAndCheckDrive({ device: dev, expected });
      const ms = performance.now() - t;
      if (!read.approved || read.bytesRead !== sizeMiB * 1024 * 1024) throw new Error(`validation of ${name} failed during the bench`);
      dds.push(base);
      reads.push(ms);
      ratios.push(base / ms);
    }
    rows.push({ name, dd: median(dds), read: median(reads), ratio: median(ratios), ratios });
  }
  console.log(`validation bench on ${dev} (${sizeMiB} MiB, loop --direct-io=on over ${file}); load average ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
  for (const r of rows) {
    console.log(`${`validation read of ${r.name} vs dd bs=4M iflag=direct`.padEnd(64)} ${(r.read / 1000).toFixed(2)} s vs ${(r.dd / 1000).toFixed(2)} s  ${r.ratio.toFixed(2)}x dd's speed (goal >= 0.9x; median of ${ROUNDS})`);
    console.log(`  per round: ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
  }
} finally {
  execFileSync('losetup', ['-d', dev]);
  rmSync(dir, { recursive: true, force: true });
}
