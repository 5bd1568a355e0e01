import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wipeGridReaderOnce } from '../../src/adapters/db/wipes-grid.js';
import { verifyPdf } from '../../src/cli/certificates.js';
import { drainLotExportJobs, LOT_EXPORT_WORKER_DEFAULTS } from '../../src/jobs/lot-export-worker.js';
import { testFonts } from '../certificates/fixtures.js';
import { PUBLIC_BASE_URL, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

// Issue 31 item 7, the lot document: drawn in the account's certificate language when the lot is
// made, like the certificates it carries, whether served in the request or made by the export job.
describe('the lot certificate in the account’s language', { timeout: 180_000 }, () => {
  let sut: CertificateCloud;
  let admin: Browser;
  let wipes: string[];
  let dir: string;

  beforeEach(async () => {
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurb');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    admin = await signIn(sut, 'admin@acme.test');
    dir = mkdtempSync(join(tmpdir(), 'lot-language-'));
    const { jti } = await sut.token(account.id);
    wipes = [];
    wipes.push((await submitWipe(sut, jti, 'job-lang-0', { drive_serial: 'SER-A' })).wipe_result_id);
    wipes.push((await submitWipe(sut, jti, 'job-lang-1', { drive_serial: 'SER-FAILED', wipe_status: 'failed' })).wipe_result_id);
  }, 120_000);
  afterEach(async () => {
    await sut.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The language set before the certificates are made: they and the lot read the same. */
  const choose = async (language: 'de' | 'fr') => {
    expect(await admin.send('PUT', '/app/api/certificate-language', { language })).toMatchObject({ status: 200 });
    await sut.drain();
  };
  const read = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return { path, text: execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ') };
  };
  const verify = (path: string) => verifyPdf(path, {}, (check) => check({ publicKeys: sut.keys.publicKeys, pdfCertificateOnRecord: sut.keys.pdfCertificateOnRecord }));

  it('an account set to German gets a German lot certificate from the lot PDF route, signed and verifying', async () => {
    await choose('de');
    const res = await sut.app.inject({ method: 'GET', url: `/app/api/wipes/certificates?format=pdf&ids=${wipes.join(',')}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const lot = read('lot-de.pdf', res.rawPayload);
    for (const words of ['Los-Löschzertifikat', 'Bearbeitet von', 'LAUFWERKE IN DIESEM LOS', '(1 Bestanden, 1 Nicht bestanden); 1 mit Zertifikat', 'Zum Prüfen des Loses scannen', 'Dieses Dokument ist einmal als Ganzes signiert']) {
      expect(lot.text).toContain(words);
    }
    expect(lot.text).not.toContain('Lot Certificate of Sanitization');
    expect(lot.text).not.toContain('with a certificate');
    // Made: the date as German writes it (DD.MM.YYYY), not the English 2026-…
    expect(lot.text).toMatch(/ \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2} UTC /);
    expect(spawnSync('pdfsig', [lot.path], { encoding: 'utf8' }).stdout).toMatch(/Signature is Valid\./);
    expect(await verify(lot.path)).toMatchObject({ valid: true, kind: 'lot' });
  });

  it('an account set to French gets a French lot certificate from the background export job', async () => {
    await choose('fr');
    const started = await admin.send('POST', '/app/api/lot-exports', { format: 'pdf', ids: wipes });
    expect(started.status).toBe(202);
    expect(await drainLotExportJobs({
      ...LOT_EXPORT_WORKER_DEFAULTS, leaseMs: 60_000, db: sut.db, clock: sut.clock, store: sut.store, wipeGrid: wipeGridReaderOnce(sut.db),
      fonts: testFonts, pdfSigning: () => sut.keys.pdfSigning(), publicBaseUrl: PUBLIC_BASE_URL,
    })).toBe(1);
    const res = await sut.app.inject({ method: 'GET', url: `/app/api/lot-exports/${started.json.id}/download`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const lot = read('lot-fr.pdf', res.rawPayload);
    for (const words of ['Certificat d’effacement du lot', 'Traité par', 'DISQUES DE CE LOT', '(1 Réussi, 1 Échec) ; 1 avec certificat', 'Ce document est signé une seule fois']) expect(lot.text).toContain(words);
    expect(lot.text).not.toContain('Lot Certificate of Sanitization');
    expect(await verify(lot.path)).toMatchObject({ valid: true, kind: 'lot' });
  });
});
