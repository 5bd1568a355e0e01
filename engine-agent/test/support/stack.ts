import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './fixtures.js';

/** A started service. */
export interface Service {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Builds what the e2e test runs (dist of gateway and the agent) when it is missing or stale. */
export function buildForE2e(): void {
  if (!existsSync(join(repoRoot, 'gateway/dist/main.js'))) execFileSync('npx', ['tsc', '-b', 'gateway'], { cwd: repoRoot, stdio: 'inherit' });
  execFileSync('npx', ['tsc', '-b', 'engine-agent'], { cwd: repoRoot, stdio: 'inherit' });
}

/** Runs a cloud CLI command with `--json` and parses its output. */
export function cloudCli(env: NodeJS.ProcessEnv, args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [join(repoRoot, 'cloud/bin/erasure-cloud.js'), ...args, '--json'], { env, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, unknown>;
}

/** Starts `<bin> serve` and resolves with the URL it prints ("listening on http://…"). */
export function startService(bin: string, env: NodeJS.ProcessEnv): Promise<Service> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, bin), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    // A loaded CI machine (two cores, load 10+) has taken more than 15 s to start the cloud.
    const timer = setTimeout(() => reject(new Error(`${bin} did not start: ${seen}`)), 90_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(seen);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ url: m[1], child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${bin} exited ${code}: ${seen}`)));
  });
}

/** Stops a service it started, by its own pid. */
export function stopService(s: Service | undefined): void {
  if (s?.child.pid && s.child.exitCode === null) s.child.kill('SIGTERM');
}

/** Stops a service it started and resolves once it has exited. */
export function stopAndWait(service: Service | undefined): Promise<void> {
  const child = service?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    stopService(service);
  });
}

/** The real cloud and gateway of `startCloudStack`, and what a test does with them. */
export interface CloudStack {
  /** The cloud's environment: its admin CLI runs with it against the same store. */
  readonly cloudEnv: NodeJS.ProcessEnv;
  /** The URL of the gateway started with the cloud. */
  readonly gatewayUrl: string;
  /** The cloud's SQLite file, for reading back what arrived. */
  readonly cloudDb: string;
  /** Creates an account and mints it a device token, written to `file` as the agent reads it. */
  mintToken(file: string, opts: { account: string; product?: string; quota?: number; /** More `mint-device-token` flags, e.g. the token's own erasure policy. */ args?: readonly string[] }): { accountId: string; jti: string };
  /**
   * Starts one more gateway in front of the same cloud (a test may stop it to cut a station off,
   * and start it again on the same `port` to bring the station back).
   */
  startGateway(port?: number): Promise<Service>;
  /** Stops every service it started and waits for them to exit. */
  stop(): Promise<void>;
}

/**
 * The real cloud and gateway (built binaries) on loopback with fresh keys, the cloud's DATA_DIR
 * in `<work>/cloud`. Accounts and tokens are the test's to make, with `mintToken`.
 */
export async function startCloudStack(work: string): Promise<CloudStack> {
  buildForE2e();
  const base = { ...process.env, HOST: '127.0.0.1', PORT: '0' };
  const dataDir = join(work, 'cloud');
  mkdirSync(dataDir, { recursive: true });
  const keys = cloudCli({ ...base, DATA_DIR: dataDir }, ['keygen']);
  const cloudEnv = { ...base, DATA_DIR: dataDir, INTERNAL_API_SECRET: String(keys.internal_api_secret), DEVICE_TOKEN_PRIVATE_KEY: String(keys.device_token_private_key) };
  const services: Service[] = [];
  // Waits for every service to exit: a cloud still finishing a certificate would otherwise write
  // into DATA_DIR while the test removes it.
  const stop = async () => {
    await Promise.all(services.map((s) => stopAndWait(s)));
  };
  const startGateway = async (port?: number) => {
    const gateway = await startService('gateway/bin/erasure-gateway.js', { ...base, ...(port !== undefined ? { PORT: String(port) } : {}), DEVICE_TOKEN_PUBKEY: String(keys.device_token_pubkey), INTERNAL_API_SECRET: String(keys.internal_api_secret), CLOUD_INTERNAL_URL: services[0]?.url });
    services.push(gateway);
    return gateway;
  };
  let gateway: Service;
  try {
    services.push(await startService('cloud/bin/erasure-cloud.js', cloudEnv));
    gateway = await startGateway();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    cloudEnv,
    gatewayUrl: gateway.url,
    cloudDb: join(dataDir, 'cloud.sqlite'),
    mintToken(file, opts) {
      const account = cloudCli(cloudEnv, ['admin', 'create-account', '--name', opts.account]);
      const token = cloudCli(cloudEnv, [
        'admin',
        'mint-device-token',
        '--account',
        String(account.id),
        ...(opts.product !== undefined ? ['--product', opts.product] : []),
        ...(opts.quota !== undefined ? ['--quota', String(opts.quota)] : []),
        ...(opts.args ?? []),
      ]);
      writeFileSync(file, `${String(token.token)}\n`);
      return { accountId: String(account.id), jti: String(token.jti) };
    },
    startGateway,
    stop,
  };
}
