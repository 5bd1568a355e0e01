import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToken } from '../../src/adapters/db/tokens.js';
import { verifyPdf } from '../../src/cli/certificates.js';
import { readEmbeddedCertificate } from '../../src/domain/certificates/embedded-certificate.js';
import { startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { adminAndTechnician, type Browser } from '../web-helpers.js';

// Issue 31 item 7 part B: certificates and reports in English, German, French or Spanish, per
// account (an admin setting) or per device token (which overrides the account's); the language is
// fixed on the certificate row when its job first runs, and the signed record is the same in each.
const URL = '/app/api/certificate-language';

describe('the language of an account’s certificates', () => {
  let cloud: CertificateCloud;
  let account: Awaited<ReturnType<CertificateCloud['account']>>;
  let admin: Browser;
  let technician: Browser;
  let dir: string;

  beforeEach(async () => {
    cloud = await startCertificateCloud();
    account = await cloud.account('Acme Refurb');
    ({ admin, technician } = await adminAndTechnician(cloud, account.id));
    dir = mkdtempSync(join(tmpdir(), 'cert-language-'));
  });
  afterEach(async () => {
    await cloud.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const mint = async (language: 'en' | 'de' | 'fr' | 'es' | null = null) =>
    (await createToken(cloud.db, { accountId: account.id, product: 'engine', quotaLimit: null, userEmail: 'tech@acme.test', expiresAt: null, certificateLanguage: language, now: new Date().toISOString() })).jti;
  const certificateOf = async (wipeResultId: string) =>
    (await cloud.row<{ wipe_result_id: number; language: string | null; certificate_key: string | null; report_key: string | null }>(
      'SELECT c.* FROM certificates c JOIN wipe_results w ON w.id = c.wipe_result_id WHERE w.public_id = @wipeResultId',
      { wipeResultId },
    ))!;
  const issue = async (jti: string, jobId: string) => {
    const { wipe_result_id } = await submitWipe(cloud, jti, jobId);
    await cloud.drain();
    const cert = await certificateOf(wipe_result_id);
    return { wipeResultId: wipe_result_id, cert, certificate: (await cloud.store.get(cert.certificate_key!))!, report: (await cloud.store.get(cert.report_key!))! };
  };
  const text = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return { path, text: execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ') };
  };
  const verify = (path: string) => verifyPdf(path, {}, (check) => check({ publicKeys: cloud.keys.publicKeys, pdfCertificateOnRecord: cloud.keys.pdfCertificateOnRecord }));

  it('is English until an admin chooses another of the four languages; anything else is a 400 and changes nothing', async () => {
    expect((await admin.get(URL)).json).toEqual({
      language: 'en',
      languages: [{ code: 'en', name: 'English' }, { code: 'de', name: 'Deutsch' }, { code: 'fr', name: 'Français' }, { code: 'es', name: 'Español' }],
    });
    expect(await admin.send('PUT', URL, { language: 'de' })).toMatchObject({ status: 200, json: { language: 'de' } });
    for (const bad of [{ language: 'it' }, { language: 'de', extra: 1 }, {}, { language: null }]) {
      expect(await admin.send('PUT', URL, bad)).toMatchObject({ status: 400, json: { error: expect.stringContaining('en, de, fr, es') } });
    }
    expect((await technician.get(URL)).json.language).toBe('de');
  });

  it('is changed by admins only: a technician gets 403 and the language stays', async () => {
    expect((await technician.send('PUT', URL, { language: 'fr' })).status).toBe(403);
    expect((await admin.get(URL)).json.language).toBe('en');
  });

  it('draws the certificate and report in the account’s language, with the same signed record, and verify-pdf finds it valid', async () => {
    await admin.send('PUT', URL, { language: 'de' });
    const { cert, certificate, report } = await issue(await mint(), 'job-de-1');
    expect(cert.language).toBe('de');
    const page = text('de.pdf', certificate);
    expect(page.text).toContain('Löschzertifikat');
    expect(text('de-report.pdf', report).text).toContain('Löschbericht');
    expect(await verify(page.path)).toMatchObject({ valid: true });
    // The record carries no language: it is the one an English certificate of this wipe would carry.
    expect(JSON.stringify((await readEmbeddedCertificate(certificate))!.content)).not.toMatch(/"(language|de)"/);
  });

  it('a token’s language overrides the account’s', async () => {
    await admin.send('PUT', URL, { language: 'de' });
    const { cert, certificate } = await issue(await mint('es'), 'job-es-1');
    expect(cert.language).toBe('es');
    const page = text('es.pdf', certificate);
    expect(page.text).toContain('Certificado de borrado seguro');
    expect(await verify(page.path)).toMatchObject({ valid: true });
  });

  it('keeps the language a certificate was first drawn in when its job runs again after the setting changed', async () => {
    await admin.send('PUT', URL, { language: 'fr' });
    const first = await issue(await mint(), 'job-fr-1');
    expect(first.cert.language).toBe('fr');
    await admin.send('PUT', URL, { language: 'en' });
    // The job runs again (a retry or re-render): same row, same language.
    const attempts = async () => (await cloud.row<{ attempts: number }>(`SELECT attempts FROM jobs WHERE subject_id = @id AND kind = 'certificate'`, { id: first.cert.wipe_result_id })).attempts;
    const before = await attempts();
    await cloud.db.run(`UPDATE jobs SET status = 'pending', run_at = '2000-01-01T00:00:00.000Z', lease_until = NULL WHERE subject_id = @id AND kind = 'certificate'`, { id: first.cert.wipe_result_id });
    await cloud.drain();
    expect(Number(await attempts())).toBe(Number(before) + 1);
    const again = await certificateOf(first.wipeResultId);
    expect(again.language).toBe('fr');
    expect(text('fr-again.pdf', (await cloud.store.get(again.certificate_key!))!).text).toContain('Certificat d’effacement');
  });
});
