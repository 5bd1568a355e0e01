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
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurb');
    const wipe = await submitWipe(sut, (await sut.token(account.id)).jti, 'job-1-0', { passes_completed: 1, wipe_method: 'NIST 800-88 R2 Purge', technique: 'NVMe Sanitize (crypto erase)' });
    certId = (await certificateOf(sut, wipe.wipe_result_id)).public_id;
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
