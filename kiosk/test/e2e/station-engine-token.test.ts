import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/stack.js';
import { buildForKioskE2e, launchKioskBrowser, shoot, startKioskStack } from './kiosk-stack.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const AGENT_BIN = join(REPO, 'engine-agent/bin/erasure-agent.js');
const RENDERER_DIST = join(REPO, 'kiosk/dist/renderer');

/**
 * `erasure-agent serve --station` on an engine token (issue 28 item 7): its results would never
 * be certified, so the station refuses to start and the kiosk says why, instead of erasing
 * drives whose certificates stay pending forever.
 */
describe('kiosk: a station started on an engine token', { timeout: 240_000 }, () => {
  let stack: Awaited<ReturnType<typeof startKioskStack>>;
  let agent: { url: string; child: ChildProcess };
  let work: string;
  let browser: Awaited<ReturnType<typeof launchKioskBrowser>>;
  let page: Page;

  beforeAll(async () => {
    buildForKioskE2e();
    stack = await startKioskStack();
    const { token } = (await stack.cli('admin', 'mint-device-token', '--account', stack.accountId, '--product', 'engine', '--quota', '10')) as { token: string };
    work = mkdtempSync(join(tmpdir(), 'kiosk-station-engine-'));
    writeFileSync(join(work, 'device-token'), `${token}\n`, { mode: 0o600 });
    agent = await startService(
      AGENT_BIN,
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(work, 'agent'), ERASURE_GATEWAY_URL: stack.gateway.url, ERASURE_DEVICE_TOKEN_FILE: join(work, 'device-token'), ERASURE_SIMULATE: '1', KIOSK_RENDERER_DIR: RENDERER_DIST },
      ['serve', '--station'],
    );
    browser = await launchKioskBrowser();
    page = browser.page;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stopService(agent?.child);
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('refuses to start, saying the token is an engine one whose drives would not be certified, and opens no wizard', async () => {
    await page.goto(agent.url);
    const status = page.locator('[data-screen="station-status"]');
    await expect.poll(() => status.textContent()).toMatch(/^The station could not start: this device token was minted for the engine product, so no drive erased here would be certified: use a hotswap device token/);
    // The boot itself unlocks (the token is valid): the refusal is the station's, and it stays.
    await expect.poll(async () => ((await (await fetch(`${agent.url}/api/state`)).json()) as { boot: { phase: string } }).boot.phase).toBe('unlocked');
    const state = (await (await fetch(`${agent.url}/api/state`)).json()) as { station: { phase: string; watching: boolean } };
    expect(state.station).toMatchObject({ phase: 'failed', watching: false });
    expect(await page.locator('[data-screen="station-wizard"], [data-screen="bay-view"]').count()).toBe(0);
    await shoot(page, 'station-07-refused-engine-token');
  });
});
