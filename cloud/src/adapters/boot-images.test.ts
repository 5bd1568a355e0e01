import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootImagesIn, isIso9660Descriptor, NOT_ISO_9660 } from './boot-images.js';

describe('boot images: only ISO 9660 files are base images', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'boot-images-'));
    dirs.push(dir);
    return dir;
  };
  /** A file with `descriptor` at sector 16, as an ISO 9660 image has its primary volume descriptor. */
  const withDescriptor = (descriptor: Buffer) => Buffer.concat([Buffer.alloc(32768), descriptor, Buffer.alloc(2048 - descriptor.length)]);

  it('recognises the primary volume descriptor: type 1, CD001, version 1', () => {
    expect(isIso9660Descriptor(Buffer.from('\x01CD001\x01', 'latin1'))).toBe(true);
    expect(isIso9660Descriptor(Buffer.alloc(7))).toBe(false);
    expect(isIso9660Descriptor(Buffer.from('\x00CD001\x01', 'latin1'))).toBe(false);
    expect(isIso9660Descriptor(Buffer.from('\x01CD001', 'latin1'))).toBe(false);
  });

  it('lists a file of zeros with the reason it is refused, and does not personalize it', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'zeros.iso'), Buffer.alloc(64 * 1024));
    const sut = bootImagesIn(dir);
    expect(sut.list()).toEqual([expect.objectContaining({ name: 'zeros.iso', problem: NOT_ISO_9660 })]);
    expect(await sut.personalize('zeros.iso', { deviceToken: 'a.b.c', gatewayUrl: 'https://gw.example' })).toBeUndefined();
  });

  it('refuses a file too short to hold sector 16', () => {
    const dir = folder();
    writeFileSync(join(dir, 'short.iso'), Buffer.from('\x01CD001\x01', 'latin1'));
    expect(bootImagesIn(dir).list()[0]?.problem).toBe(NOT_ISO_9660);
  });

  it('accepts a file whose sector 16 holds the descriptor', () => {
    const dir = folder();
    writeFileSync(join(dir, 'ok.iso'), withDescriptor(Buffer.from('\x01CD001\x01', 'latin1')));
    expect(bootImagesIn(dir).list()[0]?.problem).toBeNull();
  });
});
