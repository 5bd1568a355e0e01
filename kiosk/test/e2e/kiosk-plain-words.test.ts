import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMemory } from '../../src/renderer/format.js';
import { agentState, kioskSession, mintToken, RESOLUTIONS, shoot, toConfirmation, type Agent, type KioskStack } from './kiosk-stack.js';

/**
 * Issue 22 items 5, 7 and 9 in Debian's Chromium against the real stack (agent in simulate mode):
 * plain words first and internals under Details, one unit convention, the layout at both kiosk
 * resolutions, and drive selection. The tests run in order on one agent: the erase of the
 * results test is what the "erased earlier" test then reads on the Drives step.
 */
describe('kiosk: plain words, layout and drive selection', { timeout: 180_000 }, () => {
  const session = kioskSession();
  let agent: Agent;
  let page: Page;

  beforeAll(async () => {
    ({ agent, page } = await session.startWithAgent({ quota: 10 }));
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="machine"]');
    await page.waitForSelector('.fact:has-text("Memory")');
  }, 180_000);

  afterAll(() => session.stop());

  const step = async (label: string, screen: string) => {
    await page.locator('nav.steps button', { hasText: label }).click();
    await page.waitForSelector(`[data-screen="${screen}"]`);
  };
  const openTest = async (id: string) => {
    await page.click(`[data-test="${id}"]`);
    await page.waitForSelector('#test-title');
  };

  it('shows memory in binary GiB, as the web application does', async () => {
    const total = (await agentState(agent)).fingerprint.memory.total_bytes as number;
    await expect(page.locator('.fact', { hasText: 'Memory' }).locator('dd').textContent()).resolves.toBe(formatMemory(total));
    expect(formatMemory(total)).toMatch(/ (GiB|MiB)$/);
  });

  it('keeps the asset id and boot record id under Details on the Machine page', async () => {
    await page.waitForFunction(async () => document.querySelector('[data-testid="report-status"]')?.textContent === 'Hardware report received by the service.');
    const state = await agentState(agent);
    const visible = await page.locator('[data-screen="machine"]').innerText();
    expect(visible).not.toContain(state.boot.asset_id);
    expect(visible).not.toContain(state.record_id);
    await shoot(page, '20-machine-plain');
    await page.locator('.machine-details summary').click();
    await expect(page.locator('.machine-details').innerText()).resolves.toContain(state.boot.asset_id);
    await shoot(page, '20b-machine-details');
    await page.locator('.machine-details summary').click();
  });

  it('labels the boot as a session time, never in the certificate number form CW-…', async () => {
    const { record_id } = await agentState(agent);
    expect(record_id).toMatch(/^CW-\d{8}-\d{6}$/); // the wire value stays as spec 2 defines it
    const topbar = await page.locator('.topbar').innerText();
    expect(topbar).toMatch(/Session of \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC/);
    expect(topbar).not.toMatch(/CW-/);
  });

  it('keeps every step’s Next button whole on screen at both kiosk resolutions', async () => {
    const steps: Array<[string, string]> = [
      ['Machine', 'machine'],
      ['Hardware tests', 'tests'],
      ['Notes', 'notes'],
      ['Drives', 'drives'],
    ];
    for (const size of RESOLUTIONS) {
      await page.setViewportSize(size);
      for (const [label, screen] of steps) {
        await step(label, screen);
        // Not scrolled to: the button must be whole in the window as the step opens.
        const next = page.locator('.next-step button');
        const box = await next.boundingBox();
        if (!box) throw new Error(`no Next button on ${label}`);
        expect({ step: label, size, right: box.x + box.width <= size.width, bottom: box.y + box.height <= size.height, left: box.x >= 0 }).toEqual({ step: label, size, right: true, bottom: true, left: true });
      }
    }
    await page.setViewportSize(RESOLUTIONS[0]);
    await step('Hardware tests', 'tests');
    await shoot(page, '21-tests-next');
  });

  it('prints the USB and Speakers instructions once', async () => {
    await step('Hardware tests', 'tests');
    for (const [id, sentence] of [
      ['usb_ports', 'Plug a USB stick or mouse into each port in turn.'],
      ['audio', 'Play the tone on each side and listen.'],
    ] as const) {
      await openTest(id);
      const text = await page.locator('.test-panel').innerText();
      expect(text.split(sentence).length - 1).toBe(1);
    }
    await shoot(page, '22-test-audio');
    await openTest('usb_ports');
    await shoot(page, '22b-test-usb');
  });

  it('offers the webcam test a retry that asks for the camera again', async () => {
    await step('Hardware tests', 'tests');
    await openTest('webcam');
    await page.waitForSelector('.webcam:not(.hidden)');
    const streamId = () => page.locator('video.webcam').evaluate((v) => ((v as HTMLVideoElement).srcObject as MediaStream | null)?.id ?? null);
    const first = await streamId();
    expect(first).not.toBeNull();
    await page.locator('button', { hasText: 'Restart the camera' }).click();
    await expect.poll(streamId).not.toBe(first);
    await page.waitForSelector('.webcam:not(.hidden)');
    await expect.poll(streamId).not.toBeNull();
    await shoot(page, '23-test-webcam-retry');
  });

  it('gives the Drives step a Select all and a Next', async () => {
    await step('Drives', 'drives');
    await page.waitForSelector('.drive');
    await shoot(page, '24-drives');
    await page.locator('button', { hasText: 'Select all 2' }).click();
    await expect.poll(async () => (await agentState(agent)).selected.length).toBe(2);
    await expect.poll(() => page.locator('.drive input[type="checkbox"]:checked').count()).toBe(2);
    await expect(page.locator('.next-step button').textContent()).resolves.toMatch(/Next: Erase/);
    await shoot(page, '24b-drives-all-selected');
  });

  it('estimates each drive’s erase from its size and media type, not a constant minute', async () => {
    const { drives } = await agentState(agent);
    const plans = await page.locator('.drive .plan').allInnerTexts();
    for (const [i, d] of drives.entries()) {
      const seconds = Math.round(d.plan.expected_minutes * 60);
      const rate = d.media_type === 'SSD' ? 400e6 : 150e6; // the agent's typical overwrite rates
      expect(seconds).toBe(Math.max(1, Math.ceil(d.size_bytes / rate)));
      expect(plans[i]).toContain(`about ${seconds} s (estimate for`);
      expect(plans[i]).toContain(d.media_type);
    }
  });

  it('shows each erased drive in plain words with the ids and verification wording only under Details', async () => {
    await toConfirmation(page);
    await expect(page.locator('.confirm kbd').textContent()).resolves.toBe('ERASE 2 DRIVES');
    await page.locator('#confirm-text').fill('ERASE 2 DRIVES');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-screen="erase"]');
    await page.waitForSelector('.result-list .result >> nth=1', { timeout: 120_000 });
    await expect.poll(() => page.locator('.result .certificate').allTextContents(), { timeout: 30_000 }).toEqual([expect.stringMatching(/^Certificate CW-\d{6}/), expect.stringMatching(/^Certificate CW-\d{6}/)]);
    const state = await agentState(agent);
    const list = page.locator('.result-list');
    const visible = await list.innerText();
    expect(visible).toMatch(/Erased and verified/);
    expect(visible).not.toMatch(/wr_|O_DIRECT|fdatasync|job/i);
    for (const r of state.results) expect(visible).not.toContain(r.job_id);
    expect(await page.locator('.result.bad').count()).toBe(0);
    await shoot(page, '25-results-plain');
    await page.locator('.result-details summary').first().click();
    const details = await page.locator('.result-details').first().innerText();
    expect(details).toContain(state.results[0].job_id);
    expect(details).toContain(state.results[0].wipe_result_id);
    await shoot(page, '25b-results-details');
  });

  it('marks a drive erased earlier in this boot with the time and its certificate number', async () => {
    const state = await agentState(agent);
    await step('Drives', 'drives');
    const lines = await page.locator('[data-testid="erased-before"]').allInnerTexts();
    const numbers = state.results.map((r: { certificate_number: string }) => r.certificate_number);
    expect(lines).toHaveLength(2);
    for (const [i, line] of lines.entries()) expect(line).toMatch(new RegExp(`Erased at \\d\\d:\\d\\d · ${numbers[i]}\\. Erasing it again spends another erasure`));
    await shoot(page, '26-drives-erased-earlier');
  });
});

/** Issue 22 item 8: the locked screen says each cause once, in plain words, with the facts to act on. */
describe('kiosk: the locked screen', { timeout: 120_000 }, () => {
  const session = kioskSession();
  let stack: KioskStack;
  let page: Page;

  beforeAll(async () => {
    ({ stack, page } = await session.start());
  }, 180_000);

  afterAll(() => session.stop());

  const locked = async (gatewayUrl: string, token: string) => {
    const agent = await session.startAgent(gatewayUrl, token);
    await page.goto(agent.url);
    await page.waitForSelector('[data-screen="locked"]', { timeout: 40_000 });
    return agentState(agent);
  };

  it('says an unreachable gateway once, without Wi-Fi or a reason code, and shows the addresses, gateway and clock', async () => {
    const { token } = await mintToken(stack, { quota: 5 });
    const state = await locked('http://127.0.0.1:9', token);
    const visible = await page.locator('[data-screen="locked"]').innerText();
    expect(visible).toMatch(/cannot be reached from this machine\. Check that the network cable is plugged in/);
    expect(visible).not.toMatch(/fetch failed|Reason code|Wi-?Fi/i);
    const addresses = state.boot.addresses as string[];
    await expect(page.locator('[data-testid="ip-addresses"]').innerText()).resolves.toBe(addresses.length > 0 ? addresses.join(', ') : 'none: no network connection (check the cable)');
    await expect(page.locator('[data-testid="gateway-url"]').innerText()).resolves.toBe('http://127.0.0.1:9');
    await expect(page.locator('[data-testid="clock-state"]').innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    await shoot(page, '27-locked-unreachable');
    await page.locator('.locked-details summary').click();
    await expect(page.locator('[data-testid="raw-reason"]').innerText()).resolves.toMatch(/fetch failed/);
    await shoot(page, '27b-locked-unreachable-details');
  });

  it('says a licence the gateway refuses (401) is missing, wrong or damaged on the stick', async () => {
    const state = await locked(stack.gateway.url, 'not-a-device-token');
    expect(state.boot.reason).toMatch(/401/);
    await expect(page.locator('.reason').innerText()).resolves.toMatch(/did not accept this device’s licence: the licence file on this stick is missing, wrong or damaged/);
    // The gateway's URL is on screen, and its random port may contain "401": leave it out of the check.
    expect((await page.locator('[data-screen="locked"]').innerText()).replace(stack.gateway.url, '')).not.toMatch(/401|unauthorized/i);
    await shoot(page, '28-locked-bad-token');
  });
});
