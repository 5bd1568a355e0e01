import { mkdtempSync, rmSync, statSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalizeIso, streamPersonalizedIso } from '../src/personalize.js';
import { PersonalizationError } from '../src/personalization.js';
import { bootPlatforms, buildTinyIso, readIsoFile, systemArea, tinyIsoSkipReason } from './tiny-iso.js';

const skip = tinyIsoSkipReason();
if (skip) console.warn(`[iso-build] personalize tests skipped: ${skip}`);

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJqdGkiOiJ0ZXN0In0.c2lnbmF0dXJl';

describe.skipIf(Boolean(skip))('erasure-iso personalize: the token and gateway added to a built image', () => {
  let dir: string;
  let base: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'personalize-'));
    base = buildTinyIso(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the device token, the gateway URL and the boot options onto the medium', async () => {
    const out = join(dir, 'out.iso');
    await personalizeIso(base, out, { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net', bootArgs: 'erasure.mode=headless erasure.after=poweroff' });
    expect(readIsoFile(out, '/erasure/device-token')).toBe(`${TOKEN}\n`);
    expect(readIsoFile(out, '/erasure/gateway-url')).toBe('https://gw.example.net\n');
    expect(readIsoFile(out, '/erasure/boot.cfg')).toBe('set erasure_args="erasure.mode=headless erasure.after=poweroff"\n');
    expect(readIsoFile(out, '/erasure/image.json')).toBe('{"version":"test"}\n');
  });

  it('keeps the boot setup: BIOS and UEFI El Torito entries, the MBR and the GPT', async () => {
    const out = join(dir, 'boot.iso');
    await personalizeIso(base, out, { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' });
    expect(bootPlatforms(out)).toEqual(bootPlatforms(base));
    expect(bootPlatforms(out)).toEqual(['BIOS', 'UEFI']);
    expect(systemArea(out)).toMatch(/MBR .*grub2-mbr/);
    expect(systemArea(out)).toMatch(/GPT partition path\s*:\s*\d+\s+\/efi\.img/);
  });

  it('streams the personalized image without writing it anywhere first', async () => {
    const out = join(dir, 'streamed.iso');
    const { stream, done } = streamPersonalizedIso(base, { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' });
    await pipeline(stream, createWriteStream(out));
    await done;
    expect(statSync(out).size).toBeGreaterThan(statSync(base).size - 1024 * 1024);
    expect(readIsoFile(out, '/erasure/device-token')).toBe(`${TOKEN}\n`);
    expect(bootPlatforms(out)).toEqual(['BIOS', 'UEFI']);
  });

  it('refuses a token that is not a compact JWS, and a gateway that is not http(s)', async () => {
    await expect(personalizeIso(base, join(dir, 'x.iso'), { deviceToken: 'not a token', gatewayUrl: 'https://gw.example.net' })).rejects.toBeInstanceOf(PersonalizationError);
    await expect(personalizeIso(base, join(dir, 'x.iso'), { deviceToken: TOKEN, gatewayUrl: 'file:///etc/passwd' })).rejects.toThrow(/must be http\(s\)/);
  });

  it('refuses boot options that could break out of the GRUB string', async () => {
    await expect(personalizeIso(base, join(dir, 'x.iso'), { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net', bootArgs: 'a"; reboot; echo "' })).rejects.toThrow(/boot options/);
  });
});
