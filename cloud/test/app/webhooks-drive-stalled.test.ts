import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FloorReportBody } from '@erasure/shared';
import { setFloorStallSeconds } from '../../src/adapters/db/floor-machines.js';
import { signatureValid, startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

// Beyond the spec's six events (issue 32): `drive_stalled`, when a drive on the floor makes no
// byte progress for the account's stall time. The stall time is set to one second here (the
// setting's own floor is a minute) so the test waits one second, not ten minutes.
describe('webhook drive_stalled', () => {
  let sut: WebhookCloud;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeEach(async () => {
    sut = await startWebhookCloud();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await sut.close();
    await receiver.close();
  });

  let sequence = 0;
  const report = (bytesDone: number, overrides: Partial<FloorReportBody['drives'][number]> = {}): FloorReportBody => ({
    machine_id: 'station-rack-2',
    boot_id: 'boot-1',
    name: 'Rack 2',
    kind: 'station',
    sequence: ++sequence,
    sent_at: new Date().toISOString(),
    drives: [{ device: '/dev/sdc', bay: 'Bay 3', model: 'ST4000NM', serial: 'ZC1', stage: 'write', pass: 1, bytes_done: bytesDone, bytes_total: 1000, lot_reference: 'LOT-7', ...overrides }],
  });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('fires once per stall, signed, naming the machine, the bay and the drive; moving and stopping again is a new stall', async () => {
    const account = await sut.account();
    await setFloorStallSeconds(sut.db, account.id, 1);
    const { secret } = await sut.subscribe(account.id, 'drive_stalled', `${receiver.url}/hook`);
    const token = await sut.token(account.id);
    const send = async (body: FloorReportBody) => expect((await sut.post('/internal/floor_report', { jti: token.jti, ...body })).status).toBe(200);

    await send(report(370));
    await pause(1100);
    await send(report(370));
    await send(report(370));
    await waitFor(async () => (await sut.deliveries()).filter((d) => d.status === 'delivered').length === 1, 10_000, 'one delivery');
    const hook = receiver.requests.find((r) => r.json?.event_type === 'drive_stalled')!;
    expect(hook.headers['x-erase-engine-event']).toBe('drive_stalled');
    expect(signatureValid(secret, hook)).toBe(true);
    expect(hook.json).toMatchObject({
      type: 'floor_drive',
      id: 'station-rack-2:/dev/sdc',
      machine_name: 'Rack 2',
      bay: 'Bay 3',
      serial: 'ZC1',
      stage: 'write',
      bytes_done: 370,
      lot_reference: 'LOT-7',
      floor_url: 'https://cloud.example.test/floor',
    });

    await send(report(400));
    await pause(1100);
    await send(report(400));
    await waitFor(async () => (await sut.deliveries()).filter((d) => d.status === 'delivered').length === 2, 10_000, 'a second delivery');
    expect(receiver.requests.filter((r) => r.json?.event_type === 'drive_stalled').map((r) => r.json.bytes_done)).toEqual([370, 400]);
  });

  it('a firmware erase whose time the drive estimated never stalls', async () => {
    const account = await sut.account();
    await setFloorStallSeconds(sut.db, account.id, 1);
    await sut.subscribe(account.id, 'drive_stalled', `${receiver.url}/hook`);
    const token = await sut.token(account.id);
    const firmware = { stage: 'firmware' as const, pass: 0, drive_estimate: true };
    expect((await sut.post('/internal/floor_report', { jti: token.jti, ...report(0, firmware) })).status).toBe(200);
    await pause(1100);
    expect((await sut.post('/internal/floor_report', { jti: token.jti, ...report(0, firmware) })).status).toBe(200);
    expect(Number((await sut.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM webhook_events WHERE event_type = 'drive_stalled'`))!.n)).toBe(0);
  });
});
