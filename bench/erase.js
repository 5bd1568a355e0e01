#!/usr/bin/env node
// Overwrite and verify throughput of the engine agent against dd on the same loop device.
// Needs root, losetup and a built engine-agent (npm ci). Usage: node bench/erase.js [size MiB]
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openMedium, settle } from '../engine-agent/dist/erase/medium.js';
import { sharedSlots } from '../engine-agent/dist/erase/keystream-pool.js';
import { writePass } from '../engine-agent/dist/erase/overwrite.js';
import { prngPattern, ZERO } from '../engine-agent/dist/erase/pattern.js';
import { verifyPass } from '../engine-agent/dist/erase/verify.js';

const sizeMiB = Number(process.argv[2] ?? 1024);
const bytes = sizeMiB * 1024 * 1024;
if (process.getuid?.() !== 0) {
  console.error('bench/erase.js needs root (losetup)');
  process.exit(1);
}
// /var/tmp, not /tmp: the backing file must sit on a disk filesystem, not tmpfs.
const dir = mkdtempSync('/var/tmp/erase-bench-');
const file = join(dir, 'disk.img');
execFileSync('truncate', ['-s', `${sizeMiB}M`, file]);
const dev = execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], { encoding: 'utf8' }).trim();
const count = `count=${Math.floor(sizeMiB / 4)}`; // dd past the end would exit 1 (ENOSPC)
const mbps = (ms) => bytes / 1e6 / (ms / 1000);
const ddSeconds = (args) => {
  const t = performance.now();
  execFileSync('dd', args, { stdio: 'ignore' });
  return performance.now() - t;
};
try {
  // Warm-up: allocate the backing file once so every run writes over allocated blocks.
  ddSeconds([`if=/dev/zero`, `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']);
  const ddWrite = mbps(ddSeconds([`if=/dev/zero`, `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']));
  // The storage under this VM detects zero writes, so zeros and random data do not cost the same:
  // the PRNG pass is also compared with dd writing random bytes (a pre-generated file, page-cached).
  const random = join(dir, 'random.bin');
  execFileSync('dd', ['if=/dev/urandom', `of=${random}`, 'bs=4M', count], { stdio: 'ignore' });
  ddSeconds([`if=${random}`, 'of=/dev/null', 'bs=4M']);
  const ddRandomWrite = mbps(ddSeconds([`if=${random}`, `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']));
  const ddRead = mbps(ddSeconds([`if=${dev}`, 'of=/dev/null', 'bs=4M', 'iflag=direct']));
  // The single-stream SHA-256 ceiling: one node:crypto stream over in-memory 4 MiB chunks, the
  // most a verification can reach (its hash is one sequential stream), measured in this run.
  const shaCeiling = (() => {
    const chunk = randomBytes(4 * 1024 * 1024);
    const rounds = Math.max(64, Math.floor(bytes / chunk.length));
    const hash = createHash('sha256');
    const t = performance.now();
    for (let i = 0; i < rounds; i++) hash.update(chunk);
    hash.digest();
    return (rounds * chunk.length) / 1e6 / ((performance.now() - t) / 1000);
  })();
  const verifyGoal = Math.min(ddRead, shaCeiling);
  const medium = await openMedium(dev);
  // CPU seconds of this process (worker threads included) per phase: on a shared machine the
  // wall-clock rate says who else was running; bytes per CPU-second says what the agent costs.
  const cpu = {};
  const timed = async (name, fn) => {
    const before = process.cpuUsage();
    const result = await fn();
    const used = process.cpuUsage(before);
    cpu[name] = (used.user + used.system) / 1e6;
    return result;
  };
  const load = loadavg()[0];
  try {
    const zero = await timed('zero', () => writePass(medium, ZERO));
    // The agent's own read path alone (O_DIRECT preads, 3 in flight, no compare, no hash), right
    // before the verify: what the storage gives node at this moment.
    await settle(medium);
    const rawRead = await timed('rawRead', async () => {
      const started = performance.now();
      const chunk = 4 * 1024 * 1024;
      const slots = sharedSlots(3, chunk, 4096);
      let next = 0;
      await Promise.all(
        slots.buffers.map(async (buffer) => {
          while (next < bytes) {
            const at = next;
            next += chunk;
            await medium.handle.read(buffer, 0, Math.min(chunk, bytes - at), at);
          }
        }),
      );
      return { ms: performance.now() - started };
    });
    const zeroVerify = await timed('zeroVerify', () => verifyPass(medium, ZERO));
    const prng = prngPattern();
    const prngPass = await timed('prng', () => writePass(medium, prng));
    const prngVerify = await timed('prngVerify', () => verifyPass(medium, prng));
    if (!zeroVerify.matches || !prngVerify.matches) throw new Error('verification failed during the bench');
    const perCpu = (name) => `${(bytes / 1e6 / cpu[name]).toFixed(0).padStart(6)} MB/cpu-s`;
    const rows = [
      ['dd write (bs=4M oflag=direct conv=fdatasync)', ddWrite, 1, '', ''],
      ['dd read (bs=4M iflag=direct)', ddRead, 1, '', ''],
      ['agent zero overwrite', mbps(zero.ms), mbps(zero.ms) / ddWrite, '>= 1.0x dd write', perCpu('zero')],
      ['dd write of random bytes (same flags)', ddRandomWrite, ddRandomWrite / ddWrite, 'storage cost of non-zero data', ''],
      ['agent PRNG (AES-128-CTR) overwrite', mbps(prngPass.ms), mbps(prngPass.ms) / ddWrite, '>= 0.9x dd write', perCpu('prng')],
      ['agent PRNG vs dd write of random bytes', mbps(prngPass.ms), mbps(prngPass.ms) / ddRandomWrite, '>= 0.9x', ''],
      ['SHA-256 single stream (in memory, 4 MiB)', shaCeiling, shaCeiling / ddRead, 'verify ceiling', ''],
      ['agent raw O_DIRECT reads (no compare, no hash)', mbps(rawRead.ms), mbps(rawRead.ms) / ddRead, 'storage as node sees it now', ''],
      ['agent verify zeros (SHA-256)', mbps(zeroVerify.ms), mbps(zeroVerify.ms) / verifyGoal, '>= 0.9x min(dd read, SHA-256)', perCpu('zeroVerify')],
      ['agent verify PRNG (SHA-256 + regenerate)', mbps(prngVerify.ms), mbps(prngVerify.ms) / verifyGoal, '>= 0.9x min(dd read, SHA-256)', perCpu('prngVerify')],
    ];
    console.log(`erase bench on ${dev} (${sizeMiB} MiB, loop --direct-io=on over ${file}); load average ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
    for (const [name, rate, ratio, goal, cost] of rows) {
      console.log(`${name.padEnd(46)} ${rate.toFixed(0).padStart(6)} MB/s  ${ratio.toFixed(2)}x  ${goal.padEnd(30)}${cost}`);
    }
  } finally {
    await medium.handle.close();
  }
} finally {
  execFileSync('losetup', ['-d', dev]);
  rmSync(dir, { recursive: true, force: true });
}
