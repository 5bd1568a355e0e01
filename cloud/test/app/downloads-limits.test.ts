import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateDeviceKeyPair } from '@erasure/shared';
import { bootImagesIn } from '../../src/adapters/boot-images.js';
import type { DownloadLimits } from '../../src/http/download-slots.js';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

function xorrisoMissing(): string | undefined {
  try {
    execFileSync('sh', ['-c', 'command -v xorriso'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'xorriso is not installed (apt-get install xorriso)';
  }
}

const skip = xorrisoMissing();
if (skip) console.warn(`[cloud] image download limit tests skipped: ${skip}`);

/**
 * Issue 20 (6): image downloads are bounded. Concurrent personalizations are capped per account
 * and in total (429 with Retry-After), a reader that takes nothing is cut off, and the token
 * baked into a download that did not complete is revoked. Over real HTTP on loopback: aborts and
 * backpressure are what is tested, and `inject` has neither.
 */
describe.skipIf(Boolean(skip))('/downloads: image downloads have limits', () => {
  const keys = generateDeviceKeyPair();
  let dir: string;
  let cloud: Cloud | undefined;
  let base: string;
  const open: IncomingMessage[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'downloads-limits-'));
    // A plain ISO 9660 image larger than loopback's socket buffers, so a reader that does not
    // read holds xorriso back. Random data, so nothing along the way compresses it.
    const root = join(dir, 'root');
    mkdirSync(root);
    writeFileSync(join(root, 'payload.bin'), randomBytes(24 * 1024 * 1024));
    mkdirSync(join(dir, 'images'));
    execFileSync('xorriso', ['-as', 'mkisofs', '-quiet', '-V', 'ERASURE', '-o', join(dir, 'images', 'erasure-test-amd64.iso'), root], { stdio: 'ignore' });
    // Passes the ISO 9660 check (a primary volume descriptor at sector 16), yet xorriso cannot load it.
    mkdirSync(join(dir, 'broken'));
    const descriptor = Buffer.concat([Buffer.from('\x01CD001\x01', 'latin1'), randomBytes(2041)]);
    writeFileSync(join(dir, 'broken', 'erasure-broken-amd64.iso'), Buffer.concat([Buffer.alloc(32768), descriptor, randomBytes(64 * 1024)]));
    mkdirSync(join(dir, 'zeros'));
    writeFileSync(join(dir, 'zeros', 'erasure-zeros-amd64.iso'), Buffer.alloc(1024 * 1024));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    open.splice(0).forEach((res) => res.destroy());
    await cloud?.close();
    cloud = undefined;
  });

  async function start(options: { limits?: DownloadLimits; stallSeconds?: number; imagesDir?: string } = {}) {
    cloud = await startCloud({
      deps: {
        deviceTokenPrivateKey: keys.privateKey,
        images: bootImagesIn(options.imagesDir ?? join(dir, 'images')),
        gatewayUrl: 'https://gw.acme.test',
        downloadLimits: options.limits ?? { perAccount: 1, total: 4 },
        downloadStallSeconds: options.stallSeconds,
      },
    });
    base = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
    return cloud;
  }

  async function adminOf(c: Cloud, name: string): Promise<Browser> {
    const account = await c.account(name);
    const email = `admin@${account.publicId}.test`;
    await addUser(c, account.id, 'admin', email);
    return signIn(c, email);
  }

  /** Starts a download and answers once its headers arrived; the body is left unread (paused). */
  function startDownload(who: Browser, product = 'engine'): Promise<IncomingMessage> {
    const body = `product=${product}&_csrf=${encodeURIComponent(who.csrf)}`;
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${base}/app/api/downloads/image`, {
        method: 'POST',
        headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        res.pause();
        open.push(res);
        resolve(res);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const statusOf = async (jti: string) =>
    (await cloud!.db.one<{ status: string }>('SELECT status FROM license_tokens WHERE jti = @jti', { jti }))?.status;
  const tokenCount = async () => (await cloud!.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM license_tokens'))!.n;
  const closed = (res: IncomingMessage) => new Promise<void>((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve())));

  it('revokes the token of a download aborted at the headers, and a check-in with it is denied', async () => {
    const c = await start();
    const admin = await adminOf(c, 'Acme Refurb');
    const res = await startDownload(admin);
    expect(res.statusCode).toBe(200);
    const jti = String(res.headers['x-token-jti']);
    expect(await statusOf(jti)).toBe('active');
    res.destroy();
    await expect.poll(() => statusOf(jti)).toBe('revoked');
    expect((await c.post('/internal/tokens/validate', { jti })).json).toMatchObject({ allow: false, reason: 'revoked' });
  });

  it('revokes the token of a download aborted mid-stream', async () => {
    const c = await start();
    const admin = await adminOf(c, 'Acme Refurb');
    const res = await startDownload(admin);
    const jti = String(res.headers['x-token-jti']);
    await new Promise<void>((resolve) => {
      res.once('data', () => resolve());
      res.resume();
    });
    res.destroy();
    await expect.poll(() => statusOf(jti)).toBe('revoked');
    expect((await c.post('/internal/tokens/validate', { jti })).json).toMatchObject({ allow: false, reason: 'revoked' });
  });

  it('keeps the token of a download that completed, and frees its slot', async () => {
    const c = await start();
    const admin = await adminOf(c, 'Acme Refurb');
    const res = await startDownload(admin);
    const jti = String(res.headers['x-token-jti']);
    let bytes = 0;
    res.on('data', (chunk: Buffer) => (bytes += chunk.length));
    res.resume();
    await new Promise((resolve) => res.once('end', resolve));
    expect(bytes).toBeGreaterThan(24 * 1024 * 1024);
    // With one slot per account, the next download starts only once the first one's end is recorded.
    await expect.poll(async () => {
      const next = await startDownload(admin);
      next.destroy();
      return next.statusCode;
    }).toBe(200);
    expect(await statusOf(jti)).toBe('active');
  });

  it('answers 429 with Retry-After past the account’s cap, minting nothing, while another account still downloads', async () => {
    const c = await start({ limits: { perAccount: 1, total: 2 } });
    const acme = await adminOf(c, 'Acme Refurb');
    const first = await startDownload(acme);
    expect(first.statusCode).toBe(200);
    const refused = await startDownload(acme);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    refused.resume();
    const text = await new Promise<string>((resolve) => {
      let body = '';
      refused.on('data', (chunk: Buffer) => (body += chunk.toString()));
      refused.on('end', () => resolve(body));
    });
    expect(JSON.parse(text)).toEqual({ error: 'too many image downloads at once: your account has as many running as it may. Try again when one has finished.' });
    expect(await tokenCount()).toBe(1);

    const other = await startDownload(await adminOf(c, 'Other Refurb'));
    expect(other.statusCode).toBe(200);
    const third = await startDownload(await adminOf(c, 'Third Refurb'));
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('30');
    expect(await tokenCount()).toBe(2);
  });

  it('cuts off a reader that takes nothing for the stall time, stops xorriso and revokes the token', async () => {
    const c = await start({ stallSeconds: 1 });
    const admin = await adminOf(c, 'Acme Refurb');
    const res = await startDownload(admin);
    const jti = String(res.headers['x-token-jti']);
    // The reader never reads: the server gives up on its own.
    await expect.poll(() => statusOf(jti)).toBe('revoked');
    // Its slot is free again: xorriso has exited.
    const next = await startDownload(admin);
    expect(next.statusCode).toBe(200);
    // What the stalled client had buffered ends cut off, not as a complete image.
    res.resume();
    await closed(res);
    expect(res.complete).toBe(false);
  });

  it('cuts the connection when xorriso fails, so the client never holds a truncated image as complete, and revokes the token', async () => {
    const c = await start({ imagesDir: join(dir, 'broken') });
    const admin = await adminOf(c, 'Acme Refurb');
    // xorriso fails before its first byte, so the connection closes before any response.
    await expect(startDownload(admin)).rejects.toThrow(/socket hang up/);
    // The one token minted for it is revoked.
    await expect.poll(async () => (await c.db.many<{ status: string }>('SELECT status FROM license_tokens')).map((t) => t.status)).toEqual(['revoked']);
  });

  it('refuses a base image that is not ISO 9660 with a clear message, minting nothing', async () => {
    const c = await start({ imagesDir: join(dir, 'zeros') });
    const admin = await adminOf(c, 'Acme Refurb');
    const listed = (await admin.get('/app/api/downloads')).json.images;
    expect(listed).toEqual([expect.objectContaining({ name: 'erasure-zeros-amd64.iso', problem: expect.stringMatching(/^is not an ISO 9660 image/) })]);
    const res = await admin.send('POST', '/app/api/downloads/image', { product: 'engine', image: 'erasure-zeros-amd64.iso' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'erasure-zeros-amd64.iso is not an ISO 9660 image (no CD001 primary volume descriptor at sector 16), so it cannot be offered. Replace it with an image built by npm run iso.',
    );
    expect(await tokenCount()).toBe(0);
  });
});
