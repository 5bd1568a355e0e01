#!/usr/bin/env node
// Four drives erased in one run against one drive alone, beside four dd writers (and readers)
// run in parallel on the same kind of loop devices, measured in the same run.
// Each figure is the median of several rounds; within a round dd and the agent run back to back on
// the same devices, so the ratios compare runs under the same background load.
// Needs root, losetup and a built engine-agent. Usage: node bench/erase-parallel.js [size MiB per drive] [rounds]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The agent's binary sizes libuv's threadpool before it starts (bin/erasure-agent.js); an ES
// module cannot, so this bench runs itself again with the same setting.
if (!process.env.UV_THREADPOOL_SIZE) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, UV_THREADPOOL_SIZE: '128' } });
  process.exit(r.status ?? 1);
}

const { eraseDrive } = await import('../engine-agent/dist/erase/erase-drive.js');
const { createRunner } = await import('../engine-agent/dist/adapters/runner.js');
const { nodeSystemView } = await import('../engine-agent/dist/adapters/system-view.js');

const sizeMiB = Number(process.argv[2] ?? 1024);
const ROUNDS = Number(process.argv[3] ?? 5);
const bytes = sizeMiB * 1024 * 1024;
const DRIVES = 4;
if (process.getuid?.() !== 0) {
  console.error('bench/erase-parallel.js needs root (losetup)');
  process.exit(1);
}
// /var/tmp, not /tmp: the backing files must sit on a disk filesystem, not tmpfs.
const dir = mkdtempSync('/var/tmp/erase-parallel-bench-');
const devices = [];
const mbps = (total, ms) => total / 1e6 / (ms / 1000);
const count = `count=${Math.floor(sizeMiB / 4)}`;

/** `n` dd processes at once, one per device; resolves with the wall-clock milliseconds of the slowest. */
async function ddAll(targets, args) {
  const started = performance.now();
  await Promise.all(
    targets.map(
      (dev) =>
        new Promise((resolve, reject) => {
          const child = spawn('dd', args(dev), { stdio: 'ignore' });
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`dd exited ${code}`))));
        }),
    ),
  );
  return performance.now() - started;
}
const ddWrite = (targets) => ddAll(targets, (dev) => ['if=/dev/zero', `of=${dev}`, 'bs=4M', count, 'oflag=direct', 'conv=fdatasync']);
const ddRead = (targets) => ddAll(targets, (dev) => [`if=${dev}`, 'of=/dev/null', 'bs=4M', 'iflag=direct']);

/**
 * The agent's erase of `targets` as a run does it (every drive at once, eraseDrive per drive,
 * zero pass then full read-back); the write phase ends when the last drive's write pass ended.
 */
async function agentErase(targets) {
  const writeEnds = new Map();
  const started = performance.now();
  const deps = {
    run: createRunner(),
    sys: nodeSystemView(),
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    onProgress: (p) => {
      if (p.stage === 'write' && p.percent === 100) writeEnds.set(p.device, performance.now());
    },
  };
  const outcomes = await Promise.all(targets.map((device) => eraseDrive({ device, method: 'overwrite', selected: targets }, deps)));
  const total = performance.now() - started;
  if (!outcomes.every((o) => o.ok)) throw new Error(`an erase failed during the bench: ${outcomes.map((o) => o.verification).join('; ')}`);
  const write = Math.max(...targets.map((d) => writeEnds.get(d) ?? Number.NaN)) - started;
  return { write, total };
}

try {
  for (let i = 0; i < DRIVES; i++) {
    const file = join(dir, `disk${i}.img`);
    execFileSync('truncate', ['-s', `${sizeMiB}M`, file]);
    devices.push(execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], { encoding: 'utf8' }).trim());
  }
  const load = loadavg()[0];
  // Warm-up: allocate every backing file once so every run writes over allocated blocks.
  await ddWrite(devices);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const dd4Write = await ddWrite(devices);
    const dd4Read = await ddRead(devices);
    const dd1Write = await ddWrite(devices.slice(0, 1));
    const dd1Read = await ddRead(devices.slice(0, 1));
    const agent1 = await agentErase(devices.slice(0, 1));
    const agent4 = await agentErase(devices);
    rounds.push({ dd4Write, dd4Read, dd1Write, dd1Read, agent1, agent4 });
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  const four = DRIVES * bytes;
  /** Median over the rounds of a rate, and of its ratio to the baseline measured in the same round. */
  const figure = (total, ms, baselineMs) => {
    const rate = median(rounds.map((r) => mbps(total, ms(r))));
    if (!baselineMs) return { rate, note: '' };
    const ratios = rounds.map((r) => baselineMs(r) / ms(r));
    return { rate, ratio: median(ratios), ratios };
  };
  const rows = [
    ['dd, 1 writer (bs=4M oflag=direct)', figure(bytes, (r) => r.dd1Write)],
    ['dd, 4 writers at once', figure(four, (r) => r.dd4Write)],
    ['dd, 4 writers then 4 readers (write + read-back)', figure(four, (r) => r.dd4Write + r.dd4Read)],
    ['agent, 1 drive: overwrite pass', figure(bytes, (r) => r.agent1.write, (r) => r.dd1Write), 'x dd 1 writer'],
    ['agent, 4 drives in one run: overwrite passes', figure(four, (r) => r.agent4.write, (r) => r.dd4Write), 'x dd 4 writers (goal >= 0.9x)'],
    ['agent, 1 drive: erase (write + verify)', figure(bytes, (r) => r.agent1.total, (r) => r.dd1Write + r.dd1Read), 'x dd write + read'],
    ['agent, 4 drives in one run: erase (write + verify)', figure(four, (r) => r.agent4.total, (r) => r.dd4Write + r.dd4Read), 'x dd 4 writers + 4 readers'],
  ];
  console.log(`parallel erase bench: ${DRIVES} loop devices of ${sizeMiB} MiB (--direct-io=on, /var/tmp), median of ${ROUNDS} rounds; load average ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`);
  for (const [name, f, what] of rows) {
    const note = f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}${what}  (rounds: ${f.ratios.map((x) => x.toFixed(2)).join(' ')})`;
    console.log(`${name.padEnd(50)} ${f.rate.toFixed(0).padStart(6)} MB/s  ${note}`);
  }
  const scale = median(rounds.map((r) => r.agent4.total / r.agent1.total));
  console.log(`4 drives vs 1, whole erase: ${scale.toFixed(2)}x the time of one drive for 4x the bytes`);
} finally {
  for (const dev of devices) execFileSync('losetup', ['-d', dev]);
  rmSync(dir, { recursive: true, force: true });
}
