#!/usr/bin/env node
// The floor view under a floor's load (issue 32): --machines machines of --drives drives each
// report their live state through the real gateway to the real cloud (built binaries, SQLite),
// every 5 s each, as the agent does, while one signed-in browser's board stream is open.
//
//   node bench/floor-load.js [--machines 100] [--drives 10] [--seconds 60]
//
// Prints, over windows of the same length in the same run:
//   - cloud + gateway CPU (utime + stime from /proc/PID/stat) as % of one core, under the load and
//     idle (the same processes, the board stream open, nothing reporting): goal <= 25 % under load;
//   - report -> board: from sending a report to the Server-Sent Events `board` event that carries
//     it (its first drive's bytes_done, unique per report), over every report, p50 and p95: goal <= 1 s.
// The two-instance figure on PostgreSQL (report to one, board on another) is not measured here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startService, stop } from './lib.js';

const { values } = parseArgs({ options: { machines: { type: 'string', default: '100' }, drives: { type: 'string', default: '10' }, seconds: { type: 'string', default: '60' } } });
const MACHINES = Number(values.machines);
const DRIVES = Number(values.drives);
const SECONDS = Number(values.seconds);
const EVERY_MS = 5000;
const CLOUD_BIN = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
const GATEWAY_BIN = new URL('../gateway/bin/erasure-gateway.js', import.meta.url).pathname;
const PASSWORD = 'bench floor supervisor';
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-floor-'));
const keys = JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, 'keygen', '--json'], { encoding: 'utf8' }));
const cloudEnv = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, INTERNAL_API_SECRET: keys.internal_api_secret, DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key };
const cli = (...args) => JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...cloudEnv }, encoding: 'utf8' }));
const account = cli('admin', 'create-account', '--name', 'Bench Floor');
// One image's token on every machine, as a floor boots one image; each machine has its own id.
const minted = cli('admin', 'mint-device-token', '--account', String(account.id), '--quota', 'unlimited');
cli('admin', 'create-user', '--account', String(account.id), '--email', 'floor@bench.test', '--password', PASSWORD, '--role', 'staff');

/** CPU seconds `pid` has used so far (user + system). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const children = [];
const stream = new AbortController();
try {
  const cloud = await startService(CLOUD_BIN, cloudEnv);
  children.push(cloud.child);
  const gateway = await startService(GATEWAY_BIN, {
    HOST: '127.0.0.1', PORT: '0', DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey, INTERNAL_API_SECRET: keys.internal_api_secret, CLOUD_INTERNAL_URL: cloud.url,
  });
  children.push(gateway.child);

  // The supervisor's board, open all along: each `board` event is parsed, and the reports it carries timed.
  const login = await fetch(`${cloud.url}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'floor@bench.test', password: PASSWORD }) });
  if (login.status !== 303) throw new Error(`sign-in: ${login.status}`);
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const events = await fetch(`${cloud.url}/app/api/floor/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: stream.signal });
  if (events.status !== 200) throw new Error(`board stream: ${events.status}`);
  /** bytes_done of a report's first drive (unique per report) -> when the report was sent. */
  const pending = new Map();
  const latencies = [];
  let boards = 0;
  (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of events.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        if (!block.includes('event: board') || !data) continue;
        boards++;
        const arrived = performance.now();
        for (const machine of JSON.parse(data).machines) {
          const bytes = machine.drives[0]?.bytes_done;
          if (!pending.has(bytes)) continue;
          latencies.push(arrived - pending.get(bytes));
          pending.delete(bytes);
        }
      }
    }
  })().catch(() => undefined);

  const measure = async (label, during) => {
    const pids = [cloud.child.pid, gateway.child.pid];
    const before = pids.map(cpuSeconds);
    const t0 = performance.now();
    await during();
    const wall = (performance.now() - t0) / 1000;
    const used = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
    return { label, wall, cloud: (used[0] / wall) * 100, gateway: (used[1] / wall) * 100, total: ((used[0] + used[1]) / wall) * 100 };
  };

  const idle = await measure('idle', () => sleep(SECONDS * 1000));

  const sequence = new Array(MACHINES).fill(0);
  let sent = 0;
  let failed = 0;
  const report = async (m) => {
    sequence[m] += 1;
    const bytes = sequence[m] * 1_000_000 + m; // unique per report, so its board can be found
    const body = {
      machine_id: `bench-machine-${m}`,
      boot_id: 'bench-boot',
      name: `Bench machine ${m}`,
      kind: 'machine',
      sequence: sequence[m],
      sent_at: new Date().toISOString(),
      job: { drives: DRIVES, finished: 0, elapsed_seconds: sequence[m] * 5, eta_seconds: 3600 },
      drives: Array.from({ length: DRIVES }, (_, d) => ({
        device: `/dev/sd${String.fromCharCode(97 + (d % 26))}${d >= 26 ? d : ''}`, model: 'ST1000DM010', serial: `BENCH-${m}-${d}`, stage: 'write',
        pass: 1, passes: 1, bytes_done: bytes + d, bytes_total: 1_000_204_886_016, bytes_per_second: 150_000_000, eta_seconds: 3600,
      })),
    };
    pending.set(bytes, performance.now());
    const res = await fetch(`${gateway.url}/api/floor_report`, { method: 'POST', headers: { authorization: `Bearer ${minted.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) failed++;
    else sent++;
    await res.arrayBuffer();
  };
  const loaded = await measure('load', async () => {
    const end = performance.now() + SECONDS * 1000;
    // Each machine on its own 5-s beat, the beats spread over the period as a floor's would be.
    await Promise.all(
      Array.from({ length: MACHINES }, async (_, m) => {
        await sleep((m * EVERY_MS) / MACHINES);
        while (performance.now() < end) {
          const next = performance.now() + EVERY_MS;
          await report(m);
          await sleep(Math.max(0, next - performance.now()));
        }
      }),
    );
  });
  await sleep(2000); // the last boards arrive
  if (failed > 0) throw new Error(`${failed} of ${sent + failed} reports were refused`);
  const r = (n) => Math.round(n * 10) / 10;
  console.log(
    `floor load: ${MACHINES} machines x ${DRIVES} drives reporting every 5 s through the gateway (${sent} reports in ${r(loaded.wall)} s, ${boards} boards streamed) | ` +
      `CPU cloud ${r(loaded.cloud)} % + gateway ${r(loaded.gateway)} % = ${r(loaded.total)} % of one core | idle baseline ${r(idle.total)} % | ` +
      `goal <= 25 %: ${loaded.total <= 25 ? 'OK' : 'ABOVE GOAL'} | report -> board p50 ${Math.round(percentile(latencies, 50))} ms p95 ${Math.round(percentile(latencies, 95))} ms ` +
      `(${latencies.length} reports timed) | goal p95 <= 1000 ms: ${percentile(latencies, 95) <= 1000 ? 'OK' : 'ABOVE GOAL'}`,
  );
} finally {
  stream.abort();
  for (const child of children.reverse()) await stop(child);
  rmSync(dir, { recursive: true, force: true });
}
