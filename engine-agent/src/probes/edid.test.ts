import { describe, expect, it } from 'vitest';
import { fixtureBytes, fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { parseEdid, parseEdidDecodeText } from './edid.js';
import type { ParseResult } from './parse-result.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe('parseEdid', () => {
  it('rejects short, headerless and corrupted blocks', () => {
    expect(parseEdid(new Uint8Array(10)).ok).toBe(false);
    expect(parseEdid(new Uint8Array(128)).ok).toBe(false);
  });
});

describe.skipIf(!fixturesPresent)(`EDID parsers over ${FIXTURES_SKIP_NOTE}`, () => {
  it('reads a monitor serial descriptor and name', () => {
    expect(ok(parseEdid(fixtureBytes('edid', 'dell-u2721de-monitor-2blocks.bin')))).toMatchObject({
      manufacturerId: 'DEL',
      productCode: 16862,
      serialNumber: 1094080599,
      serialText: '8D92R83',
      name: 'DELL U2721DE',
      year: 2021,
      week: 12,
      extensionBlocks: 1,
      digital: true,
    });
  });

  it('reads a laptop panel part number from the alphanumeric descriptors', () => {
    expect(ok(parseEdid(fixtureBytes('edid', 'lgdisplay-lgd0555-laptop-panel-1block.bin')))).toMatchObject({
      manufacturerId: 'LGD',
      productCode: 1365,
      texts: ['LGD_MP1.0_', 'LP125WX112403'],
      version: '1.4',
      extensionBlocks: 0,
    });
  });

  it('treats the iDRAC all-zero serial descriptors as missing', () => {
    const sut = ok(parseEdid(fixtureBytes('edid', 'dell-idrac-virtual-display.bin')));
    expect(sut).toMatchObject({ manufacturerId: 'DEL', name: 'DELL IDRAC', productCode: 1 });
    expect(sut.serialText).toBeUndefined();
  });

  it('decodes the edid-decode text to the same identity as the binary, with its conformity verdict', () => {
    const text = ok(parseEdidDecodeText(fixtureText('edid', 'dell-alienware-aw3423dwf-3blocks.edid-decode.txt')));
    expect(text.edid).toEqual(ok(parseEdid(fixtureBytes('edid', 'dell-alienware-aw3423dwf-3blocks.bin'))));
    expect(text.edid).toMatchObject({ serialText: '7Y6C2S3', name: 'AW3423DWF' });
    expect(ok(parseEdidDecodeText(fixtureText('edid', 'samsung-smb2240w-4blocks-conformity-fail.edid-decode.txt'))).conformity).toBe(
      'FAIL',
    );
  });
});
