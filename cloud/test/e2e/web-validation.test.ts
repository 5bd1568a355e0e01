import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveValidationRate } from '../../src/adapters/db/validation.js';
import { startCertificateCloud, submitWipe, type CertificateCloud } from '../certificates/pipeline.js';
import { addUser, PASSWORD } from '../web-helpers.js';
import { buildPagesIfStale, launchBrowser, screenshot, SCREENS_DIR } from './web-fixture.js';

/**
 * Issue 29 (5) in Chromium: the Validation list shows the drives picked from a lot with their
 * certificate numbers and serials and the lot's summary (sample size, passes, the rate), and a
 * certificate whose drive failed validation reads "Not valid" on its public verify page, with why.
 */
describe('validation sampling in the web app', { timeout: 120_000 }, () => {
  let sut: CertificateCloud;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let picked: { certificate_number: string; drive_serial: string; certificate_id: string }[];
  const reason = 'a PDF document was found at byte 1,048,576 (sector 2,048)';

  beforeAll(async () => {
    buildPagesIfStale();
    sut = await startCertificateCloud();
    const account = await sut.account('Acme Refurbishing');
    await addUser(sut, account.id, 'admin', 'admin@acme.test');
    await saveValidationRate(sut.db, { accountId: account.id, ratePercent: 50, userId: null, now: sut.clock.now().toISOString() });
    const jti = (await sut.token(account.id, { userEmail: 'ana@acme.test', customer: 'Northwind Bank', lot: 'LOT-2026-114' })).jti;
    for (let n = 0; n < 4; n += 1) await submitWipe(sut, jti, `job-val-${n}`, { drive_serial: `ZA1${n}KX7Q` });
    await sut.drain();
    picked = await sut.db.many(
      `SELECT c.certificate_number, w.drive_serial, c.public_id AS certificate_id FROM validation_samples s
         JOIN wipe_results w ON w.id = s.wipe_result_id JOIN certificates c ON c.wipe_result_id = w.id ORDER BY s.id`,
    );
    expect(picked).toHaveLength(2);
    const report = (n: number, fields: object) =>
      sut.post('/internal/validations', { jti, validation_id: `val-${n}`, certificate_number: picked[n]!.certificate_number, drive_serial: picked[n]!.drive_serial, ...fields });
    expect((await report(0, { result: 'approved', findings: 'Read all 1,000,000 sectors: every one is zeros, as the method left it.' })).status).toBe(201);
    expect((await report(1, { result: 'rejected', reason, findings: 'Read all 1,000,000 sectors: 2,040 hold data; PDF document at byte 1,048,576.' })).status).toBe(201);
    base = await sut.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${base}/login`);
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sut?.close();
  });

  it('lists the picked drives with certificate numbers and serials, and the lot’s summary needing attention', async () => {
    await page.click('nav >> text=Validation');
    await page.waitForSelector('[data-testid="validation-samples"] tbody tr');
    const rows = await page.locator('[data-testid="validation-samples"] tbody tr').allInnerTexts();
    expect(rows).toHaveLength(2);
    for (const [n, drive] of picked.entries()) {
      expect(rows[n]).toContain(drive.certificate_number);
      expect(rows[n]).toContain(drive.drive_serial);
    }
    expect(rows[0]).toContain('Passed');
    expect(rows[1]).toContain('Failed');
    expect(rows[1]).toContain(reason);
    expect(await page.locator('[data-testid="lot-summary"]').innerText()).toBe('2 of 4 certified drives picked at 50 %: 1 passed, 1 failed');
    expect(await page.locator('[data-testid="validation-lots"] tbody tr').innerText()).toContain('Needs attention');
    expect(await page.inputValue('[data-testid="validation-rate-input"]')).toBe('50');
    await screenshot(page, 'validation-list');
  });

  it('shows the rejected drive’s certificate as not valid on the public verify page, with the reason', async () => {
    const verify = await browser.context.newPage();
    await verify.goto(`${base}/certificates/${picked[1]!.certificate_id}/verify`);
    expect(await verify.locator('[data-testid="verdict"]').innerText()).toContain('Not valid: failed validation');
    expect(await verify.locator('body').innerText()).toContain(reason);
    await screenshot(verify, 'validation-rejected-verify');
    // The approved drive's certificate stays valid.
    await verify.goto(`${base}/certificates/${picked[0]!.certificate_id}/verify`);
    expect(await verify.locator('[data-testid="verdict"]').innerText()).toContain('Valid certificate');
    await verify.close();
  });

  it('the lot’s merged PDF opens with the validation sample: size, passed, failed, the rate set', async () => {
    const ids = (await sut.db.many<{ public_id: string }>('SELECT public_id FROM wipe_results ORDER BY id')).map((r) => r.public_id);
    const res = await page.request.get(`${base}/app/api/wipes/certificates?format=pdf&ids=${ids.join(',')}`);
    expect(res.status()).toBe(200);
    mkdirSync(SCREENS_DIR, { recursive: true });
    const file = join(SCREENS_DIR, 'validation-lot.pdf');
    writeFileSync(file, await res.body());
    execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '80', '-png', '-singlefile', file, join(SCREENS_DIR, 'validation-lot-summary')]);
    const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('2 of 4 certified drives picked at random for independent validation at the rate set, 50 %; 1 passed, 1 failed. Needs attention');
  });
});
