import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMmcCard, isMmcSubArea, parseMmcExtcsd } from './mmc-card.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'mmc', name), 'utf8');

describe('mmc extcsd read, parsed (issue 30 item 4)', () => {
  it("reads a real eMMC 5.1's revision, SEC_FEATURE_SUPPORT bits, sector count and erased content", () => {
    expect(parseMmcExtcsd(fixture('extcsd-emmc51-sanitize.txt'))).toEqual({
      ok: true,
      value: { revision: '1.8 (MMC 5.1)', secFeatureSupport: 0x55, sanitize: true, secureErase: true, trim: true, sectors: 0x1d200000, erasedContent: 0 },
    });
  });

  it('tells the bits apart: no sanitize (0x15), none at all (0x00)', () => {
    expect(parseMmcExtcsd(fixture('extcsd-emmc51-no-sanitize.DERIVED.txt'))).toMatchObject({ ok: true, value: { sanitize: false, secureErase: true, trim: true } });
    expect(parseMmcExtcsd(fixture('extcsd-emmc51-no-secure-features.DERIVED.txt'))).toMatchObject({ ok: true, value: { sanitize: false, secureErase: false, trim: false } });
  });

  it('refuses output that is no EXT_CSD printout (a failed read)', () => {
    expect(parseMmcExtcsd(fixture('mmc-extcsd-read-failed.DERIVED.stderr.txt'))).toEqual({ ok: false, reason: 'no "Extended CSD rev" header: not an EXT_CSD printout' });
  });
});

describe('which mmcblk names are drives', () => {
  it('the card is; its boot partitions, RPMB and general purpose areas are not, nor its partitions', () => {
    expect(['mmcblk0', '/dev/mmcblk1', 'mmcblk0boot0', 'mmcblk0boot1', 'mmcblk0rpmb', 'mmcblk0p1'].map(isMmcCard)).toEqual([true, true, false, false, false, false]);
    expect(['mmcblk0boot0', 'mmcblk0boot1', 'mmcblk0rpmb', 'mmcblk0gp1', 'mmcblk0', 'mmcblk0p1'].map(isMmcSubArea)).toEqual([true, true, true, true, false, false]);
  });
});
