import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '../../src/cli/certificates.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, openDevices, SCREENS_DIR } from './web-fixture.js';

/**
 * Issue 31 item 7 part B in the browser: an admin chooses each of the four languages on /devices,
 * and the next certificate and report the real cloud issues read in that language (pdftotext),
 * verify as valid, and for German and French are rendered to PNGs (pdftoppm) to be looked at.
 */
const WORDS = {
  de: ['Löschzertifikat', 'Löschbericht'],
  fr: ['Certificat d’effacement', 'Rapport d’effacement'],
  es: ['Certificado de borrado seguro', 'Informe de borrado'],
  en: ['Certificate of Sanitization', 'Erasure Report'],
} as const;

describe('the certificate language, chosen on the Devices page', { timeout: 300_000 }, () => {
  let cloud: CertificateCloud;
  let base: string;
  let jti: string;
  let dir: string;
  let desktop: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startCertificateCloud();
    const account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    jti = (await cloud.token(account.id)).jti;
    base = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
    desktop = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), 'web-language-'));
  }, 180_000);
  afterAll(async () => {
    await desktop?.close();
    await cloud?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const card = () => desktop.page.locator('[data-testid="certificate-language"]');
  const pdf = (name: string, bytes: Uint8Array, render: boolean) => {
    const path = join(dir, `${name}.pdf`);
    writeFileSync(path, bytes);
    if (render) execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', path, join(SCREENS_DIR, `70-web-${name}`)]);
    return { path, text: execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ') };
  };

  it.each(Object.keys(WORDS) as (keyof typeof WORDS)[])('an admin chooses %s and the next certificate and report are written in it', async (language) => {
    await openDevices(desktop, base, 'admin@acme.test');
    const { page } = desktop;
    await page.selectOption('[data-testid="certificate-language-select"]', language);
    await page.click('[data-testid="certificate-language-save"]');
    await expect.poll(() => card().locator('.note-ok').innerText()).toMatch(/^Saved\. Certificates issued from now on are in /);
    if (language === 'de') {
      await card().scrollIntoViewIfNeeded();
      await card().screenshot({ path: join(SCREENS_DIR, '69-certificate-language-settings.png') });
    }

    const { wipe_result_id } = await submitWipe(cloud, jti, `job-language-${language}-0`);
    await cloud.drain();
    const cert = await certificateOf(cloud, wipe_result_id);
    const render = language === 'de' || language === 'fr';
    const certificate = pdf(`certificate-${language}`, (await cloud.store.get(cert.certificate_key!))!, render);
    const report = pdf(`report-${language}`, (await cloud.store.get(cert.report_key!))!, render);
    expect(certificate.text).toContain(WORDS[language][0]);
    expect(report.text).toContain(WORDS[language][1]);
    const verdict = await verifyPdf(certificate.path, {}, (check) => check({ publicKeys: cloud.keys.publicKeys, pdfCertificateOnRecord: cloud.keys.pdfCertificateOnRecord }));
    expect(verdict).toMatchObject({ valid: true });
  });

  it('offers a language per device token on the Downloads page, the account’s setting first', async () => {
    const { page } = desktop;
    await page.goto(`${base}/downloads`);
    const select = page.locator('[data-testid="token-language-engine"]');
    await select.waitFor();
    expect(await select.locator('option').allInnerTexts()).toEqual(['Your account’s setting', 'English', 'Deutsch', 'Français', 'Español']);
    await select.selectOption('fr');
    await page.locator('.download-card').first().screenshot({ path: join(SCREENS_DIR, '71-downloads-token-language.png') });
    expect(await page.locator('form[action="/app/api/downloads/device-token"] input[name="language"]').first().inputValue()).toBe('fr');
  });
});
