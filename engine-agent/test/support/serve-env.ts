import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentState } from '@erasure/shared';
import si from 'systeminformation';
import type { AgentEnv } from '../../src/agent.js';
import { createRunner, type Runner } from '../../src/adapters/runner.js';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { buildServe, type RedeliveryTiming } from '../../src/api/serve.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_LIMITS, type SessionLimits } from '../../src/session/types.js';
import { startFakeGateway, type GatewayBehaviour } from './fake-gateway.js';

/**
 * `erasure-agent serve` in simulate mode (file-backed drives that are really overwritten and
 * verified) against a fake gateway on a real port, with short retry delays. `run` replaces the
 * tool runner, for a test that plays a real machine (`ERASURE_SIMULATE: '0'`) from captures.
 */
export async function simulatedServe(options: { gateway?: GatewayBehaviour; env?: Record<string, string>; notesDebounceMs?: number; limits?: Partial<SessionLimits>; redelivery?: RedeliveryTiming; run?: Runner } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-serve-'));
  const gateway = await startFakeGateway(options.gateway);
  const tokenFile = join(dir, 'device-token');
  writeFileSync(tokenFile, 'eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl\n');
  const config = loadConfig({ DATA_DIR: join(dir, 'data'), ERASURE_SIMULATE: '1', ERASURE_GATEWAY_URL: gateway.url, ERASURE_DEVICE_TOKEN_FILE: tokenFile, PORT: '0', KIOSK_RENDERER_DIR: join(dir, 'no-renderer'), ...options.env });
  const env: AgentEnv = {
    config,
    run: options.run ?? createRunner(),
    sys: nodeSystemView(),
    si,
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    version: '0.1.0-test',
    limits: { ...DEFAULT_LIMITS, healthDelayMs: 5, retryBaseMs: 5, retryCapMs: 10, certificateLookupDelaysMs: [0, 20, 20, 20, 20], ...options.limits },
  };
  const { app, controller } = await buildServe(env, options.notesDebounceMs ?? 50, undefined, options.redelivery);
  return {
    app,
    controller,
    gateway,
    env,
    dir,
    close: async () => {
      await app.close();
      await gateway.close();
      // The simulated machine may still be creating its drive files when close() aborts the
      // boot; rmSync retries ENOTEMPTY instead of failing the test on that race.
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
}

/** Polls `check` until it returns true (state that settles asynchronously). */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A simulated `serve` as the app tests hold it. */
export type ServeSut = Awaited<ReturnType<typeof simulatedServe>>;

/** One operator intent through the API, as the kiosk posts it: its status and JSON answer. */
export async function intent(s: ServeSut, body: unknown): Promise<{ status: number; json: { ok?: true; state?: AgentState; error?: string } }> {
  const r = await s.app.inject({ method: 'POST', url: '/api/intents', payload: body as object });
  return { status: r.statusCode, json: r.json() as { ok?: true; state?: AgentState; error?: string } };
}

/** The agent's state as the kiosk reads it. */
export const state = async (s: ServeSut): Promise<AgentState> => (await s.app.inject({ method: 'GET', url: '/api/state' })).json() as AgentState;
