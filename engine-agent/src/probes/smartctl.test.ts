import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { parseSmartctlJsonText, parseSmartctlScan } from './smartctl-json.js';
import { parseSmartctlText } from './smartctl-text.js';
import { parseAtaSecuritySummary, wearFromAttributes } from './smart-report.js';
import type { SmartReport } from './smart-report.js';

const json = (name: string): SmartReport => {
  const r = parseSmartctlJsonText(fixtureText('smartctl', name));
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const text = (name: string): SmartReport => {
  const r = parseSmartctlText(fixtureText('smartctl', name));
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe('smart report helpers', () => {
  it.each([
    ['Disabled, NOT FROZEN [SEC1]', { enabled: false, frozen: false }],
    ['Disabled, frozen [SEC2]', { enabled: false, frozen: true }],
    ['Enabled, locked [SEC4]', { enabled: true, frozen: false, locked: true }],
  ])('reads ATA security %s', (raw, expected) => expect(parseAtaSecuritySummary(raw)).toEqual(expected));

  it('turns a life-remaining normalised value into percentage used and ignores unknown attributes', () => {
    expect(wearFromAttributes([{ id: 177, name: 'Wear_Leveling_Count', value: 98, raw: 14 }])).toBe(2);
    expect(wearFromAttributes([{ id: 230, name: 'Perc_Write/Erase_Count', value: 100, raw: 10 }])).toBeUndefined();
  });
});

describe.skipIf(!fixturesPresent)(`smartctl parsers over ${FIXTURES_SKIP_NOTE}`, () => {
  it('reads an NVMe drive with its health log', () => {
    expect(json('sabrent-rocket4-nvme-smartctl-a.json')).toMatchObject({
      protocol: 'NVMe',
      model: 'Sabrent Rocket 4.0 1TB',
      serial: '6D1107091C9583054511',
      firmware: 'RKT401.3',
      capacityBytes: 1000204886016,
      mediaType: 'ssd',
      transport: 'NVMe',
      healthPassed: true,
      powerOnHours: 8733,
      temperatureC: 48,
      percentageUsed: 4,
      mediaErrors: 0,
      viaUsbBridge: false,
    });
  });

  it('reads a SATA HDD with reallocated and pending sectors', () => {
    expect(json('hgst-hus726060ala640-sata-hdd-smartctl.json')).toMatchObject({
      protocol: 'ATA',
      model: 'HGST HUS726060ALA640',
      serial: 'AR01234567890C',
      rotationRpm: 7200,
      mediaType: 'hdd',
      transport: 'SATA 3.1',
      logicalSectorSize: 512,
      physicalSectorSize: 512,
      reallocatedSectors: 1040,
      pendingSectors: 878,
      temperatureC: 29,
      powerOnHours: 43177,
    });
  });

  it('prefers the device-statistics endurance indicator and reads ATA security', () => {
    expect(json('samsung-860evo-sata-ssd-smartctl-x.json')).toMatchObject({
      percentageUsed: 19,
      ataSecurity: { enabled: false, frozen: false },
    });
    expect(json('samsung-840-sata-ssd-smartctl-x-worn.json')).toMatchObject({
      percentageUsed: 2,
      ataSecurity: { enabled: false, frozen: true },
    });
  });

  it('flags the JMicron USB bridge and the failed health check', () => {
    expect(json('hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json')).toMatchObject({
      deviceType: 'usbjmicron',
      viaUsbBridge: true,
      healthPassed: false,
      reallocatedSectors: 1975,
      exitStatus: 216,
    });
  });

  it('flags a disk behind MegaRAID and keeps SCSI fields', () => {
    expect(json('wdc-wd4000fyyx-megaraid-sat-smartctl-a.json')).toMatchObject({ viaRaidController: true, protocol: 'ATA' });
    expect(json('hgst-husmr3280ass200-sas-ssd-smartctl.json')).toMatchObject({
      protocol: 'SCSI',
      model: 'HGST HUSMR3280ASS200',
      vendor: 'HGST',
      firmware: 'J172',
      mediaType: 'ssd',
      percentageUsed: 0,
      transport: 'SAS',
      powerOnHours: 4596,
    });
  });

  it('reads pre-7.0 SCSI JSON', () => {
    expect(json('seagate-st1200mm0088-sas-hdd-smartctl6.7-ja.json')).toMatchObject({
      model: 'SEAGATE ST1200MM0088',
      vendor: 'SEAGATE',
      firmware: 'N004',
      rotationRpm: 10500,
      serial: 'Z4028VRY0000C810BZXB',
    });
  });

  it('reports an open failure as unparsable with smartctl\'s message', () => {
    const r = parseSmartctlJsonText(fixtureText('smartctl', 'windows-smartctl-open-failed.json'));
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/Open failed, Error=5/);
  });

  it('lists scanned devices', () => {
    const r = parseSmartctlScan(JSON.parse(fixtureText('smartctl', 'scan-supermicro-x11dph-t-14-sata-2-nvme-smartctl-scan-j.json')));
    expect(r.ok && r.value.filter((d) => d.protocol === 'NVMe').length).toBe(2);
    expect(r.ok && r.value[0]).toEqual({ name: '/dev/sda', infoName: '/dev/sda', type: 'scsi', protocol: 'SCSI' });
  });

  it('reads text output with locale digit grouping', () => {
    expect(text('samsung-mzilt7t6hala-sas-ssd-smartctl-x-locale-spaces.txt')).toMatchObject({
      protocol: 'SCSI',
      vendor: 'SAMSUNG',
      model: 'MZILT7T6HALA/007',
      serial: 'S5DDNE0R801692',
      capacityBytes: 7681501126656,
      logicalSectorSize: 512,
      physicalSectorSize: 4096,
      mediaType: 'ssd',
      transport: 'SAS',
      healthPassed: true,
      percentageUsed: 0,
      temperatureC: 25,
      reallocatedSectors: 0,
    });
  });

  it('reads frozen ATA security and the attribute table from text', () => {
    expect(text('teamgroup-t253x2512g-sata-ssd-smartctl-x-frozen.txt')).toMatchObject({
      protocol: 'ATA',
      model: 'TEAM T253X2512G',
      capacityBytes: 512110190592,
      ataSecurity: { enabled: false, frozen: true },
      powerOnHours: 3929,
      temperatureC: 33,
      transport: 'SATA 3.2',
    });
  });

  it('flags a bridge that rewrites the identity and reads NVMe text health', () => {
    expect(text('asmedia-asmt109x-bridge-masking-wd-m2-ssd-smartctl-x.txt')).toMatchObject({
      model: 'ASMT109x- Fast',
      viaUsbBridge: true,
      rotationRpm: 7200,
    });
    expect(text('teamgroup-tforce-tm8fpl500g-nvme-smartctl-x.txt')).toMatchObject({
      protocol: 'NVMe',
      capacityBytes: 500107862016,
      percentageUsed: 6,
      powerOnHours: 4085,
      temperatureC: 44,
      mediaErrors: 0,
    });
  });
});
