import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/support/chromium.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { testLogoPng } from '../certificates/logo-fixture.js';
import { addUser } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, openDevices, screenshot, SCREENS_DIR } from './web-fixture.js';

/**
 * Issue 31 item 7 in the browser: an admin uploads the account's logo and types its company
 * details on /devices (a GIF is refused with the cloud's words); the next certificate's verify
 * page, opened on a phone, shows them beside the account's name, the verdict unchanged.
 */
describe('the account’s branding, set on the Devices page and shown on the verify page', { timeout: 180_000 }, () => {
  let cloud: CertificateCloud;
  let base: string;
  let jti: string;
  let desktop: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startCertificateCloud();
    const account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, 'admin', 'admin@acme.test');
    jti = (await cloud.token(account.id)).jti;
    base = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
    desktop = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await desktop?.close();
    await cloud?.close();
  });

  const card = () => desktop.page.locator('[data-testid="branding"]');

  it('refuses a GIF with the cloud’s words, then takes a PNG logo and the company details', async () => {
    await openDevices(desktop, base, 'admin@acme.test');
    const { page } = desktop;
    await page.setInputFiles('[data-testid="branding-logo-file"]', { name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\x10\x00\x10\x00\x80\x00\x00', 'latin1') });
    await page.click('[data-testid="branding-logo-upload"]');
    await expect.poll(() => card().locator('[role="alert"]').innerText()).toBe('the logo is not a PNG or JPEG image');

    await page.setInputFiles('[data-testid="branding-logo-file"]', { name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(testLogoPng()) });
    await page.click('[data-testid="branding-logo-upload"]');
    await page.waitForSelector('text=Logo uploaded. Certificates issued from now on carry it.');
    // The preview is the stored logo, read back through the app's API.
    await expect.poll(() => page.locator('[data-testid="branding-logo-preview"]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);

    await page.fill('[data-testid="branding-name"]', 'Acme Refurbishing GmbH');
    await page.fill('[data-testid="branding-address"]', 'Hafenstraße 12\n20457 Hamburg, Germany');
    await page.fill('[data-testid="branding-contact"]', 'certs@acme.test · +49 40 123456');
    await page.click('[data-testid="branding-save"]');
    await page.waitForSelector('text=Saved. Certificates issued from now on carry these details.');
    await card().scrollIntoViewIfNeeded();
    await card().screenshot({ path: join(SCREENS_DIR, '67-branding-settings.png') });
    expect(await cloud.db.one('SELECT company_name, contact FROM account_brandings')).toEqual({ company_name: 'Acme Refurbishing GmbH', contact: 'certs@acme.test · +49 40 123456' });
  });

  it('shows the logo and details beside the account’s name on the next certificate’s verify page, still valid', async () => {
    const { wipe_result_id } = await submitWipe(cloud, jti, 'job-branding-e2e-1-0');
    await cloud.drain();
    const cert = await certificateOf(cloud, wipe_result_id);
    const phone = await launchChromium({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      await phone.page.goto(`${base}/certificates/${cert.public_id}/verify`);
      expect(await phone.page.locator('[data-testid="verdict"] h1').innerText()).toBe('Valid certificate');
      const issuer = phone.page.locator('[data-testid="issuer"]');
      expect(await issuer.innerText()).toBe('Acme Refurb\nAcme Refurbishing GmbH\nHafenstraße 12\n20457 Hamburg, Germany\ncerts@acme.test · +49 40 123456');
      expect(await phone.page.locator('[data-testid="issuer-logo"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
      await screenshot(phone.page, '68-verify-branded-phone');
    } finally {
      await phone.close();
    }
  });
});
