import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentState } from '@erasure/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatedServe, until } from '../support/serve-env.js';

type Sut = Awaited<ReturnType<typeof simulatedServe>>;
let sut: Sut | undefined;
afterEach(async () => {
  await sut?.close();
  sut = undefined;
});

const intent = async (s: Sut, body: unknown) => (await s.app.inject({ method: 'POST', url: '/api/intents', payload: body as object })).statusCode;
const outbox = (s: Sut) => {
  try {
    return readdirSync(join(s.env.config.DATA_DIR, 'outbox')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
};

describe('serve: wipe results waiting for delivery', () => {
  it('delivers a result whose sends failed while the gateway was down once it is back, in the same boot', async () => {
    // The session's three attempts meet a gateway that is down; it answers from the fourth on.
    // The minute-long round is out of reach of this test: only the nudge after the kept result can deliver it.
    sut = await simulatedServe({ gateway: { wipeResultFailures: 3 }, redelivery: { intervalMs: 60_000, afterKeptMs: 100 } });
    const s = sut;
    await s.controller.bootUp();
    const device = s.controller.snapshot().drives[0]?.device ?? '';
    expect(await intent(s, { type: 'select', devices: [device] })).toBe(200);
    expect(await intent(s, { type: 'confirm', text: 'ERASE 1 DRIVE' })).toBe(200);
    expect(await intent(s, { type: 'start' })).toBe(200);
    await until(() => s.controller.snapshot().run.status === 'finished', 30_000);
    const finished: AgentState = s.controller.snapshot();
    expect(finished.results.map((r) => [r.erased, r.delivered])).toEqual([[true, false]]);

    await until(() => outbox(s).length === 0, 10_000);
    const sent = s.gateway.calls.filter((c) => c.path === '/api/wipe_result');
    expect(sent.map((c) => c.body.job_id)).toEqual(Array(4).fill(sent[0]?.body.job_id));
  }, 60_000);

  /** Erases the first simulated drive with a gateway that refuses the session's three sends; returns once the run finished. */
  const eraseWhileDown = async (s: Sut) => {
    await s.controller.bootUp();
    const device = s.controller.snapshot().drives[0]?.device ?? '';
    expect(await intent(s, { type: 'select', devices: [device] })).toBe(200);
    expect(await intent(s, { type: 'confirm', text: 'ERASE 1 DRIVE' })).toBe(200);
    expect(await intent(s, { type: 'start' })).toBe(200);
    await until(() => s.controller.snapshot().run.status === 'finished', 30_000);
  };

  it('shows a result the outbox delivered later as delivered, with its certificate number, in the agent state', async () => {
    sut = await simulatedServe({ gateway: { wipeResultFailures: 3 }, redelivery: { intervalMs: 60_000, afterKeptMs: 100 } });
    const s = sut;
    await eraseWhileDown(s);
    expect(s.controller.snapshot().results.map((r) => [r.erased, r.delivered])).toEqual([[true, false]]);
    expect(s.controller.snapshot().run).toMatchObject({ phase: 'failed', exit_code: 3, reason: '1 wipe result(s) not delivered' });

    // The nudge's round delivers it; the state follows, and the certificate lookup starts for it.
    await until(() => s.controller.snapshot().results[0]?.certificate_number != null, 10_000);
    const after = s.controller.snapshot();
    expect(after.results[0]).toMatchObject({ erased: true, delivered: true, wipe_result_id: 'wr_1', certificate_number: 'CW-000001' });
    expect(after.results[0]?.error).toBeUndefined();
    expect(after.run).toMatchObject({ status: 'finished', phase: 'done', exit_code: 0 });
    expect(after.run.reason).toBeUndefined();
  }, 60_000);

  it('Send now delivers the kept results at once', async () => {
    // Neither the minute's round nor the nudge comes within the test: only Send now can deliver.
    sut = await simulatedServe({ gateway: { wipeResultFailures: 3 }, redelivery: { intervalMs: 600_000, afterKeptMs: 600_000 } });
    const s = sut;
    await eraseWhileDown(s);
    expect(outbox(s)).toHaveLength(1);
    expect(await intent(s, { type: 'send_results' })).toBe(200);
    expect(outbox(s)).toEqual([]);
    expect(s.controller.snapshot().results.map((r) => r.delivered)).toEqual([true]);
  }, 60_000);

  it('no longer counts a result the outbox delivered later as waiting, so Shut down and Restart ask no second time', async () => {
    // Neither the minute's round nor the nudge comes within the test: Send now delivers, once the gateway answers again.
    sut = await simulatedServe({ gateway: { wipeResultFailures: 3 }, redelivery: { intervalMs: 600_000, afterKeptMs: 600_000 } });
    const s = sut;
    await eraseWhileDown(s);
    expect(s.controller.snapshot().power?.pending_results).toBe(1);
    expect(await intent(s, { type: 'send_results' })).toBe(200);
    expect(outbox(s)).toEqual([]);
    // What the kiosk reads before it asks: no result waits any more, without a power intent counting them again.
    await until(() => s.controller.snapshot().power?.pending_results === 0, 10_000);
    expect(await intent(s, { type: 'restart' })).toBe(200);
    expect(s.controller.snapshot().power?.last).toMatch(/it would restart now/);
  }, 60_000);

  it('Send now says the service is still unreachable and keeps the result when the gateway is still down', async () => {
    sut = await simulatedServe({ gateway: { wipeResultFailures: 5 }, redelivery: { intervalMs: 600_000, afterKeptMs: 600_000 } });
    const s = sut;
    await eraseWhileDown(s);
    const r = await s.app.inject({ method: 'POST', url: '/api/intents', payload: { type: 'send_results' } });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: expect.stringMatching(/still unreachable: 1 result\(s\) stay saved/) });
    expect(outbox(s)).toHaveLength(1);
    expect(s.controller.snapshot().results.map((r) => r.delivered)).toEqual([false]);
  }, 60_000);
});
