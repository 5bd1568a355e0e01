import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../../test/support/chromium.js';
import { generateDeviceKeyPair } from '@erasure/shared';
import { bootImagesIn } from '../../src/adapters/boot-images.js';
import { systemClock } from '../../src/adapters/clock.js';
import { createAccount } from '../../src/adapters/db/accounts.js';
import { createToken } from '../../src/adapters/db/tokens.js';
import { createUser, type Role } from '../../src/adapters/db/users.js';
import { hashPassword } from '../../src/adapters/passwords.js';
import type { SqlDatabase } from '../../src/adapters/sql/database.js';
import { buildCloudApp } from '../../src/http/app.js';
import { openTestStore } from '../support/test-store.js';
import { freshSigner } from '../support/fresh-signer.js';

const CLOUD_DIR = fileURLToPath(new URL('../../', import.meta.url));
const WEB_DIST = join(CLOUD_DIR, 'web-dist');
/** Screenshots go to the repo's gitignored test-results/. */
export const SCREENS_DIR = fileURLToPath(new URL('../../../test-results/screens/', import.meta.url));
export const SECRET = 'e2e-internal-secret-0123456789abcdef';
export const PASSWORD = 'correct horse battery';

const newestMtime = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name);
    return Math.max(max, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }, 0);

/** Runs `vite build` unless web-dist is newer than every source file of the pages. */
export function buildPagesIfStale(): void {
  const index = join(WEB_DIST, 'index.html');
  const sources = newestMtime(join(CLOUD_DIR, 'web'));
  if (existsSync(index) && statSync(index).mtimeMs > sources) return;
  const vite = fileURLToPath(new URL('../../../node_modules/vite/bin/vite.js', import.meta.url));
  execFileSync(process.execPath, [vite, 'build', '--config', join(CLOUD_DIR, 'web/vite.config.ts'), '--logLevel', 'warn'], {
    cwd: CLOUD_DIR,
    stdio: 'inherit',
  });
}

/** A receiver for the wipes grid's Push, recording what arrives. */
export async function startReceiver(): Promise<{ url: string; received: { headers: Record<string, unknown>; body: string }[]; server: Server }> {
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

export interface RunningCloud {
  base: string;
  /** The store the cloud runs on: this run's kind (SQLite, or PostgreSQL in `cloud on postgres`). */
  db: SqlDatabase;
  deviceKeys: { privateKey: string; publicKey: string };
  /** DATA_DIR/images of this cloud: absent until a test puts a base image there. */
  imagesDir: string;
  /** A signed internal call, as the gateway makes it. */
  internal(path: string, body: object): Promise<{ status: number; json: any }>;
  user(accountId: number, role: Role, email: string): Promise<void>;
  account(name: string): Promise<{ id: number; publicId: string }>;
  token(accountId: number, userEmail: string, product?: 'engine' | 'hotswap', lot?: { customer?: string; lotReference?: string }): Promise<string>;
  close(): Promise<void>;
}

/** A real cloud listening on a free port over a fresh store of this run's kind, with the built pages. */
export async function startListeningCloud(extra: { deploymentWarnings?: string[]; gatewayUrl?: string; wipesCsvMaxRows?: number } = {}): Promise<RunningCloud> {
  const dir = mkdtempSync(join(tmpdir(), 'erasure-e2e-web-'));
  const db = await openTestStore(dir);
  const deviceKeys = generateDeviceKeyPair();
  const app = buildCloudApp({
    db,
    clock: systemClock,
    internalApiSecret: SECRET,
    deviceTokenPrivateKey: deviceKeys.privateKey,
    images: bootImagesIn(join(dir, 'images')),
    outbound: { allowHttp: true, allowLoopback: true },
    ...extra,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const now = () => new Date().toISOString();
  const sign = freshSigner(SECRET);
  return {
    base,
    db,
    deviceKeys,
    imagesDir: join(dir, 'images'),
    async internal(path, body) {
      const payload = JSON.stringify(body);
      const headers = sign(payload);
      const res = await fetch(`${base}${path}`, { method: 'POST', body: payload, headers: { ...headers, 'content-type': 'application/json' } });
      return { status: res.status, json: await res.json() };
    },
    async user(accountId, role, email) {
      await createUser(db, { accountId, email, passwordHash: await hashPassword(PASSWORD), role, now: now() });
    },
    async account(name) {
      const row = await createAccount(db, { name, subscriptionStatus: 'active', now: now() });
      return { id: row.id, publicId: row.public_id };
    },
    async token(accountId, userEmail, product = 'engine', lot = {}) {
      return (await createToken(db, { accountId, product, quotaLimit: 50, userEmail, expiresAt: null, ...lot, now: now() })).jti;
    },
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, in a fresh profile that is removed afterwards. */
export async function launchBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const browser = await launchChromium({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  // Revoke and kill-switch buttons ask for confirmation; the test means it.
  browser.page.on('dialog', (dialog) => void dialog.accept());
  return browser;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`), fullPage: true });
}

/** Signs `email` in from the login page (the shared password), as a fresh session: the app opens on /wipes. */
export async function signIn(browser: { context: BrowserContext; page: Page }, base: string, email: string): Promise<void> {
  const { page } = browser;
  // Off the app first: a page of the app whose session is cleared under it navigates to /login
  // on its own, racing the navigation below.
  await page.goto('about:blank');
  await browser.context.clearCookies();
  await page.goto(`${base}/login`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', PASSWORD);
  await Promise.all([page.waitForURL(/\/wipes/), page.click('button[type="submit"]')]);
}

/**
 * Serves `app` on loopback, opens Chromium and signs `email` in: the wipes grid, its rows drawn.
 * For a describe block that seeds its wipes first and then looks at them.
 */
export async function openWipesAs(app: { listen(options: { host: string; port: number }): Promise<string> }, email: string) {
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await launchBrowser();
  await signIn(browser, base, email);
  await browser.page.waitForSelector('[data-testid="wipes-table"] tbody tr');
  return { base, browser, page: browser.page };
}

/** Signs `email` in and opens the Devices page, where the account's erasure settings are. */
export async function openDevices(browser: { context: BrowserContext; page: Page }, base: string, email: string): Promise<void> {
  await signIn(browser, base, email);
  await browser.page.click('nav >> text=Devices');
  await browser.page.waitForSelector('[data-testid="policy-summary"]');
}
