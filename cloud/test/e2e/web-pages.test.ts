import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { devicePublicKey, verifyDeviceToken } from '@erasure/shared';
import {
  buildPagesIfStale,
  launchBrowser,
  PASSWORD,
  screenshot,
  startListeningCloud,
  startReceiver,
  type RunningCloud,
} from './web-fixture.js';
import { seedGrid } from './web-seed.js';

/**
 * The web application in Debian's Chromium against a real listening cloud: sign-in, the wipes
 * grid (cells, sorting and filtering that survive a reload, certificate links, push, CSV),
 * assets, devices (suspend, kill switch), downloads and API tokens, with a screenshot of each.
 */
describe('web pages in a real browser', { timeout: 60_000 }, () => {
  let cloud: RunningCloud;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let ids: Record<string, string>;
  let engineJti: string;
  let hotswapJti: string;
  let assetId: string;
  let certificate: { public_id: string; certificate_number: string };

  beforeAll(async () => {
    buildPagesIfStale();
    cloud = await startListeningCloud();
    receiver = await startReceiver();
    ({ ids, engineJti, hotswapJti, assetId, certificate } = await seedGrid(cloud));
    browser = await launchBrowser();
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    receiver?.server.close();
    await cloud?.close();
  });

  const row = (name: string) => page.locator(`tr[data-wipe-id="${ids[name]}"]`);
  const cells = async (name: string) => (await row(name).locator('td').allInnerTexts()).map((t) => t.trim());
  const modelColumn = async () => (await page.locator('[data-testid="wipes-table"] tbody tr td:nth-child(3)').allInnerTexts()).map((t) => t.trim());

  async function signInAs(email: string) {
    // Off the app first: a page of the app whose session is cleared under it navigates to /login
    // on its own, racing the navigation below.
    await page.goto('about:blank');
    await browser.context.clearCookies();
    await page.goto(`${cloud.base}/login`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
  }

  it('signs in through the form and lands on /wipes', async () => {
    await page.goto(`${cloud.base}/wipes`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, '01-login');
    await page.fill('input[name="email"]', 'admin@acme.test');
    await page.fill('input[name="password"]', 'wrong password');
    await page.click('button[type="submit"]');
    await expect.poll(() => page.locator('.error').innerText()).toMatch(/Invalid email or password/);
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([page.waitForURL(`${cloud.base}/wipes`), page.click('button[type="submit"]')]);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
    expect(await page.locator('[data-testid="account-name"]').innerText()).toBe('Acme Refurbishing');
  });

  it('shows the right cells for a certified, a failed and a pending wipe', async () => {
    const certified = await cells('certified');
    expect(certified.slice(1)).toEqual([
      'Samsung', 'SAMSUNG MZVLB512HAJQ-000L7', 'S4DYNX0M123456', '512 GB', 'SSD', 'NIST 800-88 R2 Purge',
      'Latitude 7490 · B5QVN32', '12m 30s', 'Pass', '—', 'ana@acme.test', 'Northwind Schools · LOT-42', expect.stringMatching(/^2026-11-22 \d\d:12$/),
      expect.stringContaining(certificate.certificate_number),
    ]);
    const link = row('certified').locator('[data-testid="certificate-link"]');
    expect(await link.getAttribute('href')).toBe(`/certificates/${certificate.public_id}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await row('certified').locator('a', { hasText: 'Erasure report' }).getAttribute('href')).toBe(`/certificates/${certificate.public_id}?document=report`);
    expect(await row('certified').locator('td:nth-child(8) a').getAttribute('href')).toBe(`/assets/${assetId}`);
    expect(await row('certified').locator('.badge-pass').innerText()).toBe('Pass');

    const failed = await cells('failed');
    expect(failed.slice(1)).toEqual([
      'Seagate', 'ST1000DM003-1CH162', 'Z1D5K2XX', '1 TB', '—', 'NIST 800-88 R2 Clear', '—', '1h 40m', 'Fail', '—', 'ana@acme.test',
      // Why, in plain words, and the stored reason behind Details (issue 31 item 4).
      'Northwind Schools · LOT-42', expect.any(String), expect.stringMatching(/^Not issued\s+The erasure failed\s+Details$/),
    ]);
    expect(await row('failed').locator('.badge-fail').innerText()).toBe('Fail');

    const pending = await cells('pending');
    expect(pending.slice(1)).toEqual([
      'Western Digital', 'WDC WD20EZRZ-00Z5HB0', 'WD-WCC4M0', '2 TB', '—', 'NIST 800-88 R2 Purge', 'Hotswap', '3h 05m', 'Pass', '—',
      'bo@acme.test', '—', expect.any(String), 'Pending',
    ]);
    expect(await cells('cancelled')).toContain('Cancelled');
    await screenshot(page, '02-wipes');
  });

  // The cloud sorts and filters (issue 31 item 1): each change is a request, so the rows are polled.
  it('sorts and filters from the URL, and both survive a reload', async () => {
    await page.selectOption('select[aria-label="Sort"]', 'model_asc');
    await expect.poll(modelColumn).toEqual(['SAMSUNG MZVLB512HAJQ-000L7', 'ST1000DM003-1CH162', 'TOSHIBA MQ01ABD100', 'WDC WD20EZRZ-00Z5HB0']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('model_asc');
    await page.reload();
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
    await expect.poll(modelColumn).toEqual(['SAMSUNG MZVLB512HAJQ-000L7', 'ST1000DM003-1CH162', 'TOSHIBA MQ01ABD100', 'WDC WD20EZRZ-00Z5HB0']);
    expect(await page.locator('select[aria-label="Sort"]').inputValue()).toBe('model_asc');

    const orders: Record<string, string[]> = {
      model_desc: ['WDC WD20EZRZ-00Z5HB0', 'TOSHIBA MQ01ABD100', 'ST1000DM003-1CH162', 'SAMSUNG MZVLB512HAJQ-000L7'],
      // Equal capacities keep the server's order, newest first: the cancelled wipe was stored last.
      capacity_desc: ['WDC WD20EZRZ-00Z5HB0', 'TOSHIBA MQ01ABD100', 'ST1000DM003-1CH162', 'SAMSUNG MZVLB512HAJQ-000L7'],
      completed_asc: ['TOSHIBA MQ01ABD100', 'SAMSUNG MZVLB512HAJQ-000L7', 'ST1000DM003-1CH162', 'WDC WD20EZRZ-00Z5HB0'],
      completed_desc: ['WDC WD20EZRZ-00Z5HB0', 'ST1000DM003-1CH162', 'SAMSUNG MZVLB512HAJQ-000L7', 'TOSHIBA MQ01ABD100'],
      duration_desc: ['WDC WD20EZRZ-00Z5HB0', 'ST1000DM003-1CH162', 'SAMSUNG MZVLB512HAJQ-000L7', 'TOSHIBA MQ01ABD100'],
      status_asc: ['TOSHIBA MQ01ABD100', 'ST1000DM003-1CH162', 'WDC WD20EZRZ-00Z5HB0', 'SAMSUNG MZVLB512HAJQ-000L7'],
    };
    for (const [sort, expected] of Object.entries(orders)) {
      await page.selectOption('select[aria-label="Sort"]', sort);
      await expect.poll(modelColumn, { message: sort }).toEqual(expected);
    }

    await page.selectOption('select[aria-label="Status"]', 'Fail');
    await expect.poll(modelColumn).toEqual(['ST1000DM003-1CH162']);
    await page.selectOption('select[aria-label="Status"]', '');
    await page.selectOption('select[aria-label="Media type"]', 'SSD');
    await expect.poll(modelColumn).toEqual(['SAMSUNG MZVLB512HAJQ-000L7']);
    await page.selectOption('select[aria-label="Media type"]', '');
    await page.selectOption('select[aria-label="Customer"]', 'Northwind Schools');
    await page.selectOption('select[aria-label="Lot"]', 'LOT-42');
    await expect.poll(async () => (await modelColumn()).sort()).toEqual(['SAMSUNG MZVLB512HAJQ-000L7', 'ST1000DM003-1CH162', 'TOSHIBA MQ01ABD100']);
    await screenshot(page, '02-wipes-customer-lot');
    await page.selectOption('select[aria-label="Customer"]', '');
    await page.selectOption('select[aria-label="Lot"]', '');
    await page.selectOption('select[aria-label="Source"]', 'hotswap');
    await page.fill('input[aria-label="Search"]', 'wd-wcc');
    // The search goes to the URL (and the cloud) once the typing pauses.
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('wd-wcc');
    await expect.poll(modelColumn).toEqual(['WDC WD20EZRZ-00Z5HB0']);
    const query = new URL(page.url()).searchParams;
    expect([query.get('source'), query.get('q'), query.get('sort')]).toEqual(['hotswap', 'wd-wcc', 'status_asc']);
    await page.reload();
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
    await expect.poll(modelColumn).toEqual(['WDC WD20EZRZ-00Z5HB0']);
    expect(await page.locator('input[aria-label="Search"]').inputValue()).toBe('wd-wcc');
    expect(await page.locator('select[aria-label="Source"]').inputValue()).toBe('hotswap');
    await page.goto(`${cloud.base}/wipes`);
    await page.waitForSelector('[data-testid="wipes-table"] tbody tr');
  });

  it('exports exactly the filtered rows as CSV and pushes selected rows, signed, to the configured endpoint', async () => {
    await page.selectOption('select[aria-label="Status"]', 'Pass');
    await expect.poll(() => page.locator('[data-testid="wipes-table"] tbody tr').count()).toBe(2);
    // The cloud writes the file (issue 31 item 2): every matching row, not the page in view.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-csv"]')]);
    const lines = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^Wipe ID,Vendor,Model,Serial/);
    expect(lines.slice(1).map((l) => l.split(',')[0]).sort()).toEqual([ids.certified, ids.pending].sort());

    await page.click('button:has-text("Push settings")');
    await page.fill('input[type="url"]', receiver.url);
    await page.fill('input[placeholder^="Leave blank"]', 'e2e-shared-secret-123');
    await page.click('section.card button:has-text("Save")');
    await row('certified').locator('input[type="checkbox"]').check();
    await page.click('button:has-text("Push 1 selected")');
    await expect.poll(() => page.locator('.note-ok').count()).toBe(1);
    await screenshot(page, '03-wipes-push');
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const body = JSON.parse(delivery!.body);
    expect(body.rows.map((r: { id: string }) => r.id)).toEqual([ids.certified]);
    const signature = createHmac('sha256', 'e2e-shared-secret-123').update(`${delivery!.headers['x-erase-engine-timestamp']}.${delivery!.body}`).digest('hex');
    expect(delivery!.headers['x-erase-engine-signature']).toBe(`sha256=${signature}`);
  });

  it('keeps an endpoint typed while the stored push settings are still loading', async () => {
    // The settings panel asks for the stored endpoint when it opens; here that answer is slow.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/app/api/integrations/push', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      await answered;
      await route.continue();
    });
    try {
      if (await page.locator('input[type="url"]').count()) await page.click('button:has-text("Push settings")');
      await page.click('button:has-text("Push settings")');
      await page.fill('input[type="url"]', 'https://erp.example.net/typed');
      const stored = page.waitForResponse((r) => r.url().endsWith('/app/api/integrations/push') && r.request().method() === 'GET');
      answer();
      await stored;
      // The answer rendered: the stored target (set by the push test above) offers Remove.
      await page.waitForSelector('section.card button:has-text("Remove")');
      expect(await page.locator('input[type="url"]').inputValue()).toBe('https://erp.example.net/typed');
    } finally {
      await page.unroute('**/app/api/integrations/push');
      await page.click('button:has-text("Push settings")');
    }
  });

  it('lists assets and renders a machine’s fingerprint by section', async () => {
    await page.click('nav >> text=Assets');
    await page.waitForSelector('[data-testid="assets-table"] tbody tr');
    expect(await page.locator('[data-testid="assets-table"] tbody tr').first().innerText()).toMatch(/Dell Inc\. Latitude 7490/);
    await screenshot(page, '04-assets');
    await page.click('text=Dell Inc. Latitude 7490');
    await page.waitForSelector('[data-testid="section-storage"]');
    expect(new URL(page.url()).pathname).toBe(`/assets/${assetId}`);
    const storage = await page.locator('[data-testid="storage-table"] tbody tr').innerText();
    for (const value of ['S4DYNX0M123456', '4120', '3%', '38 °C', 'Passed']) expect(storage).toContain(value);
    expect(await page.locator('[data-testid="section-tests"]').innerText()).toMatch(/Webcam\s+Failed/);
    expect(await page.locator('[data-testid="section-notes"]').innerText()).toContain('Hinge cracked');
    expect(await page.locator('[data-testid="section-displays"]').innerText()).toContain('AUO-5F3D');
    // Headings in plain words, not raw keys ("Wifi Adapter", "Gpus").
    expect(await page.locator('[data-testid="section-tests"]').innerText()).toMatch(/USB ports[\s\S]*Wi-Fi adapter/);
    expect(await page.locator('details.more summary').allInnerTexts()).toEqual(expect.arrayContaining(['Graphics', 'Wi-Fi adapters']));
    // From the machine to its certificates: each drive wiped in it, with its certificate number.
    const wipes = await page.locator('[data-testid="section-wipes"]').innerText();
    expect(wipes).toContain('S4DYNX0M123456');
    expect(wipes).toContain(certificate.certificate_number);
    await screenshot(page, '05-asset-detail');
  });

  it('shows a hotswap station\u2019s chassis with its bay map', async () => {
    const bays = ['Bay 1', 'Bay 2', 'Bay 3'].map((label, i) => ({ lane: `pci-0000:00:03.0-scsi-0:0:${i}:0`, label, connector: { transport: 'scsi' } }));
    const saved = await cloud.internal('/internal/chassis_maps', {
      jti: hotswapJti,
      record_id: 'CW-20261122-110000',
      engine_version: '1.4.0',
      fingerprint: { system: { manufacturer: 'Supermicro', product: 'SSG-6049P', serial: 'S4122ABC', uuid: '00000000-0000-4000-8000-ac1f6b000001' } },
      map: { name: 'Front 24-bay cage', bays },
    });
    expect(saved.status).toBe(201);
    await page.goto(`${cloud.base}/assets/${saved.json.asset_id}`);
    const section = page.locator('[data-testid="section-bay-map"]');
    await section.waitFor();
    expect(await section.locator('h2, h3').first().innerText()).toContain('Front 24-bay cage');
    expect(await section.locator('tbody tr').allInnerTexts()).toEqual(bays.map((b) => expect.stringContaining(b.label)));

    // Issue 28 item 13: the wipes done in its bays are the chassis's wipes. A station wipe's one
    // link to its chassis is the map name in tool_components; a chassis whose name merely starts
    // the same is another one.
    const bayWipe = async (serial: string, toolComponents: string) => {
      const jobId = (await cloud.internal('/internal/tokens/validate', { jti: hotswapJti })).json.job_id as string;
      const res = await cloud.internal('/internal/wipe_results', {
        jti: hotswapJti, job_id: jobId, drive_model: 'SIMULATED SATA', drive_serial: serial, drive_capacity_gb: 1,
        wipe_method: 'NIST 800-88 R2 Clear', started_at: '2026-11-22T11:00:00Z', completed_at: '2026-11-22T11:05:00Z', wipe_status: 'completed', tool_components: toolComponents,
      });
      expect(res.status).toBe(201);
    };
    await bayWipe('BAYSERIAL-1', 'erasure-agent 0.1.0; bay=Bay 1; chassis=Front 24-bay cage');
    await bayWipe('BAYSERIAL-3', 'erasure-agent 0.1.0; bay=Bay 3; chassis=Front 24-bay cage; dd if=/dev/zero');
    await bayWipe('OTHERCAGE-1', 'erasure-agent 0.1.0; bay=Bay 1; chassis=Front 24-bay cage 2');
    await page.reload();
    const wipes = page.locator('[data-testid="section-wipes"]');
    await wipes.locator('tbody tr').first().waitFor();
    const text = await wipes.innerText();
    expect(text).not.toContain('No drive of this machine has been wiped yet');
    expect(await wipes.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('BAYSERIAL-3'), expect.stringContaining('BAYSERIAL-1')]);
    expect(await wipes.locator('tbody tr').first().innerText()).toContain('Bay 3');
    expect(text).not.toContain('OTHERCAGE-1');
    await screenshot(page, '05b-chassis-bay-map');
  });

  it('suspends a token on /devices, and the next internal verify for that jti answers 403 suspended', async () => {
    await page.click('nav >> text=Devices');
    const tokenRow = page.locator(`tr[data-jti="${engineJti}"]`);
    await tokenRow.waitFor();
    await screenshot(page, '06-devices-admin');
    await tokenRow.locator('button:has-text("Suspend")').click();
    await expect.poll(() => tokenRow.locator('.badge').innerText()).toBe('Suspended');
    const verify = await cloud.internal('/internal/tokens/verify', { jti: engineJti });
    expect(verify.status).toBe(403);
    expect(verify.json).toMatchObject({ allow: false, status: 'suspended', reason: 'suspended' });
    await tokenRow.locator('button:has-text("Reinstate")').click();
    await expect.poll(() => tokenRow.locator('.badge').innerText()).toBe('Active');
  });

  it('hands over a freshly minted device-token file on /downloads', async () => {
    // The one file in DATA_DIR/images is zeros, not an ISO 9660 image: the page refuses it,
    // says why, and says how to build and install a real one.
    mkdirSync(cloud.imagesDir, { recursive: true });
    writeFileSync(join(cloud.imagesDir, 'erasure-1.0-amd64.iso'), Buffer.alloc(1024 * 1024));
    await page.click('nav >> text=Downloads');
    await page.waitForSelector('[data-testid="download-token-engine"]:not([disabled])');
    expect(await page.locator('[data-testid="image-refused"]').innerText()).toBe(
      'erasure-1.0-amd64.iso is not an ISO 9660 image (no CD001 primary volume descriptor at sector 16), so it cannot be offered. Replace it with an image built by npm run iso.',
    );
    await expect(page.locator('[data-testid="no-base-image"]').innerText()).resolves.toMatch(/^No usable boot image is installed on this server\. .*npm run iso/);
    expect(await page.locator('[data-testid="download-engine"]').count()).toBe(0);
    await screenshot(page, '07-downloads');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-token-engine"]')]);
    expect(download.suggestedFilename()).toBe('device-token');
    const token = readFileSync((await download.path())!, 'utf8').trim();
    const check = await verifyDeviceToken(devicePublicKey(cloud.deviceKeys.publicKey), token);
    expect(check.ok).toBe(true);
    expect((await cloud.db.one<{ user_email: string; quota_limit: number | null }>('SELECT user_email, quota_limit FROM license_tokens WHERE jti = @jti', { jti: (check as { jti: string }).jti }))).toEqual({ user_email: 'admin@acme.test', quota_limit: 100 });
  });

  it('lets the admin set the quota and lifetime of the device tokens minted on /downloads', async () => {
    await page.fill('[data-testid="terms-quota"]', '25');
    await page.fill('[data-testid="terms-lifetime"]', '30');
    await page.click('[data-testid="terms-save"]');
    await expect.poll(() => page.locator('[data-testid="terms-engine"]').innerText()).toBe('Device token: 25 check-ins, valid 30 days');
    await screenshot(page, '07b-downloads-token-terms');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-token-hotswap"]')]);
    const token = readFileSync((await download.path())!, 'utf8').trim();
    const check = await verifyDeviceToken(devicePublicKey(cloud.deviceKeys.publicKey), token);
    const row = await cloud.db.one<{ quota_limit: number | null; expires_at: string }>('SELECT quota_limit, expires_at FROM license_tokens WHERE jti = @jti', { jti: (check as { jti: string }).jti });
    expect(row?.quota_limit).toBe(25);
    expect((check as { exp: number }).exp * 1000).toBe(Date.parse(row!.expires_at));
    expect(Math.round(((check as { exp: number }).exp * 1000 - Date.now()) / 86_400_000)).toBe(30);
  });

  it('mints an API key shown once on /api_tokens that works against /api/v1', async () => {
    await page.click('nav >> text=API tokens');
    await page.fill('input[placeholder="e.g. ERP sync"]', 'ERP sync');
    await page.click('button:has-text("Create key")');
    const key = (await page.locator('[data-testid="minted-key"] code').innerText()).trim();
    expect(key).toMatch(/^ek_/);
    await page.waitForSelector('[data-testid="api-keys-table"] tbody tr');
    await screenshot(page, '08-api-tokens');
    const me = await fetch(`${cloud.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).user_email).toBe('admin@acme.test');
    await page.reload();
    expect(await page.content()).not.toContain(key);
  });

  it('lets staff pull the kill switch, which the account admin cannot lift', async () => {
    await signInAs('ops@erasure.test');
    await page.click('nav >> text=Devices');
    const tokenRow = page.locator(`tr[data-jti="${engineJti}"]`);
    await tokenRow.waitFor();
    await tokenRow.locator('button:text-is("Disable")').click();
    await expect.poll(() => tokenRow.locator('.badge').innerText()).toBe('Disabled');
    await screenshot(page, '09-devices-staff');
    expect((await cloud.internal('/internal/tokens/verify', { jti: engineJti })).json.reason).toBe('disabled');

    await signInAs('admin@acme.test');
    await page.click('nav >> text=Devices');
    await tokenRow.waitFor();
    // No ISO control for the admin on a token staff disabled (its contract stays editable beside it).
    expect(await tokenRow.locator('td.actions button').count()).toBe(0);
    expect(await tokenRow.locator('td.actions').innerText()).toBe('Disabled by staff');
  });

  it('shows admins the account state derived from the subscription', async () => {
    await signInAs('admin@acme.test');
    await cloud.db.run("UPDATE accounts SET subscription_status = 'past_due', current_period_end = '2099-01-31T00:00:00Z' WHERE name = 'Acme Refurbishing'");
    await page.goto(`${cloud.base}/wipes`);
    await page.waitForSelector('.banner');
    expect(await page.locator('.banner').innerText()).toBe('Payment past due: devices keep working during the grace period until 2099-01-31.');
    expect(await page.locator('[data-testid="subscription"]').innerText()).toBe('Past due');
    await screenshot(page, '10-subscription-past-due');
  });

  it('shows a technician that only account admins mint device tokens', async () => {
    await signInAs('tech@acme.test');
    await page.click('nav >> text=Downloads');
    await page.waitForSelector('[data-testid="admins-only"]');
    expect(await page.locator('[data-testid="admins-only"]').innerText()).toBe('Only account admins can download images and device tokens. Ask an admin of Acme Refurbishing for one.');
    expect(await page.locator('[data-testid="download-token-engine"]').isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="token-terms"]').count()).toBe(0);
    await screenshot(page, '07c-downloads-technician');
  });

  it('signs out from the top navigation', async () => {
    await page.click('button:has-text("Sign out")');
    await page.waitForURL(/\/login$/);
    await page.goto(`${cloud.base}/devices`);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
