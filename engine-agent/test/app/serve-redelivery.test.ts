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
});
