import { mkdtempSync, rmSync, statSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalizeIso, streamPersonalizedIso } from '../src/personalize.js';
import { PersonalizationError } from '../src/personalization.js';
import { DATA_PARTITION_MIB, dataPartitionOf } from '../src/data-partition.js';
import { bootPlatforms, buildTinyIso, filesystemAt, readIsoFile, systemArea, tinyIsoSkipReason } from './tiny-iso.js';

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
    const { stream, done } = await streamPersonalizedIso(base, { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' });
    await pipeline(stream, createWriteStream(out));
    await done;
    expect(statSync(out).size).toBeGreaterThan(statSync(base).size - 1024 * 1024);
    expect(readIsoFile(out, '/erasure/device-token')).toBe(`${TOKEN}\n`);
    expect(bootPlatforms(out)).toEqual(['BIOS', 'UEFI']);
    expect(dataPartitionOf(out)?.bytes).toBe(DATA_PARTITION_MIB * 1024 * 1024);
  });

  it('adds an empty ERASURE-DATA partition after the ISO part, bound to no machine, so results on a stick written with dd survive a power cut', async () => {
    const out = join(dir, 'data.iso');
    await personalizeIso(base, out, { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' });
    const part = dataPartitionOf(out);
    expect(part?.bytes).toBe(DATA_PARTITION_MIB * 1024 * 1024);
    // After the ISO 9660 filesystem, whose volume descriptors start at 32 KiB.
    expect(part!.offset).toBeGreaterThan(32 * 1024);
    expect(part!.offset + part!.bytes).toBeLessThanOrEqual(statSync(out).size);
    const fs = filesystemAt(out, part!.offset, part!.bytes);
    expect({ label: fs.probe['LABEL'], type: fs.probe['TYPE'] }).toEqual({ label: 'ERASURE-DATA', type: 'ext4' });
    expect(fs.rootNames).toEqual(['lost+found']);
  });

  it('gives a personalized copy of a personalized image exactly one data partition, freshly made', async () => {
    const once = join(dir, 'once.iso');
    const twice = join(dir, 'twice.iso');
    await personalizeIso(base, once, { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net' });
    await personalizeIso(once, twice, { deviceToken: TOKEN, gatewayUrl: 'https://gw2.example.net' });
    expect(systemArea(twice).match(/^GPT partname local :\s+\d+\s+Appended/gm)).toHaveLength(1);
    const a = dataPartitionOf(once)!;
    const b = dataPartitionOf(twice)!;
    // A new filesystem UUID per image: two sticks are never taken for one volume.
    expect(filesystemAt(twice, b.offset, b.bytes).probe['UUID']).not.toBe(filesystemAt(once, a.offset, a.bytes).probe['UUID']);
    expect(bootPlatforms(twice)).toEqual(['BIOS', 'UEFI']);
  });

  it('refuses a token that is not a compact JWS, and a gateway that is not http(s)', async () => {
    await expect(personalizeIso(base, join(dir, 'x.iso'), { deviceToken: 'not a token', gatewayUrl: 'https://gw.example.net' })).rejects.toBeInstanceOf(PersonalizationError);
    await expect(personalizeIso(base, join(dir, 'x.iso'), { deviceToken: TOKEN, gatewayUrl: 'file:///etc/passwd' })).rejects.toThrow(/must be http\(s\)/);
  });

  it('refuses boot options that could break out of the GRUB string', async () => {
    await expect(personalizeIso(base, join(dir, 'x.iso'), { deviceToken: TOKEN, gatewayUrl: 'https://gw.example.net', bootArgs: 'a"; reboot; echo "' })).rejects.toThrow(/boot options/);
  });
});
