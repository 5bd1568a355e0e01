import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

const PICK = '/internal/validations/pick';
const REPORT = '/internal/validations';

// Issue 29 (5): the validate mode asks by drive serial only whether the cloud picked the drive,
// and gets the certificate number and what the method left, so nobody types either.
describe('which drive to validate (POST /internal/validations/pick, beyond the spec)', () => {
  let sut: CertificateCloud;
  let account: { id: number };
  let admin: Browser;
  let lotJti: string;
  beforeEach(async () => {
    sut = await startCertificateCloud();
    account = await sut.account('Acme Refurb');
    admin = await signIn(sut, (await addUser(sut, account.id, 'admin')).email);
    lotJti = (await sut.token(account.id, { customer: 'Northwind Bank', lot: 'LOT-7' })).jti;
  });
  afterEach(() => sut.close());

  const pick = (drive_serial: string, jti = lotJti) => sut.post(PICK, { jti, drive_serial });
  const samples = async () => (await admin.get('/app/api/validation')).json.samples as { drive_serial: string; certificate_number: string; wipe_result_id: string }[];
  const uses = async () => ({
    used: Number((await sut.row<{ use_count: number }>('SELECT use_count FROM license_tokens WHERE jti = @jti', { jti: lotJti })).use_count),
    checkins: Number((await sut.row<{ n: number }>('SELECT COUNT(*) AS n FROM checkins')).n),
  });

  it('answers a picked drive with its certificate number, lot and what its method left, and spends no quota', async () => {
    await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 100 });
    await submitWipe(sut, lotJti, 'rund-0', { drive_serial: 'SER-DOD', wipe_method: 'DoD 5220.22-M (3 passes)', technique: 'IEEE 2883 Clear, overwrite' });
    await submitWipe(sut, lotJti, 'runv-0', { drive_serial: 'SER-VSITR', wipe_method: 'VSITR (7 passes)', technique: 'IEEE 2883 Clear, overwrite' });
    await submitWipe(sut, lotJti, 'runc-0', { drive_serial: 'SER-CRYPTO', wipe_method: 'NIST 800-88 R2 Purge', technique: 'NVMe Sanitize, Crypto Erase' });
    await submitWipe(sut, lotJti, 'runb-0', { drive_serial: 'SER-BLOCK', wipe_method: 'NIST 800-88 R2 Purge', technique: 'NVMe Sanitize, Block Erase' });
    await submitWipe(sut, lotJti, 'runl-0', { drive_serial: 'SER-CLEAR', wipe_method: 'NIST 800-88 R2 Clear', technique: 'Overwrite, single pass with verification' });
    const bySerial = new Map((await samples()).map((s) => [s.drive_serial, s]));
    const before = await uses();
    const lot = (await admin.get('/app/api/validation')).json.lots[0].id;
    for (const [serial, expect_] of [
      ['SER-DOD', { kind: 'random' }],
      ['SER-VSITR', { kind: 'pattern', hex: 'aa' }],
      ['SER-CRYPTO', { kind: 'random' }],
      ['SER-BLOCK', { kind: 'zeros' }],
      ['SER-CLEAR', { kind: 'zeros' }],
    ] as const) {
      const res = await pick(serial);
      expect(res.status, serial).toBe(200);
      expect(res.json, serial).toEqual({
        picked: true,
        certificate_number: bySerial.get(serial)!.certificate_number,
        lot_id: lot,
        wipe_method: expect.any(String),
        expect: expect_,
        validation: null,
      });
    }
    expect(await uses()).toEqual(before);
  });

  it('says in plain words when a drive was not erased with this account, or erased but not picked', async () => {
    await submitWipe(sut, lotJti, 'run-1', { drive_serial: 'SER-ONLY' }); // one drive at 5 %: not picked while the lot is open
    expect(await samples()).toEqual([]);
    expect(await pick('SER-ONLY')).toMatchObject({ status: 200, json: { picked: false, reason: expect.stringMatching(/SER-ONLY was erased \(certificate CW-\d{6}\) but was not picked/) } });
    expect(await pick('SER-NEVER')).toMatchObject({ status: 200, json: { picked: false, reason: expect.stringContaining('No certified erasure of drive SER-NEVER') } });
    // Another account's token does not see this account's drive.
    const other = await sut.account('Other Co');
    const otherJti = (await sut.token(other.id)).jti;
    expect(await pick('SER-ONLY', otherJti)).toMatchObject({ status: 200, json: { picked: false, reason: expect.stringContaining('No certified erasure') } });
    // A failed wipe is not certified: nothing to validate.
    await submitWipe(sut, lotJti, 'runf-0', { drive_serial: 'SER-FAILED', wipe_status: 'failed' });
    expect((await pick('SER-FAILED')).json).toMatchObject({ picked: false });
  });

  it('answers the recorded outcome once the drive was validated, and the latest wipe of a serial', async () => {
    await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 100 });
    await submitWipe(sut, lotJti, 'runa-0', { drive_serial: 'SER-A' });
    const [sample] = await samples();
    const report = await sut.post(REPORT, { jti: lotJti, validation_id: 'val-1', certificate_number: sample!.certificate_number, drive_serial: 'SER-A', result: 'rejected', reason: 'found a PDF document at byte 4,096' });
    expect(report.status).toBe(201);
    expect((await pick('SER-A')).json).toMatchObject({ picked: true, certificate_number: sample!.certificate_number, validation: 'rejected' });
    // Erased again: the new certificate is the one a validation would check.
    await submitWipe(sut, lotJti, 'runa2-0', { drive_serial: 'SER-A' });
    const again = (await pick('SER-A')).json;
    expect(again).toMatchObject({ picked: true, validation: null });
    expect(again.certificate_number).not.toBe(sample!.certificate_number);
  });

  it.each([
    ['no serial', {}],
    ['an empty serial', { drive_serial: '' }],
    ['a blank serial', { drive_serial: '   ' }],
    ['an unknown field', { drive_serial: 'S', extra: 1 }],
  ])('answers %s with a 4xx JSON error', async (_name, fields) => {
    const res = await sut.post(PICK, { jti: lotJti, ...fields });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: expect.any(String) });
  });

  it('follows the token rules of the other device routes: unknown token 404, revoked 403', async () => {
    expect((await sut.post(PICK, { jti: 'tok_nope', drive_serial: 'S' })).status).toBe(404);
    const revoked = (await sut.token(account.id, { status: 'revoked' })).jti;
    expect(await pick('S', revoked)).toMatchObject({ status: 403, json: { error: 'token revoked' } });
  });
});
