import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { s3ObjectStore, type S3ObjectStore } from '../../src/adapters/objects/s3-store.js';
import { certificateOf, startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { startS3, type RunningS3 } from '../support/s3rver.js';
import { addUser } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, screenshot, signIn } from './web-fixture.js';

/**
 * Issue 33 item 3, as the customer sees it: while the bucket is down a certificate's wipe row
 * reads Generating (not Failed, not "not issued"), and once the bucket is back and the retry has
 * run, the row links the certificate.
 */
describe('the wipes grid while the S3 store is down', { timeout: 120_000 }, () => {
  let sut: CertificateCloud;
  let s3: RunningS3;
  let bucket: S3ObjectStore;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let wipeId = '';

  beforeAll(async () => {
    buildPagesIfStale();
    s3 = await startS3();
    bucket = s3ObjectStore({ ...s3.settings, presign: 'proxy' });
    sut = await startCertificateCloud({ objects: bucket });
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    const jti = (await sut.token(account.id, { userEmail: 'ana@acme.test' })).jti;
    wipeId = (await submitWipe(sut, jti, 'job-down-0')).wipe_result_id;
    base = await sut.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    page = browser.page;
    await signIn(browser, base, 'admin@acme.test');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
    bucket?.close();
    await s3?.stop();
  });

  const row = () => page.locator(`tr[data-wipe-id="${wipeId}"]`);

  it('a certificate whose upload failed reads Generating, and links the certificate once the retry has run', async () => {
    await s3.pause();
    expect(await sut.drain()).toBe(1);
    await page.goto(`${base}/wipes`);
    await row().waitFor();
    expect(await row().innerText()).toContain('Generating');
    expect(await row().locator('[data-testid="certificate-link"]').count()).toBe(0);
    await screenshot(page, '33-wipes-store-down-generating');

    await s3.resume();
    const { run_at: runAt } = await sut.row<{ run_at: string }>('SELECT run_at FROM jobs');
    sut.clock.advance(Date.parse(runAt) - sut.clock.now().getTime());
    expect(await sut.drain()).toBe(1);
    await page.reload();
    const link = row().locator('[data-testid="certificate-link"]');
    await link.waitFor();
    expect(await link.innerText()).toContain((await certificateOf(sut, wipeId)).certificate_number);
    await screenshot(page, '33-wipes-store-back-issued');
  });
});
