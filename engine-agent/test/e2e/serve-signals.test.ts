import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGateway } from '../support/fake-gateway.js';
import { until } from '../support/serve-env.js';
import { buildForE2e, startService, type Service } from '../support/stack.js';

/**
 * `erasure-agent serve` as the kiosk machine runs it: SIGTERM must end it promptly even with the
 * kiosk's event stream open and the boot waiting on the gateway (a shutdown or a kiosk restart
 * must not stall for seconds).
 */
describe('erasure-agent serve: SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-signals-'));
  let gateway: Awaited<ReturnType<typeof startFakeGateway>>;
  let agent: Service | undefined;

  beforeAll(async () => {
    buildForE2e();
    gateway = await startFakeGateway({ hold: new Set(['/api/verify']) });
    writeFileSync(join(dir, 'device-token'), 'eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl\n');
  }, 120_000);

  afterAll(async () => {
    if (agent?.child.exitCode === null) agent.child.kill('SIGKILL');
    gateway.release('/api/verify');
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits within a second with an open event stream, mid-boot', async () => {
    agent = await startService('engine-agent/bin/erasure-agent.js', {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: join(dir, 'data'),
      ERASURE_SIMULATE: '1',
      ERASURE_GATEWAY_URL: gateway.url,
      ERASURE_DEVICE_TOKEN_FILE: join(dir, 'device-token'),
      KIOSK_RENDERER_DIR: join(dir, 'no-renderer'),
    });
    const child = agent.child;
    child.removeAllListeners('exit'); // startService's listener rejects a promise that has long resolved
    const stream = await fetch(`${agent.url}/api/events`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await until(() => gateway.calls.some((c) => c.path === '/api/verify'));

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(code).toBe(0);
    for (let r = await reader.read(); !r.done; r = await reader.read()); // the stream ended with the agent
  });
});
