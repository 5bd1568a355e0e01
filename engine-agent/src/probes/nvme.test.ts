import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { decodeFna, decodeSanicap, parseNvmeIdCtrlJson, parseNvmeIdCtrlText, parseNvmeIdNsJson, parseNvmeIdNsText } from './nvme-id.js';
import { parseNvmeList } from './nvme-list.js';
import { parseNvmeOcpSmartLog, parseNvmeSmartLog, parseNvmeVendorLog } from './nvme-logs.js';
import type { ParseResult } from './parse-result.js';

const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const jsonFixture = (name: string): unknown => JSON.parse(fixtureText('nvme', name));

describe('NVMe bit decoders', () => {
  it('decodes SANICAP crypto, block, overwrite and NDI bits', () => {
    expect(decodeSanicap(0x60000003)).toEqual({ crypto: true, block: true, overwrite: false, noDeallocInhibited: true });
    expect(decodeSanicap(0xa0000002)).toEqual({ crypto: false, block: true, overwrite: false, noDeallocInhibited: true });
    expect(decodeSanicap(0x4)).toMatchObject({ overwrite: true, crypto: false });
  });

  it('decodes FNA scope and crypto erase bits', () => {
    expect(decodeFna(0x7)).toEqual({ formatAllNamespaces: true, eraseAllNamespaces: true, cryptoEraseSupported: true });
    expect(decodeFna(0x4)).toEqual({ formatAllNamespaces: false, eraseAllNamespaces: false, cryptoEraseSupported: true });
  });

  it('reads LBA formats from id-ns JSON', () => {
    const sut = ok(parseNvmeIdNsJson({ nsze: 10, flbas: 1, lbafs: [{ ms: 0, ds: 9, rp: 2 }, { ms: 0, ds: 12, rp: 0 }] }));
    expect(sut.logicalBlockSize).toBe(4096);
    expect(sut.lbaFormats.map((f) => f.dataSize)).toEqual([512, 4096]);
  });
});

describe.skipIf(!fixturesPresent)(`nvme-cli parsers over ${FIXTURES_SKIP_NOTE}`, () => {
  it('reads block-erase-only SANICAP and no format crypto erase from id-ctrl -H', () => {
    expect(ok(parseNvmeIdCtrlText(fixtureText('nvme', 'teamgroup-tforce-tm8fpl500g-nvme-id-ctrl-H.txt')))).toMatchObject({
      serial: 'TPBF2210060060400308',
      model: 'T-FORCE TM8FPL500G',
      firmware: 'EJFM90.1',
      oacs: 0x17,
      formatSupported: true,
      sanicap: 0xa0000002,
      sanitize: { crypto: false, block: true, overwrite: false },
      fna: 0,
      format: { cryptoEraseSupported: false },
      totalCapacityBytes: 500107862016,
      namespaceCount: 1,
    });
  });

  it('trims the leading-space serial and leaves SANICAP undefined when an old nvme-cli omits it', () => {
    const sut = ok(parseNvmeIdCtrlText(fixtureText('nvme', 'micron-mtfdhba256tck-nvme-id-ctrl-H.txt')));
    expect(sut.serial).toBe('1921220DDF47');
    expect(sut.sanitize).toBeUndefined();
    expect(sut.format).toEqual({ formatAllNamespaces: true, eraseAllNamespaces: true, cryptoEraseSupported: true });
  });

  it('reads id-ctrl JSON with crypto and block sanitize', () => {
    expect(ok(parseNvmeIdCtrlJson(jsonFixture('wdc-pc-sn730-nvme-id-ctrl-nvmecli1x.json')))).toMatchObject({
      serial: '1951B3444502',
      model: 'WDC PC SN730 SDBQNTY-256G-1001',
      sanitize: { crypto: true, block: true, overwrite: false },
      format: { cryptoEraseSupported: true },
    });
    expect(ok(parseNvmeIdCtrlJson(jsonFixture('samsung-980pro-1tb-nvme-id-ctrl-json-sorted.json')))).toMatchObject({
      model: 'Samsung SSD 980 PRO 1TB',
      sanitize: { crypto: false, block: false, overwrite: false },
      format: { cryptoEraseSupported: true },
    });
  });

  it('reads the LBA format in use from id-ns -H', () => {
    const sut = ok(parseNvmeIdNsText(fixtureText('nvme', 'teamgroup-tforce-tm8fpl500g-nvme-id-ns-H.txt')));
    expect(sut).toMatchObject({ sizeBlocks: 0x3a386030, logicalBlockSize: 512, nvmCapacityBytes: 500107862016, eui64: '6479a76d8ad002ed' });
    expect(sut.nguid).toBeUndefined();
    expect(sut.lbaFormats).toHaveLength(2);
  });

  it('reads nvme list in the 1.x, 2.3 and 2.11 layouts and the empty list', () => {
    expect(ok(parseNvmeList(jsonFixture('intel-p3600-ssdpedme016t4f-nvme-list-json.json')))).toEqual([
      {
        devicePath: '/dev/nvme0n1',
        serial: 'CVMD7426005S1P6SGN',
        model: 'INTEL SSDPEDME016T4F',
        firmware: '8DV1FF05',
        usedBytes: 1600321314816,
        physicalSizeBytes: 1600321314816,
        sectorSize: 4096,
      },
    ]);
    const v211 = ok(parseNvmeList(jsonFixture('seagate-firecuda530-x2-nvme-list-v2.11.json')));
    expect(v211.map((e) => [e.devicePath, e.controller, e.serial, e.transport])).toEqual([
      ['/dev/nvme0n1', 'nvme0', 'XXX02YYY', 'pcie'],
      ['/dev/nvme1n1', 'nvme1', 'XXX00YYY', 'pcie'],
      ['/dev/nvme2n1', 'nvme2', '7VS00KNX', 'pcie'],
    ]);
    expect(ok(parseNvmeList(jsonFixture('seagate-firecuda530-x2-nvme-list-v2.3.json')))).toHaveLength(2);
    expect(ok(parseNvmeList(jsonFixture('nvme-list-empty.json')))).toEqual([]);
    const micron = ok(parseNvmeList(jsonFixture('micron-mtfdhba512tck-leading-space-serial-plus-2x-samsung-pm9a3-nvme-list-json.json')));
    expect(micron[0]?.serial).toBe('21062E6B8061');
  });

  it('normalises smart-log JSON across nvme-cli versions', () => {
    expect(ok(parseNvmeSmartLog(jsonFixture('seagate-firecuda530-nvme-smart-log-v2.11.json')))).toMatchObject({
      criticalWarning: 0,
      temperatureC: 51,
      percentageUsed: 30,
      powerOnHours: 24424,
      mediaErrors: 0,
    });
    expect(ok(parseNvmeSmartLog(jsonFixture('nvme-smart-log-json-nvmecli1x-critical-warrning-key.json')))).toMatchObject({
      criticalWarning: 0,
      temperatureC: 33,
      powerOnHours: 1244,
    });
  });

  it('reads 128-bit OCP counters and vendor plugin text', () => {
    expect(ok(parseNvmeOcpSmartLog(jsonFixture('nvme-ocp-smart-add-log-json.json')))).toMatchObject({
      physicalMediaUnitsWritten: 39074645999616n,
      systemDataPercentUsed: 0,
    });
    const intel = ok(parseNvmeVendorLog(fixtureText('nvme', 'intel-p3600-nvme-intel-smart-log-add.txt')));
    expect(intel.find((e) => e.key === 'wear_leveling')).toMatchObject({ normalizedPct: 70 });
    const samsung = ok(parseNvmeVendorLog(fixtureText('nvme', 'samsung-pm983-nvme-samsung-vs-smart-add-log.txt')));
    expect(samsung.find((e) => e.key === 'PhysicallyWrittenBytes')?.value).toBe(5357954930143232);
  });
});
