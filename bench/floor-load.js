#!/usr/bin/env node
// The floor view under a floor's load (issue 32): --machines machines of --drives drives each
// report their live state through the real gateway to the real cloud (built binaries, SQLite),
// every 5 s each, as the agent does, while one signed-in browser's board stream is open.
//
//   node bench/floor-load.js [--machines 100] [--drives 10] [--seconds 60] [--stores sqlite,postgres]
//
// Prints, over windows of the same length in the same run:
//   - cloud + gateway CPU (utime + stime from /proc/PID/stat) as % of one core, under the load and
//     idle (the same processes, the board stream open, nothing reporting): goal <= 25 % under load;
//   - report -> board: from sending a report to the Server-Sent Events `board` event that carries
//     it (its first drive's bytes_done, unique per report), over every report, p50 and p95: goal <= 1 s.
// Then the same on PostgreSQL with two cloud instances on one throwaway cluster: the gateway
// forwards to instance A, the board stream is open on instance B, so every report reaches the
// board through the store's NOTIFY (goal p95 <= 2 s); the one-instance SQLite run above is its
// baseline, measured in the same run. CPU is both instances' and the gateway's; the PostgreSQL
// server's (postmaster and backends) is printed beside it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { startService, stop } from './lib.js';

const { values } = parseArgs({ options: { machines: { type: 'string', default: '100' }, drives: { type: 'string', default: '10' }, seconds: { type: 'string', default: '60' }, stores: { type: 'string', default: 'sqlite,postgres' } } });
const MACHINES = Number(values.machines);
const DRIVES = Number(values.drives);
const SECONDS = Number(values.seconds);
const EVERY_MS = 5000;
const CLOUD_BIN = new URL('../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
const GATEWAY_BIN = new URL('../gateway/bin/erasure-gateway.js', import.meta.url).pathname;
const PASSWORD = 'bench floor supervisor';
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** True where Debian's PostgreSQL server is installed (the throwaway cluster needs initdb and pg_ctl). */
const hasPostgres = () => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')));

/** CPU seconds `pid` has used so far (user + system). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
};
/**
 * CPU seconds of the PostgreSQL server so far: the postmaster's own and its reaped children's
 * (cutime + cstime), plus each backend still running. A backend that exits within a window
 * brings its whole life's CPU into cutime, so a window can count a little from before it.
 */
const serverCpuSeconds = (postmaster) => {
  const stat = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = stat(postmaster);
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = stat(entry);
      if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone between the listing and the read
    }
  }
  return ticks / TICKS_PER_SECOND;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** One run of the load against `store`: SQLite with one instance, or PostgreSQL with two. */
async function floorRun(store) {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-bench-floor-'));
  const keys = JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, 'keygen', '--json'], { encoding: 'utf8' }));
  const postgres = store === 'postgres' ? await startPostgres() : undefined;
  const cloudEnv = { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, INTERNAL_API_SECRET: keys.internal_api_secret, DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key, ...(postgres ? { DATABASE_URL: await postgres.createDatabase() } : {}) };
  const cli = (...args) => JSON.parse(execFileSync(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...cloudEnv }, encoding: 'utf8' }));
  if (postgres) cli('migrate');
  const account = cli('admin', 'create-account', '--name', 'Bench Floor');
  // One image's token on every machine, as a floor boots one image; each machine has its own id.
  const minted = cli('admin', 'mint-device-token', '--account', String(account.id), '--quota', 'unlimited');
  cli('admin', 'create-user', '--account', String(account.id), '--email', 'floor@bench.test', '--password', PASSWORD, '--role', 'staff');

  const children = [];
  const stream = new AbortController();
  try {
    const cloud = await startService(CLOUD_BIN, cloudEnv);
    children.push(cloud.child);
    // PostgreSQL: a second instance on the same store, where the board is watched.
    const board = postgres ? await startService(CLOUD_BIN, cloudEnv) : cloud;
    if (board !== cloud) children.push(board.child);
    const gateway = await startService(GATEWAY_BIN, {
      HOST: '127.0.0.1', PORT: '0', DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey, INTERNAL_API_SECRET: keys.internal_api_secret, CLOUD_INTERNAL_URL: cloud.url,
    });
    children.push(gateway.child);

    // The supervisor's board, open all along: each `board` event is parsed, and the reports it carries timed.
    const login = await fetch(`${board.url}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'floor@bench.test', password: PASSWORD }) });
    if (login.status !== 303) throw new Error(`sign-in: ${login.status}`);
    const cookie = login.headers.get('set-cookie').split(';')[0];
    const events = await fetch(`${board.url}/app/api/floor/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: stream.signal });
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
      const clouds = [...new Set([cloud.child.pid, board.child.pid])];
      const pids = [...clouds, gateway.child.pid];
      const server = postgres?.serverPid();
      const before = pids.map(cpuSeconds);
      const serverBefore = server ? serverCpuSeconds(server) : 0;
      const t0 = performance.now();
      await during();
      const wall = (performance.now() - t0) / 1000;
      const used = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
      const serverSeconds = server ? serverCpuSeconds(server) - serverBefore : 0;
      const cloudSeconds = used.slice(0, clouds.length).reduce((a, b) => a + b, 0);
      const gatewaySeconds = used.at(-1);
      return { label, wall, cloud: (cloudSeconds / wall) * 100, gateway: (gatewaySeconds / wall) * 100, total: ((cloudSeconds + gatewaySeconds) / wall) * 100, database: (serverSeconds / wall) * 100 };
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
    const goalMs = postgres ? 2000 : 1000;
    const p95 = percentile(latencies, 95);
    const where = postgres ? 'PostgreSQL, report to instance A, board on instance B' : 'SQLite, one instance';
    console.log(
      `floor load (${where}): ${MACHINES} machines x ${DRIVES} drives reporting every 5 s through the gateway (${sent} reports in ${r(loaded.wall)} s, ${boards} boards streamed, ${latencies.length} reports timed) | ` +
        `CPU cloud${postgres ? 's' : ''} ${r(loaded.cloud)} % + gateway ${r(loaded.gateway)} % = ${r(loaded.total)} % of one core | idle baseline ${r(idle.total)} % | ` +
        `goal <= 25 %: ${loaded.total <= 25 ? 'OK' : 'ABOVE GOAL'} | ` +
        (postgres ? `PostgreSQL server ${r(loaded.database)} % (idle ${r(idle.database)} %), all three ${r(loaded.total + loaded.database)} % | ` : '') +
        `report -> board p50 ${Math.round(percentile(latencies, 50))} ms p95 ${Math.round(p95)} ms max ${Math.round(Math.max(...latencies))} ms | ` +
        `goal p95 <= ${goalMs} ms: ${p95 <= goalMs ? 'OK' : 'ABOVE GOAL'}`,
    );
    return { p95 };
  } finally {
    stream.abort();
    for (const child of children.reverse()) await stop(child);
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const stores = values.stores.split(',').map((x) => x.trim());
const runs = {};
for (const store of stores) {
  if (store === 'postgres' && !hasPostgres()) {
    console.log('floor load (PostgreSQL, two instances): skipped, no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)');
    continue;
  }
  runs[store] = await floorRun(store);
}
if (runs.sqlite && runs.postgres) {
  console.log(`floor load: report -> board p95 two instances on PostgreSQL ${Math.round(runs.postgres.p95)} ms against one SQLite instance ${Math.round(runs.sqlite.p95)} ms (baseline, same run)`);
}
