import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveValidationRate } from '../../src/adapters/db/validation.js';
import { wipeBody } from '../certificates/pipeline.js';
import { issueCheckin } from '../helpers.js';
import { signatureValid, startReceiver, startWebhookCloud, waitFor, type WebhookCloud } from '../webhook-helpers.js';

// Beyond the spec's six events (issue 29): `validation_rejected`, when a drive picked for
// validation fails it.
describe('webhook validation_rejected', () => {
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

  it('fires once, signed, naming the certificate, the drive, the lot and the reason; a repeated report fires nothing more', async () => {
    const account = await sut.account();
    const { secret } = await sut.subscribe(account.id, 'validation_rejected', `${receiver.url}/hook`);
    const approvedOnly = await sut.subscribe(account.id, 'wipe_session_completed', `${receiver.url}/completed`);
    await saveValidationRate(sut.db, { accountId: account.id, ratePercent: 100, userId: null, now: new Date().toISOString() });
    const token = await sut.token(account.id, { customer: 'Northwind Bank', lot: 'LOT-7' });
    await issueCheckin(sut.db, token.jti, 'run-0');
    expect((await sut.post('/internal/wipe_results', wipeBody(token.jti, 'run-0', { drive_serial: 'SER-1' }))).status).toBe(201);
    const cert = (await sut.db.one<{ certificate_number: string; public_id: string }>('SELECT certificate_number, public_id FROM certificates'))!;
    const report = { jti: token.jti, validation_id: 'val-1', certificate_number: cert.certificate_number, drive_serial: 'SER-1', result: 'rejected', reason: 'a JPEG image was found at byte 4096' };
    expect((await sut.post('/internal/validations', report)).status).toBe(201);
    expect((await sut.post('/internal/validations', report)).status).toBe(200);

    await waitFor(async () => (await sut.deliveries()).filter((d) => d.status === 'delivered').length === 2, 10_000, 'two deliveries');
    const hooks = receiver.requests.filter((r) => r.json?.event_type === 'validation_rejected');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.headers['x-erase-engine-event']).toBe('validation_rejected');
    expect(signatureValid(secret, hooks[0]!)).toBe(true);
    expect(signatureValid(approvedOnly.secret, hooks[0]!)).toBe(false);
    expect(hooks[0]!.json).toMatchObject({
      type: 'validation',
      certificate_id: cert.public_id,
      certificate_number: cert.certificate_number,
      drive_serial: 'SER-1',
      lot_id: expect.stringMatching(/^lot_/),
      validation: 'rejected',
      disposition: 'review',
      reason: 'a JPEG image was found at byte 4096',
      verify_url: expect.stringContaining(`/certificates/${cert.public_id}/verify`),
    });
  });
});
