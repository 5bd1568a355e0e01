import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import si from 'systeminformation';
import type { AgentEnv } from '../../src/agent.js';
import { createRunner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';
import { buildForE2e, cloudCli, startService, stopService, type Service } from './stack.js';

/**
 * The real cloud and gateway (built binaries) with an account "Station Refurb" and a hotswap
 * token of `quota`, and the agent environment a station on this machine runs with.
 */
export async function startHotswapStack(work: string, quota: number): Promise<{ env: AgentEnv; stop: () => Promise<void> }> {
  buildForE2e();
  const base = { ...process.env, HOST: '127.0.0.1', PORT: '0' };
  const keys = cloudCli({ ...base, DATA_DIR: join(work, 'cloud') }, ['keygen']);
  const cloudEnv = { ...base, DATA_DIR: join(work, 'cloud'), INTERNAL_API_SECRET: String(keys.internal_api_secret), DEVICE_TOKEN_PRIVATE_KEY: String(keys.device_token_private_key) };
  mkdirSync(join(work, 'cloud'), { recursive: true });
  const account = cloudCli(cloudEnv, ['admin', 'create-account', '--name', 'Station Refurb']);
  const token = cloudCli(cloudEnv, ['admin', 'mint-device-token', '--account', String(account.id), '--product', 'hotswap', '--quota', String(quota)]);
  writeFileSync(join(work, 'device-token'), `${String(token.token)}\n`);
  let cloud: Service | undefined;
  let gateway: Service | undefined;
  // Waits for both to exit: a cloud still finishing a certificate would otherwise write into
  // DATA_DIR while the test removes it.
  const stop = async () => {
    await Promise.all([gateway, cloud].map((s) => exited(s)));
  };
  try {
    cloud = await startService('cloud/bin/erasure-cloud.js', cloudEnv);
    gateway = await startService('gateway/bin/erasure-gateway.js', { ...base, DEVICE_TOKEN_PUBKEY: String(keys.device_token_pubkey), INTERNAL_API_SECRET: String(keys.internal_api_secret), CLOUD_INTERNAL_URL: cloud.url });
  } catch (error) {
    await stop();
    throw error;
  }
  return { env: stationAgentEnv(gateway.url, work), stop };
}

/** The agent environment of a station on this machine: real runner and sysfs, token and data in `dir`. */
export function stationAgentEnv(gatewayUrl: string, dir: string): AgentEnv {
  return {
    config: loadConfig({ ERASURE_GATEWAY_URL: gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: join(dir, 'device-token'), DATA_DIR: join(dir, 'agent') }),
    run: createRunner(),
    sys: nodeSystemView(),
    si,
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    version: '0.1.0',
    limits: { ...DEFAULT_LIMITS, certificateLookupDelaysMs: [] },
  };
}

function exited(service: Service | undefined): Promise<void> {
  const child = service?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    stopService(service);
  });
}
