import { AgentState, conforms } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { listenLoopback } from '../../src/api/serve.js';
import type { GatewayBehaviour } from '../support/fake-gateway.js';
import { simulatedServe, until, intent, type ServeSut } from '../support/serve-env.js';

type Sut = ServeSut;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

const paths = (s: Sut) => s.gateway.calls.map((c) => c.path);

describe('serve API: checking a denied boot again (retry)', () => {
  it('stays locked on a denial, then unlocks once the token is active again and the operator retries', async () => {
    const gateway: GatewayBehaviour = { verify: { allow: false, reason: 'revoked' } };
    sut = await simulatedServe({ gateway });
    const s = sut;
    expect(await intent(s, { type: 'retry' })).toMatchObject({ status: 409 }); // nothing was checked yet
    await s.controller.bootUp();
    expect(s.controller.snapshot()).toMatchObject({ locked: true, boot: { phase: 'denied', reason: 'revoked' }, can: { retry: true } });

    // Retried while still revoked: locked again with the (new) reason, and nothing reported.
    expect((await intent(s, { type: 'retry' })).status).toBe(200);
    expect((await intent(s, { type: 'retry' })).status).toBe(409); // one check at a time
    await until(() => s.controller.snapshot().boot.phase === 'denied');
    gateway.verify = { allow: false, reason: 'suspended' };
    await intent(s, { type: 'retry' });
    await until(() => s.controller.snapshot().boot.reason === 'suspended');
    expect(paths(s)).not.toContain('/api/record');

    gateway.verify = { allow: true, account: 'Acme Refurb' };
    expect((await intent(s, { type: 'retry' })).status).toBe(200);
    await until(() => s.controller.snapshot().boot.asset_id !== undefined);
    expect(s.controller.snapshot()).toMatchObject({ locked: false, boot: { phase: 'unlocked', account: 'Acme Refurb', asset_id: 'asset_1' }, can: { retry: false, select: true } });
    // The erasure policy is read once verify allowed (issue 29), beside the record, in either order.
    await until(() => paths(s).includes('/api/erasure_policy'));
    expect(paths(s).filter((p) => p !== '/api/erasure_policy')).toEqual(['/api/health', '/api/verify', '/api/health', '/api/verify', '/api/health', '/api/verify', '/api/health', '/api/verify', '/api/record']);
    expect(paths(s).indexOf('/api/erasure_policy')).toBeGreaterThan(paths(s).lastIndexOf('/api/verify'));
    // The same boot: one record id for every check.
    expect(s.gateway.calls.find((c) => c.path === '/api/record')?.body.record_id).toBe(s.controller.record);
    expect(await intent(s, { type: 'retry' })).toMatchObject({ status: 409, json: { error: 'this boot is already unlocked' } });
  });

  it('retries a boot that could not reach the gateway, and shows each health attempt meanwhile', async () => {
    sut = await simulatedServe({ gateway: { healthFailures: 4 }, limits: { healthDelayMs: 150 } });
    const s = sut;
    const seen: AgentState['boot'][] = [];
    s.controller.on('change', (snap: AgentState) => seen.push(snap.boot));
    const before = Date.now();
    await s.controller.bootUp();
    expect(s.controller.snapshot().boot).toMatchObject({ phase: 'denied', reason: expect.stringMatching(/^gateway unreachable after 3 attempts/) });
    const health = seen.filter((b) => b.phase === 'health');
    expect(health[0]).toEqual({ phase: 'health', attempt: 1, max_attempts: 3, addresses: expect.any(Array), gateway_url: expect.any(String) });
    const second = health.find((b) => b.attempt === 2);
    expect(second).toMatchObject({ max_attempts: 3, last_error: 'cloud unavailable (503)' });
    const at = Date.parse(second?.next_attempt_at ?? '');
    expect(at).toBeGreaterThanOrEqual(before + 150);
    expect(at).toBeLessThan(Date.now() + 150);
    expect(health.find((b) => b.attempt === 3)).toMatchObject({ next_attempt_at: expect.any(String) });

    // The fourth health call fails too (first attempt of the retry), the fifth answers.
    await intent(s, { type: 'retry' });
    await until(() => s.controller.snapshot().boot.phase === 'unlocked', 5000);
    expect(paths(s).filter((p) => p === '/api/health')).toHaveLength(5);
  });
});

describe('serve API: machine summary', () => {
  it('carries the boot fingerprint’s summary, collected once and also sent as the asset report', async () => {
    sut = await simulatedServe();
    await sut.controller.bootUp();
    await until(() => sut!.controller.snapshot().fingerprint !== undefined);
    const snap = sut.controller.snapshot();
    expect(conforms(AgentState, snap)).toBe(true);
    const fp = snap.fingerprint as Record<string, any>;
    expect(fp.system).toMatchObject({ manufacturer: 'Erasure Labs', product: 'Simulated Laptop 14', serial: 'SIM-LAPTOP-0001' });
    expect(fp.batteries).toEqual([expect.objectContaining({ health_pct: 91 })]);
    expect(fp.wifi_adapters).toEqual([expect.objectContaining({ name: 'wlan0' })]);
    expect(fp.storage).toHaveLength(2);
    for (const k of ['cpu', 'memory', 'displays', 'gpus']) expect(fp[k]).toBeDefined();
    expect(fp.baseboard).toBeUndefined(); // diagnostic detail stays out of the state
    const reported = sut.gateway.calls.find((c) => c.path === '/api/record')?.body.fingerprint as Record<string, unknown>;
    expect(reported.baseboard).toBeDefined();
    expect(reported.system).toEqual(fp.system);
  });
});

describe('serve API: certificate numbers', () => {
  it('stops looking up after the bounded attempts when the certificates stay pending, keeping the numbers', async () => {
    sut = await simulatedServe({ gateway: { certificateSteps: ['pending'] } });
    const s = sut;
    await s.controller.bootUp();
    const devices = s.controller.snapshot().drives.map((d) => d.device);
    await intent(s, { type: 'select', devices });
    await intent(s, { type: 'confirm', text: 'ERASE 2 DRIVES' });
    await intent(s, { type: 'start' });
    await until(() => paths(s).filter((p) => p === '/api/certificates/lookup').length === 5, 30_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(paths(s).filter((p) => p === '/api/certificates/lookup')).toHaveLength(5);
    // The drives finish in either order (erased at once): the fake numbers its results as they arrive.
    expect(s.controller.snapshot().results.map((r) => [r.certificate_number, r.certificate_status]).sort()).toEqual([
      ['CW-000001', 'pending'],
      ['CW-000002', 'pending'],
    ]);
  }, 40_000);
});

describe('serve API: shutdown', () => {
  it('closes at once with an open event stream and a boot waiting on the gateway, not after the gateway call times out', async () => {
    sut = await simulatedServe({ gateway: { hold: new Set(['/api/verify']) } });
    const s = sut;
    const url = await listenLoopback(s.app, { HOST: '127.0.0.1', PORT: 0 });
    const boot = s.controller.bootUp();
    await until(() => paths(s).includes('/api/verify'));
    const stream = await fetch(`${url}/api/events`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the first state event: the stream is open
    // The fake holds the verify answer until released, and the agent's own gateway timeout is 30 s:
    // a close that waited for either would not end within this test's 20 s. How fast it ends is
    // the machine's business (a loaded machine took 1.9 s), not this test's.
    await s.app.close();
    // The stream ended (not hung), and the boot's gateway call was aborted: it stays locked.
    for (let r = await reader.read(); !r.done; r = await reader.read());
    await boot;
    expect(s.controller.snapshot().locked).toBe(true);
    s.gateway.release('/api/verify'); // lets the fake gateway close without waiting for the held answer
  }, 20_000);
});
