import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kioskSession, SCREENS_DIR, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

/**
 * Issue 31 item 6: a technician scans a lot barcode at the Notes step (a USB scanner types the
 * code as key presses and ends with Enter), then the asset tag, and erases: the real cloud,
 * gateway and agent (simulated machine) in Debian's Chromium. The lot and tag reach each wipe row
 * and the signed certificate PDF; a scan with a control character is refused at the kiosk in
 * plain words before anything is sent.
 */
describe('kiosk: job details scanned at the Notes step', { timeout: 240_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let agent: Agent;
  let page: Page;

  beforeAll(async () => {
    ({ stack, agent, page } = await session.startWithAgent({ quota: 10 }));
  }, 180_000);
  afterAll(() => session.stop());

  const cloudRows = <T,>(sql: string): T[] => {
    const db = new Database(join(stack.dataDir, 'cloud.sqlite'), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  };

  it('takes a scanned lot and asset tag, shows them saved, and they land on the wipe rows and the certificate PDF', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await page.locator('nav.steps button', { hasText: 'Notes' }).click();
    const lot = page.locator('#job-lot_reference');
    await lot.waitFor();
    await expect.poll(() => lot.isEnabled(), { timeout: 60_000 }).toBe(true);

    // A scanner that sends a Tab inside the code: refused at the kiosk, nothing sent.
    await lot.click();
    await page.keyboard.insertText('LOT-\t7');
    await page.keyboard.press('Enter');
    const status = page.getByTestId('job-details-status');
    await expect.poll(() => status.textContent()).toBe('Not saved: Lot holds a control character (a tab, line break or similar); scan or type it again.');
    await shoot(page, '40-job-details-refused');

    // The scan: key presses, then Enter, which saves and moves to the asset tag.
    await lot.fill('');
    await lot.click();
    await page.keyboard.type('LOT-2026-11-077', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('job-asset_tag');
    await page.keyboard.type('AT-004211', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe("Saved. This machine's drives go on lot LOT-2026-11-077, asset tag AT-004211.");
    await shoot(page, '41-job-details-saved');
    expect(cloudRows<{ lot_reference: string; job_asset_tag: string }>('SELECT lot_reference, job_asset_tag FROM assets')).toEqual([{ lot_reference: 'LOT-2026-11-077', job_asset_tag: 'AT-004211' }]);

    // Erase both drives.
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.waitForSelector('.drive');
    for (const box of await page.locator('.drive input[type="checkbox"]').all()) {
      await box.click();
      await expect.poll(() => box.isChecked()).toBe(true);
    }
    await toConfirmation(page);
    await page.locator('#confirm-text').fill((await page.locator('.confirm kbd').textContent()) ?? '');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-screen="erase"]');
    await expect.poll(() => page.locator('.result .certificate').count(), { timeout: 120_000 }).toBe(2);

    const wipes = cloudRows<{ lot_reference: string; asset_tag: string }>('SELECT lot_reference, asset_tag FROM wipe_results ORDER BY id');
    expect(wipes).toEqual([
      { lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' },
      { lot_reference: 'LOT-2026-11-077', asset_tag: 'AT-004211' },
    ]);
    // The certificate, once the cloud's worker made it: the lot on the signed page.
    const keyOf = () => cloudRows<{ certificate_key: string | null }>("SELECT certificate_key FROM certificates WHERE status = 'complete' ORDER BY id")[0]?.certificate_key;
    await expect.poll(keyOf, { timeout: 60_000 }).toBeTruthy();
    const pdf = join(stack.dataDir, 'objects', keyOf()!);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('LOT-2026-11-077');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf, join(SCREENS_DIR, '42-job-details-certificate')]);
  });
});
