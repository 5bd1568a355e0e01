import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { devicePublicKey, generateDeviceKeyPair, verifyDeviceToken } from '@erasure/shared';
import { bootImagesIn } from '../../src/adapters/boot-images.js';
import { dataPartitionOf } from '../../../iso-build/src/data-partition.js';
import { bootPlatforms, buildTinyIso, filesystemAt, readIsoFile, tinyIsoSkipReason } from '../../../iso-build/test/tiny-iso.js';
import { startCloud, type Cloud } from '../helpers.js';
import { addUser, signIn, type Browser } from '../web-helpers.js';

const skip = tinyIsoSkipReason();
if (skip) console.warn(`[cloud] image download tests skipped: ${skip}`);

describe.skipIf(Boolean(skip))('/downloads: a base image personalized with a fresh token as it streams', () => {
  const keys = generateDeviceKeyPair();
  let dir: string;
  let cloud: Cloud | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'downloads-'));
    mkdirSync(join(dir, 'images'));
    buildTinyIso(join(dir, 'images'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => cloud?.close());

  async function as(role: 'admin' | 'technician', deps: { gatewayUrl?: string; imagesDir?: string } = {}): Promise<{ cloud: Cloud; who: Browser; accountId: number; publicId: string }> {
    cloud = await startCloud({ deps: { deviceTokenPrivateKey: keys.privateKey, images: bootImagesIn(deps.imagesDir ?? join(dir, 'images')), gatewayUrl: 'gatewayUrl' in deps ? deps.gatewayUrl : 'https://gw.acme.test' } });
    const account = await cloud.account('Acme Refurb');
    await addUser(cloud, account.id, role, `${role}@acme.test`);
    return { cloud, who: await signIn(cloud, `${role}@acme.test`), accountId: account.id, publicId: account.publicId };
  }

  const download = (c: Cloud, who: Browser, form: string) =>
    c.app.inject({ method: 'POST', url: '/app/api/downloads/image', headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `${form}&_csrf=${who.csrf}` });

  it('lists the installed base image with its size', async () => {
    const { who } = await as('admin');
    const page = (await who.get('/app/api/downloads')).json;
    expect(page).toMatchObject({ minting_available: true, gateway_configured: true, images: [{ name: 'erasure-test-amd64.iso', size_bytes: expect.any(Number) }] });
  });

  it('says how to build and install an image when none is installed', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-images-'));
    const { who } = await as('admin', { imagesDir: empty });
    const page = (await who.get('/app/api/downloads')).json;
    expect(page.images).toEqual([]);
    // The exact folder of this server, not a placeholder.
    expect(page.images_dir).toBe(empty);
    expect(page.install_help).toBe(`Build the image with npm run iso (it writes iso-build/out/erasure-<version>-amd64.iso), then copy that file into ${empty} on this server.`);
    rmSync(empty, { recursive: true, force: true });
  });

  it('streams an image that carries a freshly minted token for the admin and the gateway URL, and still boots BIOS and UEFI', async () => {
    const { cloud: c, who, publicId } = await as('admin');
    const res = await download(c, who, 'product=engine&image=erasure-test-amd64.iso');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="erasure-test-amd64-engine-.+\.iso"$/);
    const iso = join(dir, 'downloaded.iso');
    writeFileSync(iso, res.rawPayload);
    const token = readIsoFile(iso, '/erasure/device-token')?.trim() ?? '';
    const check = await verifyDeviceToken(devicePublicKey(keys.publicKey), token, c.clock.now());
    expect(check).toMatchObject({ ok: true, sub: publicId, jti: res.headers['x-token-jti'] });
    expect(await c.db.one('SELECT user_email, product, status FROM license_tokens WHERE jti = @jti', { jti: res.headers['x-token-jti'] })).toEqual({ user_email: 'admin@acme.test', product: 'engine', status: 'active' });
    expect(readIsoFile(iso, '/erasure/gateway-url')).toBe('https://gw.acme.test\n');
    expect(bootPlatforms(iso)).toEqual(['BIOS', 'UEFI']);
  });

  it('gives the downloaded image an empty ERASURE-DATA partition, so results kept on a stick written from it survive a power cut', async () => {
    const { cloud: c, who } = await as('admin');
    const res = await download(c, who, 'product=engine&image=erasure-test-amd64.iso');
    const iso = join(dir, 'downloaded-data.iso');
    writeFileSync(iso, res.rawPayload);
    const part = dataPartitionOf(iso);
    expect(part).toBeDefined();
    const fs = filesystemAt(iso, part!.offset, part!.bytes);
    expect([fs.probe['LABEL'], fs.probe['TYPE'], fs.rootNames]).toEqual(['ERASURE-DATA', 'ext4', ['lost+found']]);
  });

  it('keeps nothing per download: the images folder holds only the base image afterwards', async () => {
    const { cloud: c, who } = await as('admin');
    await download(c, who, 'product=hotswap');
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(dir, 'images'))).toEqual(['erasure-test-amd64.iso']);
  });

  it('is for account admins: a technician gets 403 and no token is minted', async () => {
    const { cloud: c, who } = await as('technician');
    const res = await download(c, who, 'product=engine');
    expect(res.statusCode).toBe(403);
    expect((await c.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM license_tokens'))!.n).toBe(0);
  });

  it('answers 503 without PUBLIC_GATEWAY_URL and mints nothing', async () => {
    const { cloud: c, who } = await as('admin', { gatewayUrl: undefined });
    const res = await download(c, who, 'product=engine');
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/PUBLIC_GATEWAY_URL/);
    expect((await c.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM license_tokens'))!.n).toBe(0);
  });

  it('answers 404 for a name that is not an installed image, such as a path out of the folder', async () => {
    const { cloud: c, who } = await as('admin');
    for (const name of ['../cloud.sqlite', 'nope.iso', '/etc/passwd']) {
      const res = await download(c, who, `product=engine&image=${encodeURIComponent(name)}`);
      expect(res.statusCode).toBe(404);
    }
    expect((await c.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM license_tokens'))!.n).toBe(0);
  });
});
