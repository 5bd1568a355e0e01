import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import si from 'systeminformation';
import type { AgentEnv } from '../../src/agent.js';
import { createRunner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';

/**
 * A simulated agent whose DATA_DIR (and outbox) is `dir/agent`, calling `gatewayUrl` with a token
 * file in `dir`, without waiting between retries. `sleep` defaults to no wait at all; a test that
 * counts retries passes its own.
 */
export function outboxAgentEnv(dir: string, gatewayUrl: string, sleep: AgentEnv['sleep'] = async () => undefined): AgentEnv {
  writeFileSync(join(dir, 'token'), 'eyJ.test.token\n');
  return {
    config: loadConfig({ ERASURE_GATEWAY_URL: gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: join(dir, 'token'), DATA_DIR: join(dir, 'agent') }, { simulate: true }),
    run: createRunner(),
    sys: nodeSystemView(),
    si,
    now: () => new Date(),
    sleep,
    version: '0.1.0',
    limits: { ...DEFAULT_LIMITS, healthDelayMs: 0, retryBaseMs: 0, retryCapMs: 0, certificateLookupDelaysMs: [] },
  };
}
