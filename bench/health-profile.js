#!/usr/bin/env node
// Cost of the health grade's speed profile on the overwrite (issue 30, goal <= 2 %): the same
// zero pass over the same loop device with and without the profile, interleaved A/B/A/B in one
// run so both see the same machine load. Reports the median rate of each, the cost in wall-clock
// and in CPU seconds, and the recorder's own cost per request measured in isolation.
// Needs root, losetup and a built engine-agent. Usage: node bench/health-profile.js [size MiB] [rounds]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openMedium } from '../engine-agent/dist/erase/medium.js';
import { writePass } from '../engine-agent/dist/erase/overwrite.js';
import { ZERO } from '../engine-agent/dist/erase/pattern.js';
import { ProfileRecorder } from '../engine-agent/dist/erase/throughput-profile.js';

const sizeMiB = Number(process.argv[2] ?? 512);
const rounds = Number(process.argv[3] ?? 5);
if (process.getuid?.() !== 0) {
  console.error('bench/health-profile.js needs root (losetup)');
  process.exit(1);
}
const dir = mkdtempSync('/var/tmp/health-bench-');
const file = join(dir, 'disk.img');
execFileSync('truncate', ['-s', `${sizeMiB}M`, file]);
const dev = execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], { encoding: 'utf8' }).trim();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (base, other) => ((base - other) / base) * 100;
try {
  const medium = await openMedium(dev);
  try {
    // Warm-up: allocate the backing file so every measured pass writes over allocated blocks.
    await writePass(medium, ZERO);
    const runs = { off: [], on: [] };
    const cpu = { off: [], on: [] };
    let regions = 0;
    for (let i = 0; i < rounds; i++) {
      for (const mode of i % 2 ? ['on', 'off'] : ['off', 'on']) {
        const before = process.cpuUsage();
        const options = mode === 'on' ? { onProfile: (p) => (regions = p.mbps.length) } : {};
        const pass = await writePass(medium, ZERO, options);
        const used = process.cpuUsage(before);
        runs[mode].push(pass.bytes / 1e6 / (pass.ms / 1000));
        cpu[mode].push((used.user + used.system) / 1e6);
      }
    }
    // The recorder alone: what it adds per 4 MiB request, without the device's noise.
    const chunk = 4 * 1024 * 1024;
    const requests = 1_000_000;
    const recorder = new ProfileRecorder(requests * chunk, chunk, performance.now());
    const t = performance.now();
    for (let i = 0; i < requests; i++) recorder.wrote(i * chunk, chunk, performance.now());
    recorder.result();
    const usPerRequest = ((performance.now() - t) * 1000) / requests;
    const off = median(runs.off);
    const on = median(runs.on);
    const requestUsAtRate = (chunk / 1e6 / off) * 1e6; // microseconds one request takes at the measured rate
    console.log(`health profile on a ${sizeMiB} MiB loop device (${dev}), ${rounds} runs each, interleaved; load ${loadavg()[0].toFixed(1)}`);
    console.log(`  overwrite without profile  median ${off.toFixed(0)} MB/s   runs ${runs.off.map((r) => r.toFixed(0)).join(' ')}   CPU ${median(cpu.off).toFixed(3)} s`);
    console.log(`  overwrite with profile     median ${on.toFixed(0)} MB/s   runs ${runs.on.map((r) => r.toFixed(0)).join(' ')}   CPU ${median(cpu.on).toFixed(3)} s   (${regions} regions)`);
    console.log(`  cost (wall clock, medians) ${pct(off, on).toFixed(2)} %   goal <= 2 %`);
    console.log(`  recorder alone             ${usPerRequest.toFixed(3)} µs per 4 MiB request = ${((usPerRequest / requestUsAtRate) * 100).toFixed(4)} % of a request's time at ${off.toFixed(0)} MB/s`);
  } finally {
    await medium.handle.close();
  }
} finally {
  execFileSync('losetup', ['-d', dev]);
  rmSync(dir, { recursive: true, force: true });
}
