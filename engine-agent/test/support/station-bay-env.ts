import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEnv } from '../../src/agent.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_LIMITS } from '../../src/session/types.js';

/**
 * A station bay's agent over a loop device: DATA_DIR in `dir/data`, a token file in `dir`, the
 * fake gateway at `gatewayUrl`, `run` the test's (fake) tools, no waiting between retries.
 */
export function bayAgentEnv(dir: string, gatewayUrl: string, run: AgentEnv['run']): AgentEnv {
  writeFileSync(join(dir, 'token'), 'eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl\n');
  return {
    config: loadConfig({ DATA_DIR: join(dir, 'data'), ERASURE_GATEWAY_URL: gatewayUrl, ERASURE_DEVICE_TOKEN_FILE: join(dir, 'token') }),
    run,
    sys: nodeSystemView(),
    si: {} as AgentEnv['si'],
    now: () => new Date(),
    sleep: async () => undefined,
    version: '0.1.0-test',
    limits: { ...DEFAULT_LIMITS, retryBaseMs: 5, retryCapMs: 10 },
  };
}

/** The loop device as lsblk lists it, attached as a SATA SSD with this model and serial (a fake hdparm then answers for it). */
export function lsblkAsSata(device: string, drive: { model: string; serial: string }): string {
  const listing = JSON.parse(execFileSync('lsblk', ['-J', '-b', '-O', device], { encoding: 'utf8' })) as { blockdevices: Array<Record<string, unknown>> };
  for (const d of listing.blockdevices) Object.assign(d, { tran: 'sata', rota: false, ...drive });
  return JSON.stringify(listing);
}
