#!/usr/bin/env node
// Named methods (issue 29): DoD 5220.22-M (3 passes) with its full verification, against three dd
// passes (zeros, 0xFF, random bytes) and one dd read of the same loop device in the same run; and a
// 10 % sampled verification against a full read (the median of several alternating rounds, so
// both see the same background load). Needs root, losetup and a built engine-agent.
// Usage: node bench/methods.js [size MiB] [rounds]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The agent's binary sizes libuv's threadpool before it starts (bin/erasure-agent.js), which is
// what lets a sample keep its reads in flight; an ES module cannot, so this bench runs itself
// again with the same setting (as bench/erase-parallel.js does).
if (!process.env.UV_THREADPOOL_SIZE) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, UV_THREADPOOL_SIZE: '128' } });
  process.exit(r.status ?? 1);
}

const { findMethod } = await import('../shared/dist/index.js');
const { overwriteAndVerify, sampleVerify } = await import('../engine-agent/dist/erase/overwrite-verify.js');
const { openMedium } = await import('../engine-agent/dist/erase/medium.js');
const { passPatterns, ZERO } = await import('../engine-agent/dist/erase/pattern.js');
const { verifyPass } = await import('../engine-agent/dist/erase/verify.js');

const sizeMiB = Number(process.argv[2] ?? 512);
const ROUNDS = Number(process.argv[3] ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bytes = sizeMiB * 1024 * 1024;
if (process.getuid?.() !== 0) {
  console.error('bench/methods.js needs root (losetup)');
  process.exit(1);
}
// /var/tmp, not /tmp: the backing file must sit on a disk filesystem, not tmpfs.
const dir = mkdtempSync('/var/tmp/methods-bench-');
const file = join(dir, 'disk.img');
execFileSync('truncate', ['-s', `${sizeMiB}M`, file]);
const dev = execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], { encoding: 'utf8' }).trim();
const count = `count=${Math.floor(sizeMiB / 4)}`;
const ms = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
const msAsync = async (fn) => {
  const t = performance.now();
  const r = await fn();
  return { ms: performance.now() - t, r };
};
const dd = (args) => ms(() => execFileSync('dd', args, { stdio: 'ignore' }));
try {
  // Warm-up: allocate the backing file once so every run writes over allocated blocks.
  dd(['if=/dev/zero', `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']);
  // dd's patterns come from page-cached files, so dd pays nothing to make them (its best case).
  const ones = join(dir, 'ones.bin');
  execFileSync('sh', ['-c', `head -c ${bytes} /dev/zero | tr '\\000' '\\377' > ${ones}`]);
  const random = join(dir, 'random.bin');
  execFileSync('dd', ['if=/dev/urandom', `of=${random}`, 'bs=4M', count], { stdio: 'ignore' });
  dd([`if=${ones}`, 'of=/dev/null', 'bs=4M']);
  dd([`if=${random}`, 'of=/dev/null', 'bs=4M']);
  const load = loadavg()[0];
  const write = (source) => dd([`if=${source}`, `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']);
  const ddRead = () => dd([`if=${dev}`, 'of=/dev/null', 'bs=4M', 'iflag=direct']);
  const ddThree = write('/dev/zero') + write(ones) + write(random) + ddRead();
  const dod = findMethod('dod-5220.22-m-3');
  const agent = await msAsync(() => overwriteAndVerify(dev, passPatterns(dod.passes), { verification: 'full' }));
  if (!agent.r.verified) throw new Error(`DoD verification failed: ${agent.r.summary}`);
  // Sampled vs full read of the same (zeroed) device, the agent's own read path both times.
  write('/dev/zero');
  const medium = await openMedium(dev);
  const fulls = [];
  const samples = [];
  const ratios = [];
  let blocks;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const full = await msAsync(() => verifyPass(medium, ZERO));
      const sample = await msAsync(() => sampleVerify(medium, ZERO, 10));
      const { plan, stats } = sample.r;
      blocks = `${stats.blocksRead} of ${plan.blocks} blocks of ${plan.blockBytes} B`;
      if (!full.r.matches || stats.bad !== 0) throw new Error('verification failed during the bench');
      fulls.push(full.ms);
      samples.push(sample.ms);
      ratios.push(sample.ms / full.ms);
    }
  } finally {
    await medium.handle.close();
  }
  const ddReadAgain = ddRead();
  const rows = [
    ['dd: zeros + 0xFF + random, then one read', ddThree, 1, ''],
    ['agent DoD 5220.22-M (3 passes) + full verify', agent.ms, ddThree / agent.ms, '>= 0.9x dd (speed ratio)'],
    ['dd read (bs=4M iflag=direct)', ddReadAgain, 1, ''],
    [`agent full verification (SHA-256), median of ${ROUNDS}`, median(fulls), median(fulls) / ddReadAgain, 'time vs dd read'],
    [`agent 10% sampled verification (${blocks}), median`, median(samples), median(ratios), '<= 0.15x the full read (time; median of the rounds\' ratios)'],
  ];
  console.log(`methods bench on ${dev} (${sizeMiB} MiB, loop --direct-io=on over ${file}); load average ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
  for (const [name, t, ratio, goal] of rows) console.log(`${name.padEnd(80)} ${(t / 1000).toFixed(2).padStart(7)} s  ${ratio.toFixed(2)}x  ${goal}`);
  console.log(`sample/full per round: ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
} finally {
  execFileSync('losetup', ['-d', dev]);
  rmSync(dir, { recursive: true, force: true });
}
