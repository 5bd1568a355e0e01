import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/support/chromium.js';
import { listenLoopback } from '../../src/api/serve.js';
import { startRemoteKiosk } from '../../src/remote-kiosk/proxy.js';
import { simulatedServe } from '../support/serve-env.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const RENDERER = join(REPO, 'kiosk/dist/renderer');
const SCREENS_DIR = join(REPO, 'test-results/remote-kiosk');
const CODE = 'K7QM-2WXR-9TNB-4HJD-ABCD';
const skip = existsSync(join(RENDERER, 'index.html')) ? undefined : `${RENDERER} is not built: run \`npm run build -w kiosk\``;

/** A page of another origin on the same machine that tries to select every drive through `target`. */
function hostilePage(target: string, devices: string[]): Promise<Server> {
  const script = `fetch(${JSON.stringify(new URL('/api/intents', target).href)}, { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(JSON.stringify({ type: 'select', devices }))} }).then(() => { document.title = 'sent'; }, () => { document.title = 'failed'; });`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>waiting</title><script>${script}</script>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A page of another origin that shows `target` in a frame, as a clickjacking page would (under a decoy). */
function framingPage(target: string): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>framing</title><h1>Another site</h1>
<iframe id="kiosk" src="${target}" style="width:900px;height:520px;border:4px solid #c00" onload="document.title='loaded'"></iframe>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(Boolean(skip))('the remote kiosk in a browser on another machine (Chromium through the proxy)', () => {
  let sut: Awaited<ReturnType<typeof simulatedServe>>;
  let proxy: Awaited<ReturnType<typeof startRemoteKiosk>>;
  let agentUrl = '';
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    mkdirSync(SCREENS_DIR, { recursive: true });
    sut = await simulatedServe({ env: { KIOSK_RENDERER_DIR: RENDERER } });
    await sut.controller.bootUp();
    agentUrl = await listenLoopback(sut.app, { HOST: '127.0.0.1', PORT: 0 });
    proxy = await startRemoteKiosk({ listen: '127.0.0.1', port: 0, code: CODE, upstream: new URL(agentUrl) });
    browser = await launchChromium({ viewport: { width: 1280, height: 800 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await sut?.close();
  });

  it('sends an unpaired browser to the pairing page, and says so when the code is wrong', async () => {
    const { page } = browser;
    await page.goto(proxy.url);
    expect(new URL(page.url()).pathname).toBe('/pair');
    await expect(page.locator('h1').textContent()).resolves.toBe('Pair this browser with the erasure machine');
    await page.screenshot({ path: join(SCREENS_DIR, 'pairing-page.png') });
    await page.fill('#pairing-code', 'K7QM-2WXR-9TNB-4HJD-ABCE');
    await page.click('button[type="submit"]');
    await expect(page.locator('.problem').textContent()).resolves.toBe("That is not this machine's pairing code. Type the code shown on the machine's own screen.");
    await page.screenshot({ path: join(SCREENS_DIR, 'pairing-page-wrong-code.png') });
    expect(await browser.context.cookies()).toEqual([]);
  });

  it('opens the kiosk once paired, and the kiosk selects drives through the proxy', async () => {
    const { page } = browser;
    await page.goto(new URL('/pair', proxy.url).href);
    await page.fill('#pairing-code', CODE.toLowerCase());
    await Promise.all([page.waitForURL(proxy.url), page.click('button[type="submit"]')]);
    await page.waitForSelector('.unlocked-badge', { timeout: 30_000 });
    await page.locator('nav.steps button', { hasText: 'Drives' }).click();
    const box = page.locator('.drive input[type="checkbox"]').first();
    await box.click();
    await expect.poll(() => box.isChecked(), { timeout: 10_000 }).toBe(true);
    expect(sut.controller.snapshot().selected).toHaveLength(1);
    await page.screenshot({ path: join(SCREENS_DIR, 'kiosk-through-proxy.png') });
    const [cookie] = await browser.context.cookies();
    expect(cookie).toMatchObject({ name: 'erasure_pairing', httpOnly: true, sameSite: 'Strict' });
  });

  it('keeps a page of another origin in the same paired browser from selecting drives, through the proxy or on loopback', async () => {
    const before = sut.controller.snapshot().selected;
    const devices = sut.controller.snapshot().drives.map((d) => d.device);
    for (const target of [proxy.url, agentUrl]) {
      const hostile = await hostilePage(target, devices);
      const refused = browser.page.waitForResponse((r) => r.url().endsWith('/api/intents'));
      await browser.page.goto(`http://127.0.0.1:${(hostile.address() as AddressInfo).port}/`);
      expect((await refused).status()).toBe(403);
      hostile.close();
    }
    expect(sut.controller.snapshot().selected).toEqual(before);
  });

  it('does not render the kiosk inside a frame of another origin, on loopback or through the proxy', async () => {
    for (const [name, target] of [['loopback', agentUrl], ['proxy', proxy.url]] as const) {
      const framing = await framingPage(target);
      try {
        await browser.page.goto(`http://127.0.0.1:${(framing.address() as AddressInfo).port}/`);
        await expect.poll(() => browser.page.title()).toBe('loaded');
        const frame = browser.page.frames().find((f) => f !== browser.page.mainFrame());
        // Chromium replaces a refused frame with its own error page: none of the kiosk's document.
        expect(frame?.url()).not.toContain(new URL(target).host);
        expect(await frame!.locator('#root, form').count()).toBe(0);
        await browser.page.screenshot({ path: join(SCREENS_DIR, `framed-by-another-origin-${name}.png`) });
      } finally {
        framing.close();
      }
    }
  });
});
