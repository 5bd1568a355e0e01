import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, shoot, type Agent, type KioskStack } from './kiosk-stack.js';

const PASSWORD = 'correct horse battery';
const MiB = 1024 * 1024;

/** Sets the account's validation rate in the cloud's web app, as its admin would. */
async function setValidationRate(stack: KioskStack, ratePercent: number): Promise<void> {
  const cloud = stack.cloud.url;
  const login = await fetch(`${cloud}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@kiosk.test', password: PASSWORD }) });
  const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
  const me = (await (await fetch(`${cloud}/app/api/me`, { headers: { cookie } })).json()) as { csrf_token: string };
  const put = await fetch(`${cloud}/app/api/validation/rate`, {
    method: 'PUT',
    headers: { cookie, 'x-csrf-token': me.csrf_token, 'content-type': 'application/json' },
    body: JSON.stringify({ rate_percent: ratePercent }),
  });
  if (put.status !== 200) throw new Error(`setting the validation rate failed: ${put.status} ${await put.text()}`);
}

/** One operator intent, as the kiosk sends it. */
async function intent(agent: Agent, body: object): Promise<void> {
  const res = await fetch(new URL('/api/intents', agent.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`intent ${JSON.stringify(body)} refused: ${res.status} ${await res.text()}`);
}

/** Waits until `check` holds (setup, outside a test: expect.poll is for tests). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Writes `bytes` at `offset` of a simulated drive's image file: what the host sees of the drive. */
function plant(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Issue 29 (5) on the kiosk against the real stack: a lot whose every drive is picked (rate
 * 100 %), both simulated drives erased through the agent, then "Validate a drive" from the Drives
 * step: each drive says it was picked and its certificate; the operator reads one, which is
 * approved, and the other, which got a PDF written after its erase, is rejected naming it.
 */
describe('kiosk: validate a drive the erasure service picked', { timeout: 240_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let page: Page;
  let agent: Agent;
  let devices: string[];

  beforeAll(async () => {
    ({ stack, page } = await session.start());
    await stack.cli('admin', 'create-user', '--account', stack.accountId, '--email', 'admin@kiosk.test', '--password', PASSWORD, '--role', 'admin');
    await setValidationRate(stack, 100);
    const minted = (await stack.cli('admin', 'mint-device-token', '--account', stack.accountId, '--quota', '5', '--customer', 'Northwind Bank', '--lot', 'LOT-K1')) as { token: string };
    agent = await session.startAgent(stack.gateway.url, minted.token);
    await until('the boot to unlock', async () => (await agentState(agent)).locked === false);
    devices = ((await agentState(agent)).drives as { device: string }[]).map((d) => d.device);
    expect(devices).toHaveLength(2);
    await until('the erasure policy', async () => (await agentState(agent)).erasure?.status === 'ready');
    await intent(agent, { type: 'select', devices });
    await intent(agent, { type: 'confirm', text: 'ERASE 2 DRIVES' });
    await intent(agent, { type: 'start' });
    await until('the erase to finish', async () => (await agentState(agent)).run.status === 'finished');
    const state = await agentState(agent);
    expect(state.run.exit_code).toBe(0);
    // A customer's PDF written onto the second drive after its erase, through the host's view of it.
    plant(devices[1]!, 5 * MiB + 4096, Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1'));
    expect(readFileSync(devices[0]!).subarray(0, 4096).every((b) => b === 0)).toBe(true);
  }, 300_000);
  afterAll(() => session.stop());

  const row = (device: string) => page.locator(`[data-testid="validate-drive"][data-device="${device}"]`);

  it('lists each drive with whether it was picked and its certificate, from the Drives step', async () => {
    await page.goto(agent.url);
    // After this boot's erase the kiosk opens on its results; the Drives step is one click away.
    await page.waitForSelector('nav.steps');
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    await page.locator('[data-testid="open-validate"]').click();
    await page.waitForSelector('[data-screen="validate"]');
    for (const device of devices) {
      await expect.poll(() => row(device).locator('[data-testid="validate-verdict"]').innerText()).toBe('Picked for validation');
      expect(await row(device).locator('[data-testid="validate-note"]').innerText()).toMatch(/^Erased with NIST 800-88 R2 Clear \(certificate CW-\d{6}\); reading it checks every sector/);
      expect(await row(device).innerText()).toMatch(/certificate CW-\d{6}/);
    }
    await shoot(page, '60-validate-picked');
  });

  it('reads the untouched drive and says it is approved, the findings behind Details', async () => {
    await row(devices[0]!).locator('button', { hasText: 'Read and validate this drive' }).click();
    const outcome = page.locator('[data-testid="validate-outcome"]');
    await expect.poll(() => outcome.getAttribute('data-result'), { timeout: 60_000 }).toBe('approved');
    expect(await outcome.locator('.validate-headline').innerText()).toBe('Approved: every sector reads as zeros');
    expect(await outcome.innerText()).toContain('recorded by the erasure service');
    expect(await outcome.locator('details').getAttribute('open')).toBeNull();
    await outcome.locator('summary', { hasText: 'Details' }).click();
    expect(await outcome.locator('details').innerText()).toContain('Every sector holds zeros');
    await expect.poll(() => row(devices[0]!).locator('[data-testid="validate-verdict"]').innerText()).toBe('Validated: approved');
    await shoot(page, '61-validate-approved');
  });

  it('reads the drive with a PDF written after its erase and says it is rejected, naming the PDF and where', async () => {
    await row(devices[1]!).locator('button', { hasText: 'Read and validate this drive' }).click();
    const outcome = page.locator('[data-testid="validate-outcome"]');
    await expect.poll(() => outcome.getAttribute('data-result'), { timeout: 60_000 }).toBe('rejected');
    expect(await outcome.locator('.validate-headline').innerText()).toBe('Rejected: a PDF document at byte 5,246,976');
    expect(await outcome.innerText()).toContain('recorded by the erasure service');
    await outcome.locator('summary', { hasText: 'Details' }).click();
    expect(await outcome.locator('details').innerText()).toContain('Found: a PDF document at byte 5,246,976');
    await expect.poll(() => row(devices[1]!).locator('[data-testid="validate-verdict"]').innerText()).toBe('Validated: rejected');
    await shoot(page, '62-validate-rejected');
    // The cloud recorded it: the certificate no longer verifies.
    const certificate = (await agentState(agent)).validation.outcome.certificate_number as string;
    const found = (await stack.cli('admin', 'list-certificates', '--account', stack.accountId)) as { certificate_number: string; id?: string; public_id?: string }[];
    expect(found.map((c) => c.certificate_number)).toContain(certificate);
  });

  it('refuses to read a drive that is not waiting for a validation, and never one the operator did not choose', async () => {
    const res = await fetch(new URL('/api/intents', agent.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'validate_drive', step: 'read', device: devices[0] }) });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('is not waiting for a validation');
    const other = await fetch(new URL('/api/intents', agent.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'validate_drive', step: 'read', device: '/dev/sda' }) });
    expect(other.status).toBe(409);
    expect(await other.text()).toContain('not a drive listed for validation');
  });
});
