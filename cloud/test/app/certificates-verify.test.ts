import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, signIn } from '../web-helpers.js';

describe('GET /certificates/{id}/verify: public tamper check (spec 4.4)', () => {
  let sut: CertificateCloud;
  let certId: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurb');
    const wipe = await submitWipe(sut, (await sut.token(account.id)).jti, 'job-1-0', { passes_completed: 3, wipe_method: 'NIST 800-88 R2 Clear' });
    certId = (await certificateOf(sut, wipe.wipe_result_id)).public_id;
  });
  afterEach(() => sut.close());

  const verify = async (id = certId) => {
    const res = await sut.app.inject({ method: 'GET', url: `/certificates/${id}/verify` });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers the spec fields, valid only once the certificate is complete, without authentication', async () => {
    const pending = await verify();
    expect(pending).toEqual({
      status: 200,
      body: {
        valid: false,
        certificate_number: 'CW-000001',
        account: 'Acme Refurb',
        drive_serial: 'S4DYNX0M123456',
        drive_model: 'SAMSUNG MZVLB512HAJQ',
        drive_capacity_gb: 512,
        wipe_method: 'NIST 800-88 R2 Clear',
        passes_completed: 3,
        completed_at: '2026-11-22T10:12:30Z',
        signed_at: null,
      },
    });
    await sut.drain();
    const done = await verify();
    expect(done.body).toMatchObject({ valid: true, certificate_number: 'CW-000001', signed_at: sut.clock.now().toISOString() });
  });

  it('answers a browser (Accept: text/html) with a page, and JSON to everyone else', async () => {
    await sut.drain();
    const page = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify`, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Valid certificate');
    expect(page.body).toContain('CW-000001');
    const json = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify`, headers: { accept: '*/*' } });
    expect(json.json()).toMatchObject({ valid: true });
  });

  it("draws the page in the language asked for (?lang=), else in the certificate's own, and JSON the same in any", async () => {
    await sut.drain();
    const html = { accept: 'text/html' };
    const english = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify`, headers: html });
    expect(english.body).toContain('<html lang="en">');
    const french = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify?lang=fr`, headers: html });
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('Certificat valide');
    expect(french.body).toContain('Effacé le</th><td>22/11/2026 10:12:30 UTC');
    // A language the service does not draw in is ignored, never an error.
    const unknown = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify?lang=xx`, headers: html });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('Valid certificate');
    await sut.db.run(`UPDATE certificates SET language = 'es' WHERE public_id = @certId`, { certId });
    const spanish = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify`, headers: html });
    expect(spanish.body).toContain('Certificado válido');
    const json = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify?lang=de`, headers: { accept: 'application/json' } });
    expect(json.json()).toMatchObject({ valid: true, certificate_number: 'CW-000001' });
    const missing = await sut.app.inject({ method: 'GET', url: '/certificates/cert_unknown/verify?lang=de', headers: html });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Kein solches Zertifikat');
  });

  it('the verify page may not be shown in another site\'s frame (X-Frame-Options DENY, frame-ancestors none)', async () => {
    await sut.drain();
    for (const id of [certId, 'cert_unknown']) {
      const page = await sut.app.inject({ method: 'GET', url: `/certificates/${id}/verify`, headers: { accept: 'text/html' } });
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('offers the PDFs on the page only to a signed-in user of the owning account', async () => {
    await sut.drain();
    const html = { accept: 'text/html' };
    await sut.account('Other Refurb');
    const ownerAccount = (await sut.db.one<{ id: number }>(`SELECT account_id AS id FROM certificates WHERE public_id = @certId`, { certId }))!.id;
    await addUser(sut, ownerAccount, 'technician', 'tech@acme.test');
    const other = (await sut.db.one<{ id: number }>(`SELECT id FROM accounts WHERE name = 'Other Refurb'`))!.id;
    await addUser(sut, other, 'admin', 'admin@other.test');
    const asOwner = await (await signIn(sut, 'tech@acme.test')).get(`/certificates/${certId}/verify`, html);
    expect(asOwner.text).toContain(`href="/certificates/${certId}?document=report"`);
    const asOther = await (await signIn(sut, 'admin@other.test')).get(`/certificates/${certId}/verify`, html);
    expect(asOther.text).not.toContain('Certificate (PDF)');
    const anonymous = await sut.app.inject({ method: 'GET', url: `/certificates/${certId}/verify`, headers: html });
    expect(anonymous.body).not.toContain('Certificate (PDF)');
  });

  it('unknown id: 404 {valid:false, error:not_found}', async () => {
    expect(await verify('cert_doesnotexist000000')).toEqual({ status: 404, body: { valid: false, error: 'not_found' } });
  });

  // Each edit is made straight in the database, as an attacker with write access would.
  const edits: [string, string][] = [
    ['drive serial', `UPDATE wipe_results SET drive_serial = 'S4DYNX0M999999'`],
    ['drive model', `UPDATE wipe_results SET drive_model = 'Other model'`],
    ['capacity', `UPDATE wipe_results SET drive_capacity_gb = 1024`],
    ['wipe method', `UPDATE wipe_results SET wipe_method = 'NIST 800-88 R2 Purge'`],
    ['passes', `UPDATE wipe_results SET passes_completed = 7`],
    ['completed_at', `UPDATE wipe_results SET completed_at = '2026-11-23T10:12:30Z'`],
    ['verification hash', `UPDATE wipe_results SET verification_hash = 'ffff'`],
    ['disposition', `UPDATE wipe_results SET disposition = 'review'`],
    ['certificate number', `UPDATE certificates SET certificate_number = 'CW-000099'`],
    ['signed_at', `UPDATE certificates SET signed_at = '2020-01-01T00:00:00.000Z'`],
    ['signed content', `UPDATE certificates SET content = replace(content, 'Acme Refurb', 'Acme Refurbs')`],
    ['signature', `UPDATE certificates SET signature = (SELECT signature FROM certificates WHERE id <> certificates.id LIMIT 1)`],
    ['recorded PDF hash', `UPDATE certificates SET report_sha256 = '${'0'.repeat(64)}'`],
  ];

  it.each(edits)('editing the %s in the database flips valid to false', async (_name, sql) => {
    // A second certificate gives the signature swap a genuine signature of other content.
    const account = await sut.account('Other');
    await submitWipe(sut, (await sut.token(account.id)).jti, 'job-other');
    await sut.drain();
    expect((await verify()).body.valid).toBe(true);
    await sut.db.run(`${sql} WHERE id = (SELECT ${sql.includes('wipe_results') ? 'wipe_result_id' : 'id'} FROM certificates WHERE public_id = @id)`, { id: certId });
    expect((await verify()).body.valid).toBe(false);
  });

  it('a stored PDF that no longer matches its recorded hash, or is gone, flips valid to false', async () => {
    await sut.drain();
    const { certificate_key, report_key } = await certificateOf(sut, (await sut.row<{ public_id: string }>('SELECT public_id FROM wipe_results')).public_id);
    const original = (await sut.store.get(certificate_key!))!;
    const edited = Buffer.from(original);
    edited[edited.length - 10] ^= 1;
    await sut.store.put(certificate_key!, edited);
    expect((await verify()).body.valid).toBe(false);
    await sut.store.put(certificate_key!, original);
    expect((await verify()).body.valid).toBe(true);
    await sut.store.remove!(report_key);
    expect((await verify()).body.valid).toBe(false);
  });

  it('renaming the account later keeps the certificate valid: it signed a snapshot of the name', async () => {
    await sut.drain();
    await sut.db.run(`UPDATE accounts SET name = 'Acme Renamed'`);
    expect((await verify()).body).toMatchObject({ valid: true, account: 'Acme Refurb' });
  });

  it('a failed certificate is never valid', async () => {
    await sut.drain({ store: { ...sut.store, put: () => Promise.reject(new Error('no space')) }, maxAttempts: 1 });
    expect((await sut.row<{ status: string }>('SELECT status FROM certificates')).status).toBe('failed');
    expect((await verify()).body.valid).toBe(false);
  });
});
