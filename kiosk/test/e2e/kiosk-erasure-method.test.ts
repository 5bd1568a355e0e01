import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentState, kioskSession, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

const PASSWORD = 'correct horse battery';

/** Signs in to the cloud's web app as an account admin and sets a device token's own erasure policy there. */
async function setTokenPolicy(stack: KioskStack, jti: string, policy: object): Promise<void> {
  const cloud = stack.cloud.url;
  const login = await fetch(`${cloud}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@kiosk.test', password: PASSWORD }) });
  const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
  const me = (await (await fetch(`${cloud}/app/api/me`, { headers: { cookie } })).json()) as { csrf_token: string };
  const put = await fetch(`${cloud}/app/api/devices/${jti}/erasure-policy`, {
    method: 'PUT',
    headers: { cookie, 'x-csrf-token': me.csrf_token, 'content-type': 'application/json' },
    body: JSON.stringify({ erasure_policy: policy }),
  });
  if (put.status !== 200) throw new Error(`setting the token's policy failed: ${put.status} ${await put.text()}`);
}

/**
 * Issue 29 item 2 on the kiosk against the real stack: a device token carrying a customer's
 * contract (minted with --erasure-method and --allowed-methods); the Drives step shows each
 * drive's method by its contract name and offers only the allowed ones; a method the policy no
 * longer allows when Erase is pressed is refused in plain words, with nothing checked in or written.
 */
describe('kiosk: the erase method of each drive', { timeout: 180_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let page: Page;
  let agent: Agent;
  let jti: string;

  beforeAll(async () => {
    ({ stack, page } = await session.start());
    await stack.cli('admin', 'create-user', '--account', stack.accountId, '--email', 'admin@kiosk.test', '--password', PASSWORD, '--role', 'admin');
    const minted = (await stack.cli(
      'admin', 'mint-device-token', '--account', stack.accountId, '--quota', '5',
      '--erasure-method', 'nist-800-88-clear', '--allowed-methods', 'nist-800-88-clear,dod-5220.22-m-3,bsi-gs', '--verification', 'sample:10',
    )) as { token: string; jti: string };
    jti = minted.jti;
    agent = await session.startAgent(stack.gateway.url, minted.token);
  }, 240_000);
  afterAll(() => session.stop());

  it('shows each drive’s method by its contract name and offers only the methods the token’s contract allows', async () => {
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    const choice = page.locator('.drive [data-testid="method-choice"]').first();
    await choice.waitFor();
    const select = choice.locator('select');
    expect(await select.locator('option:checked').innerText()).toBe('NIST 800-88 R2 Clear (default)');
    expect(await select.locator('option').allInnerTexts()).toEqual(['NIST 800-88 R2 Clear (default)', 'DoD 5220.22-M (3 passes)', 'BSI-GS']);
    expect(await choice.innerText()).toContain("10% of each drive is read back (sample:10) · set by this device token's contract");
    await shoot(page, '40-drives-method-default');

    // The operator picks the other allowed method; the agent holds the choice.
    const device = (await agentState(agent)).drives[0].device as string;
    await select.selectOption('dod-5220.22-m-3');
    await expect.poll(async () => (await agentState(agent)).erasure.methods[device]).toBe('dod-5220.22-m-3');
    expect(await select.locator('option:checked').innerText()).toBe('DoD 5220.22-M (3 passes)');
    // The plan under the choice is the chosen method's, not the listing's NIST plan.
    await expect.poll(() => page.locator('.drive [data-testid="plan-chosen"]').first().innerText()).toBe('DoD 5220.22-M (3 passes): 3 passes written over the whole drive');
    // A method this drive's plan would not carry out is said under the choice (it is not erased under that name).
    const refusal = (await agentState(agent)).erasure.refusals[device] as string | undefined;
    if (refusal) expect(await choice.locator('[data-testid="method-refused"]').innerText()).toBe(`Not erased with this method: ${refusal}.`);
    await shoot(page, '40-drives-method-chosen');
  });

  it('refuses, in plain words, a method the contract allows but this drive cannot be erased with, and keeps the drive’s method', async () => {
    const device = (await agentState(agent)).drives[0].device as string;
    const choice = page.locator('.drive [data-testid="method-choice"]').first();
    const select = choice.locator('select');
    // A simulated drive has no firmware erase, which BSI-GS needs after its overwrite.
    await select.selectOption('bsi-gs');
    await expect.poll(() => page.locator('[data-screen="drives"] p.error[role="alert"]').innerText()).toMatch(/^The agent refused: BSI-GS needs a firmware erase after its overwrite, and none can run on this drive: /);
    expect((await agentState(agent)).erasure.methods[device]).toBe('dod-5220.22-m-3');
    await expect.poll(() => select.locator('option:checked').innerText()).toBe('DoD 5220.22-M (3 passes)');
    await shoot(page, '40-drives-method-refused');
  });

  it('refuses the chosen method in plain words when the contract no longer allows it at Erase, and erases nothing', async () => {
    await setTokenPolicy(stack, jti, { default_method: 'nist-800-88-clear', verification: 'full', allowed_methods: ['nist-800-88-clear'] });
    const box = page.locator('.drive input[type="checkbox"]').first();
    await box.click();
    await expect.poll(() => box.isChecked()).toBe(true);
    await toConfirmation(page);
    await page.locator('#confirm-text').fill('ERASE 1 DRIVE');
    await page.locator('button[type="submit"]').click();
    await page.waitForSelector('[data-screen="erase"] .banner.bad');
    const state = await agentState(agent);
    const device = state.selected[0] as string;
    expect(await page.locator('.banner.bad').innerText()).toBe(
      `Erasure blocked: nothing was erased. DoD 5220.22-M (3 passes) is not allowed by this device token's contract; allowed: NIST 800-88 R2 Clear (drive ${device}). Choose an allowed method on the Drives step.`,
    );
    await shoot(page, '41-erase-method-refused');
    expect(state.run).toMatchObject({ status: 'finished', phase: 'denied', exit_code: 2 });
    expect(state.results).toEqual([]);
    // No check-in went out (no quota spent) and the drive still holds its data.
    expect(await stack.cli('admin', 'list-certificates', '--account', stack.accountId)).toEqual([]);
    expect(readFileSync(device).subarray(0, 13).toString()).toBe('CUSTOMER DATA');
    // The drive now shows the one method the contract allows.
    expect(state.erasure).toMatchObject({ status: 'ready', allowed: [{ id: 'nist-800-88-clear' }], methods: { [device]: 'nist-800-88-clear' }, refusals: {} });
  });
});
