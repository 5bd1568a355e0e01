import { describe, expect, it } from 'vitest';
import { forwardingGateway } from '../support/forwarding.js';
import { ACCOUNT } from '../support/tokens.js';

// Issue 32: a machine's live state travels on a device route beyond the spec, with the same
// device token and HMAC forward as the rest; a floor view switched off reaches the agent as 404.
describe('POST /api/floor_report', () => {
  const gw = forwardingGateway();
  const report = {
    machine_id: 'dmi-4c4c4544-0052',
    boot_id: 'boot-1',
    kind: 'machine',
    sequence: 3,
    sent_at: '2026-11-28T16:00:05Z',
    drives: [{ device: '/dev/sda', serial: 'Z9A1', stage: 'write', pass: 1, passes: 1, bytes_done: 512, bytes_total: 1024, bytes_per_second: 8, eta_seconds: 64 }],
  };


  it('forwards the report, signed, to /internal/floor_report with the token’s jti and account, and passes the answer through', async () => {
    gw.cloud.script(() => ({ status: 200, json: { ok: true, stored: true } }));
    expect(await gw.sut.call('/api/floor_report', { token: gw.token, json: report })).toMatchObject({ status: 200, body: { ok: true, stored: true } });
    expect(gw.cloud.seen[0]?.url).toBe('/internal/floor_report');
    expect(gw.cloud.seen[0]?.json).toEqual({ jti: gw.jti, account_id: ACCOUNT, ...report });
    expect(gw.cloud.seen[0]?.signatureValid).toBe(true);
  });

  it('refuses a report outside the contract with 400 and does not ask the cloud', async () => {
    expect((await gw.sut.call('/api/floor_report', { token: gw.token, json: { ...report, drives: [{ device: '/dev/sda', stage: 'sleeping' }] } })).status).toBe(400);
    expect(gw.cloud.seen).toHaveLength(0);
  });

  it('refuses a report without a device token', async () => {
    expect((await gw.sut.call('/api/floor_report', { json: report })).status).toBe(401);
    expect(gw.cloud.seen).toHaveLength(0);
  });

  it('relays the floor view switched off as a 404', async () => {
    gw.cloud.script(() => ({ status: 404, json: { error: 'the floor view is off on this deployment' } }));
    expect((await gw.sut.call('/api/floor_report', { token: gw.token, json: report })).status).toBe(404);
  });
});
