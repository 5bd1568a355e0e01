import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freshPostgresUrl, TEST_STORE } from '../../cloud/test/support/test-store.js';

const run = promisify(execFile);
export const CLOUD_BIN = new URL('../../cloud/bin/erasure-cloud.js', import.meta.url).pathname;
export const GATEWAY_BIN = new URL('../../gateway/bin/erasure-gateway.js', import.meta.url).pathname;

export interface Keys {
  device_token_private_key: string;
  device_token_pubkey: string;
  internal_api_secret: string;
}

/** Spawns `bin serve` and resolves with the URL from its `listening on http://…` line. */
export function startService(bin: string, env: NodeJS.ProcessEnv, args: readonly string[] = ['serve']): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // No timer of its own: a service that cannot start exits (and is reported below); one that is
    // slow on a loaded machine is waited for, within the caller's hook timeout.
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        child.stdout?.off('data', onData);
        // Keep draining the request log: a full pipe would block the service on its next write.
        child.stdout?.resume();
        resolve({ url: match[1]!, child });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      reject(new Error(`${bin} exited ${code}:\n${output}`));
    });
  });
}

export function stopService(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A real cloud and gateway from their binaries, a temp DATA_DIR and fresh keys. */
export async function startStack() {
  const dataDir = mkdtempSync(join(tmpdir(), 'erasure-stack-'));
  const keys = JSON.parse((await run(process.execPath, [CLOUD_BIN, 'keygen', '--json'])).stdout) as Keys;
  const cloudEnv = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    INTERNAL_API_SECRET: keys.internal_api_secret,
    DEVICE_TOKEN_PRIVATE_KEY: keys.device_token_private_key,
    // In the `cloud on postgres` project the cloud and its CLI run on a fresh PostgreSQL database.
    ...(TEST_STORE === 'postgres' ? { DATABASE_URL: await freshPostgresUrl() } : {}),
  };
  const cli = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, [CLOUD_BIN, ...args, '--json'], { env: { ...process.env, ...cloudEnv } })).stdout);
  const cloud = await startService(CLOUD_BIN, cloudEnv);
  const gatewayEnv = {
    HOST: '127.0.0.1',
    PORT: '0',
    DEVICE_TOKEN_PUBKEY: keys.device_token_pubkey,
    INTERNAL_API_SECRET: keys.internal_api_secret,
    CLOUD_INTERNAL_URL: cloud.url,
  };
  let gateway = await startService(GATEWAY_BIN, gatewayEnv);
  return {
    dataDir,
    keys,
    cli,
    cloud,
    /** The gateway now running (a new one after `restartGateway`). */
    get gateway() {
      return gateway;
    },
    /** Stops the gateway: devices then find it unreachable, as when a site's link goes down. */
    stopGateway: () => stopService(gateway.child),
    /**
     * Starts a gateway again and resolves with it: on a new port, or on the port the last one had
     * (`samePort`), as a site's gateway comes back where its devices look for it.
     */
    async restartGateway(opts: { samePort?: boolean } = {}) {
      const port = new URL(gateway.url).port;
      await stopService(gateway.child);
      gateway = await startService(GATEWAY_BIN, { ...gatewayEnv, ...(opts.samePort ? { PORT: port } : {}) });
      return gateway;
    },
    async stop() {
      await stopService(gateway.child);
      await stopService(cloud.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A passing drive's wipe result as a device reports it: the check-in's `jobId`, suffixed per drive. */
export function wipeResultBody(jobId: string, drive: number, extra: object = {}) {
  return {
    job_id: `${jobId}-${drive}`,
    drive_serial: `S4ENNX0N${String(drive).padStart(6, '0')}`,
    drive_model: 'SAMSUNG MZVLB512HBJQ-000L7',
    drive_capacity_gb: 512,
    wipe_method: 'NIST 800-88 R2 Purge',
    technique: 'NVMe Sanitize, crypto erase',
    passes_completed: null,
    started_at: '2026-11-22T13:01:02Z',
    completed_at: '2026-11-22T13:07:12Z',
    verification_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ...extra,
  };
}
