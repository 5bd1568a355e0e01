import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

const REPORT = '/internal/validations';

// Issue 29 (5), R2v3 Appendix B: a validation rate per account, drives picked at random per lot,
// and a validation result that approves or rejects the original wipe.
describe('validation sampling per lot', () => {
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

  /** `count` certified wipes of the lot token, drives `SER-<prefix>-<n>`. */
  const wipes = async (count: number, prefix = 'a', jti = lotJti) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n += 1) {
      ids.push((await submitWipe(sut, jti, `run${prefix}-${n}`, { drive_serial: `SER-${prefix}-${n}` })).wipe_result_id);
    }
    return ids;
  };
  const view = async () => (await admin.get('/app/api/validation')).json;

  it('defaults to 5 %: the 20th certified drive of a lot picks one of the twenty, and nothing before', async () => {
    expect(await view()).toMatchObject({ rate_percent: 5, rate_source: 'default', can_edit: true, samples: [] });
    const ids = await wipes(19);
    expect((await view()).samples).toEqual([]);
    ids.push(...(await wipes(1, 'b')));
    const { lots, samples } = await view();
    expect(lots).toEqual([expect.objectContaining({ customer: 'Northwind Bank', lot_reference: 'LOT-7', rate_percent: 5, certified: 20, sample_size: 1, closed_at: null })]);
    expect(samples).toHaveLength(1);
    expect(ids).toContain(samples[0].wipe_result_id);
    expect(samples[0]).toMatchObject({ certificate_number: expect.stringMatching(/^CW-\d{6}$/), drive_serial: expect.stringMatching(/^SER-/), outcome: null });
  });

  it('picks among the lot’s certified wipes only, never a failed one or another lot’s, and keeps the picks in rows', async () => {
    expect((await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 50 })).status).toBe(200);
    const certified = await wipes(4);
    await submitWipe(sut, lotJti, 'runf-0', { drive_serial: 'SER-failed', wipe_status: 'failed' });
    await wipes(3, 'x', (await sut.token(account.id)).jti); // no lot on this token: never sampled
    const { lots, samples } = await view();
    expect(lots).toHaveLength(1);
    expect(lots[0]).toMatchObject({ certified: 4, sample_size: 2, rate_percent: 50 });
    expect(new Set(samples.map((s: { wipe_result_id: string }) => s.wipe_result_id)).size).toBe(2);
    for (const s of samples) expect(certified).toContain(s.wipe_result_id);
    expect(Number((await sut.row<{ n: number }>('SELECT COUNT(*) AS n FROM validation_samples')).n)).toBe(2);
  });

  it('closing a lot tops its sample up to the rate rounded up, at least one drive, and freezes the rate', async () => {
    await wipes(3);
    const before = await view();
    expect(before.samples).toEqual([]);
    const lot = before.lots[0].id as string;
    expect(await admin.send('POST', `/app/api/validation/lots/${lot}/close`)).toMatchObject({ status: 200, json: { ok: true, picked: 1 } });
    expect(await admin.send('POST', `/app/api/validation/lots/${lot}/close`)).toMatchObject({ status: 409 });
    await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 100 });
    const after = await view();
    expect(after.lots[0]).toMatchObject({ sample_size: 1, rate_percent: 5, closed_at: expect.any(String) });
    expect(await admin.send('POST', '/app/api/validation/lots/lot_nope/close')).toMatchObject({ status: 404 });
  });

  it('only an admin sets the rate or closes a lot, and a rate outside 1–100 is refused with why', async () => {
    const tech = await signIn(sut, (await addUser(sut, account.id, 'technician')).email);
    expect((await tech.send('PUT', '/app/api/validation/rate', { rate_percent: 10 })).status).toBe(403);
    expect((await tech.get('/app/api/validation')).json).toMatchObject({ can_edit: false });
    for (const bad of [0, 101, 2.5, '10', null]) {
      expect(await admin.send('PUT', '/app/api/validation/rate', { rate_percent: bad })).toMatchObject({ status: 422, json: { error: expect.stringContaining('1 to 100') } });
    }
    expect((await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 10 })).json).toEqual({ rate_percent: 10, rate_source: 'account' });
    expect(await view()).toMatchObject({ rate_percent: 10, rate_source: 'account' });
  });

  describe('reporting a validation (POST /internal/validations, beyond the spec)', () => {
    let picked: { certificate_number: string; drive_serial: string; wipe_result_id: string; certificate_id: string };
    beforeEach(async () => {
      await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 100 });
      await wipes(2);
      await sut.drain();
      picked = (await view()).samples[0];
    });
    const report = (fields: Record<string, unknown> = {}) =>
      sut.post(REPORT, { jti: lotJti, validation_id: 'val-1', certificate_number: picked.certificate_number, drive_serial: picked.drive_serial, result: 'approved', ...fields });
    const wipeRow = () => sut.row<{ validation: string | null; disposition: string | null }>('SELECT validation, disposition FROM wipe_results WHERE public_id = @id', { id: picked.wipe_result_id });
    const verify = async () => (await sut.app.inject({ method: 'GET', url: `/certificates/${picked.certificate_id}/verify` })).json();

    it('approved sets validation: approved on the record; the certificate stays valid; a repeat changes nothing', async () => {
      const first = await report();
      expect(first).toMatchObject({ status: 201, json: { ok: true, validation: 'approved', disposition: null, wipe_result_id: picked.wipe_result_id } });
      expect(await wipeRow()).toMatchObject({ validation: 'approved' });
      expect(await verify()).toMatchObject({ valid: true });
      expect(await report()).toMatchObject({ status: 200, json: first.json });
      expect((await view()).lots[0]).toMatchObject({ sample_size: 2, passed: 1, failed: 0, needs_attention: false });
    });

    it('rejected sets validation: rejected and disposition: review, fails the verify answer with the reason, and flags the lot', async () => {
      expect(await verify()).toMatchObject({ valid: true });
      const reason = 'a PDF document was found at byte 1048576';
      expect(await report({ result: 'rejected', reason })).toMatchObject({ status: 201, json: { validation: 'rejected', disposition: 'review' } });
      expect(await wipeRow()).toEqual({ validation: 'rejected', disposition: 'review' });
      expect(await verify()).toMatchObject({ valid: false, validation: 'rejected', reason });
      const page = await sut.app.inject({ method: 'GET', url: `/certificates/${picked.certificate_id}/verify`, headers: { accept: 'text/html' } });
      expect(page.body).toContain('Not valid: failed validation');
      expect(page.body).toContain(reason);
      const { lots, samples } = await view();
      expect(lots[0]).toMatchObject({ needs_attention: true, failed: 1, passed: 0, sample_size: 2 });
      expect(samples.find((s: { wipe_result_id: string }) => s.wipe_result_id === picked.wipe_result_id)).toMatchObject({ outcome: 'rejected', reason });
      // Another report for the same drive does not overturn it.
      expect(await report({ validation_id: 'val-2' })).toMatchObject({ status: 409 });
      expect(await verify()).toMatchObject({ valid: false });
    });

    it.each([
      ['an unknown certificate number', { certificate_number: 'CW-999999' }, 404],
      ['a serial that is not the certificate’s drive', { drive_serial: 'OTHER' }, 404],
      ['a rejection without a reason', { result: 'rejected' }, 422],
      ['a result that is neither approved nor rejected', { result: 'maybe' }, 422],
      ['no validation id', { validation_id: undefined }, 422],
    ])('answers %s with a 4xx JSON error and changes nothing', async (_name, fields, status) => {
      const res = await report(fields);
      expect(res.status).toBe(status);
      expect(res.json).toEqual({ error: expect.any(String) });
      expect(await wipeRow()).toMatchObject({ validation: null });
    });

    it('the lot’s merged PDF states the sample size, how many passed, and the rate set', async () => {
      expect((await report()).status).toBe(201);
      const ids = (await view()).samples.map((s: { wipe_result_id: string }) => s.wipe_result_id);
      const res = await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?format=pdf&ids=${ids.join(',')}`, headers: { cookie: admin.cookie } });
      expect(res.statusCode).toBe(200);
      const file = join(sut.dir, 'lot.pdf');
      writeFileSync(file, res.rawPayload);
      const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(text.toLowerCase()).toContain('validation sampling (r2v3 appendix b)');
      expect(text).toContain('Northwind Bank · LOT-7: 2 of 2 certified drives picked at random for independent validation at the rate set, 100 %; 1 passed, 1 not validated yet.');
      // The lot certificate's verify page states the same sample.
      const manifest = JSON.parse(execFileSync('qpdf', [file, '--show-attachment=lot.json'], { encoding: 'utf8' })) as { verify_url: string };
      const verified = (await sut.app.inject({ method: 'GET', url: new URL(manifest.verify_url).pathname })).json();
      expect(verified.summary.validation).toEqual(['Northwind Bank · LOT-7: 2 of 2 certified drives picked at random for independent validation at the rate set, 100 %; 1 passed, 1 not validated yet.']);
    });

    it('refuses a drive that was not picked, and another account’s certificate', async () => {
      await admin.send('PUT', '/app/api/validation/rate', { rate_percent: 1 });
      const other = (await sut.token(account.id, { customer: 'Northwind Bank', lot: 'LOT-8' })).jti;
      const unpicked = await submitWipe(sut, other, 'runz-0', { drive_serial: 'SER-z' });
      const cert = await certificateOf(sut, unpicked.wipe_result_id);
      expect(await sut.post(REPORT, { jti: other, validation_id: 'v', certificate_number: cert.certificate_number, drive_serial: 'SER-z', result: 'approved' })).toMatchObject({
        status: 409,
        json: { error: 'this drive was not picked for validation' },
      });
      const stranger = (await sut.token((await sut.account('Other Refurb')).id)).jti;
      expect((await sut.post(REPORT, { jti: stranger, validation_id: 'v', certificate_number: picked.certificate_number, drive_serial: picked.drive_serial, result: 'rejected', reason: 'x' })).status).toBe(404);
      expect(await wipeRow()).toMatchObject({ validation: null });
    });
  });
});
