import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/support/chromium.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { screenshot } from './web-fixture.js';

/**
 * A customer scans the certificate's QR code with a phone: the verify URL opens a page that says
 * valid or not in one glance, then what was erased, how and when. API clients keep the JSON.
 */
describe('the verify page on a phone (spec 4.4, for people)', { timeout: 60_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let certId: string;
  /** A certificate of an account whose certificates are drawn in German. */
  let germanCertId: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurb');
    const wipe = await submitWipe(sut, (await sut.token(account.id)).jti, 'job-1-0', { passes_completed: 1, wipe_method: 'NIST 800-88 R2 Purge', technique: 'NVMe Sanitize (crypto erase)' });
    certId = (await certificateOf(sut, wipe.wipe_result_id)).public_id;
    const german = await sut.account('Gebrauchtgeräte Nord GmbH');
    await sut.db.run(`UPDATE accounts SET certificate_language = 'de' WHERE id = @id`, { id: german.id });
    const germanWipe = await submitWipe(sut, (await sut.token(german.id)).jti, 'job-de-0', { passes_completed: 1, wipe_method: 'NIST 800-88 R2 Purge', technique: 'NVMe Sanitize (crypto erase)' });
    germanCertId = (await certificateOf(sut, germanWipe.wipe_result_id)).public_id;
    await sut.drain();
    base = await sut.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('shows a genuine certificate as valid, with its number, drive, method, IEEE 2883 technique, Rev. 2 level and verification, dates and who processed it', async () => {
    await browser.page.goto(`${base}/certificates/${certId}/verify`);
    expect(await browser.page.locator('[data-testid="verdict"] h1').innerText()).toBe('Valid certificate');
    const text = await browser.page.locator('body').innerText();
    for (const expected of ['CW-000001', 'SAMSUNG MZVLB512HAJQ', 'S4DYNX0M123456', '512 GB', 'NIST 800-88 R2 Purge', 'Technique (IEEE 2883-2022)\tNVMe Sanitize (crypto erase)', 'Sanitization level (NIST SP 800-88 Rev. 2)\tPurge', 'Verification (the technique completed as intended)', 'validation is a separate, independent check of the outcome', 'Processed by', 'Acme Refurb', '2026-11-22 10:12:30 UTC']) {
      expect(text).toContain(expected);
    }
    // Downloads are for signed-in users of the owning account only.
    expect(await browser.page.locator('a:has-text("Certificate (PDF)")').count()).toBe(0);
    await screenshot(browser.page, '12-verify-valid-phone');
  });

  it("speaks the certificate's own language, its facts and NIST and IEEE names as recorded, and offers the other languages", async () => {
    const page = browser.page;
    await page.goto(`${base}/certificates/${germanCertId}/verify`);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('[data-testid="verdict"] h1').innerText()).toBe('Gültiges Zertifikat');
    const text = await page.locator('body').innerText();
    for (const expected of ['Zertifikat CW-000001', 'Laufwerk\tSAMSUNG MZVLB512HAJQ · Seriennummer S4DYNX0M123456', 'Kapazität\t512 GB', 'Löschmethode\tNIST 800-88 R2 Purge', 'Technik (IEEE 2883-2022)\tNVMe Sanitize (crypto erase)', 'Bereinigungsstufe (NIST SP 800-88 Rev. 2)\tPurge', 'Bearbeitet von\tGebrauchtgeräte Nord GmbH', 'Gelöscht\t22.11.2026 10:12:30 UTC']) {
      expect(text).toContain(expected);
    }
    for (const english of ['Valid certificate', 'Erasure method', 'Processed by']) expect(text).not.toContain(english);
    await screenshot(page, '12b-verify-valid-phone-german');
    // The switch at the foot: the same certificate in English, from its own address.
    await page.locator('[data-testid="languages"] a[hreflang="en"]').click();
    await page.waitForURL(/\?lang=en$/);
    expect(await page.locator('[data-testid="verdict"] h1').innerText()).toBe('Valid certificate');
    expect(await page.locator('body').innerText()).toContain('Erased\t2026-11-22 10:12:30 UTC');
    expect(await page.locator('[data-testid="languages"] [aria-current="true"]').innerText()).toBe('English');
  });

  it('shows a tampered certificate as not valid', async () => {
    await sut.db.run(`UPDATE wipe_results SET drive_serial = 'S4DYNX0M999999'`);
    await browser.page.goto(`${base}/certificates/${certId}/verify`);
    expect(await browser.page.locator('[data-testid="verdict"] h1').innerText()).toBe('Not valid');
    await screenshot(browser.page, '13-verify-invalid-phone');
  });

  it('says plainly when no certificate exists at the address', async () => {
    const res = await browser.page.goto(`${base}/certificates/cert_doesnotexist000000/verify`);
    expect(res?.status()).toBe(404);
    expect(await browser.page.locator('[data-testid="verdict"] h1').innerText()).toBe('No such certificate');
  });

  it('keeps answering JSON to API clients at the same URL', async () => {
    const res = await fetch(`${base}/certificates/${certId}/verify`, { headers: { accept: 'application/json' } });
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('vary')).toContain('Accept');
    expect(await res.json()).toMatchObject({ certificate_number: 'CW-000001' });
  });
});
