// Shared helpers for the benchmark scripts: load generation on loopback, stats, services.
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';

/** Runs autocannon and returns requests/s with p50/p99 latency (ms). Fails on any non-2xx. */
export async function load({ url, method = 'POST', headers = {}, body, connections = 32, duration = 5, expectStatus = 200, setupClient }) {
  const result = await autocannon({ url, method, headers, body, connections, duration, pipelining: 1, ...(setupClient ? { setupClient } : {}) });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (expectStatus === 200 && bad > 0) throw new Error(`${url}: ${bad} failed requests of ${result.requests.total}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

export function row(label, r) {
  return `${label.padEnd(46)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms`;
}

/** Spawns a service binary and resolves with the URL it prints on its `listening on` line. */
export function startService(bin, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (!match) return;
      // From here on the request log is drained unread: parsing it would load this process,
      // which also runs the load generator.
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ url: match[1], child });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`${bin} exited ${code}: ${output}`)));
  });
}

export const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/**
 * Latency of one request at a time (no queueing), in microseconds: autocannon reports whole
 * milliseconds, too coarse to see a sub-millisecond hop such as the gateway's.
 */
export async function sequentialLatency({ url, method = 'POST', headers = {}, body, requests = 2000 }) {
  const { Pool } = await import('undici');
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 1 });
  const samples = [];
  for (let i = 0; i < requests + 200; i++) {
    const start = performance.now();
    const res = await pool.request({ method, path: target.pathname, headers, body });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
    if (i >= 200) samples.push((performance.now() - start) * 1000); // first 200 warm up
  }
  await pool.close();
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length * 0.5)], p99: samples[Math.floor(samples.length * 0.99)] };
}
