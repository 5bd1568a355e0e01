import { join } from 'node:path';
import si from 'systeminformation';
import type { AgentEnv } from '../../src/agent.js';
import { createRunner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';
import { startCloudStack } from './stack.js';

/**
 * The real cloud and gateway (built binaries) with an account "Station Refurb" and a hotswap
 * token of `quota` in `<work>/device-token`, and the agent environment a station on this machine runs with.
 */
export async function startHotswapStack(work: string, quota: number): Promise<{ env: AgentEnv; stop: () => Promise<void> }> {
  const stack = await startCloudStack(work);
  try {
    stack.mintToken(join(work, 'device-token'), { account: 'Station Refurb', product: 'hotswap', quota });
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return { env: stationAgentEnv(stack.gatewayUrl, work), stop: stack.stop };
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

