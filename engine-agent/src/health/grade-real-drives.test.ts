import { gradeHealth, type SmartHealth } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { parseSmartHealthText } from './smart-health.js';

function smart(name: string): SmartHealth {
  const r = parseSmartHealthText(fixtureText('smartctl', name));
  if (!r.ok) throw new Error(`${name}: ${r.reason}`);
  return r.value;
}

/** The grade of a drive whose SMART read the same before and after a clean erase. */
const gradeOf = (name: string) => {
  const s = smart(name);
  return gradeHealth({ before: s, after: s });
};

describe.skipIf(!fixturesPresent)(`the health grade of real drives (SMART from ${FIXTURES_SKIP_NOTE})`, () => {
  it('reads ATA reallocated, pending and uncorrectable sectors, CRC errors and power-on hours', () => {
    expect(smart('hgst-hus726060ala640-sata-hdd-smartctl.json')).toMatchObject({ protocol: 'ATA', passed: true, reallocatedSectors: 1040, pendingSectors: 878, offlineUncorrectable: 1272, crcErrors: 0, powerOnHours: 43177 });
    expect(smart('samsung-840-sata-ssd-smartctl-x-worn.json')).toMatchObject({ crcErrors: 108, powerOnHours: 19497, percentageUsed: 2 });
  });

  it('reads NVMe percentage used, media errors and critical warning, and SAS grown defects', () => {
    expect(smart('samsung-970evo-nvme-smartctl-x.json')).toMatchObject({ protocol: 'NVMe', percentageUsed: 3, mediaErrors: 7, criticalWarning: 0, powerOnHours: 12798 });
    expect(smart('seagate-st1200mm0088-sas-hdd-smartctl6.7-ja.json')).toMatchObject({ protocol: 'SCSI', grownDefects: 0, uncorrectedErrors: 0, powerOnHours: 5675 });
  });

  it('a drive that fails its own SMART check with reallocated and pending sectors is F: do not resell', () => {
    const v = gradeOf('hitachi-hds721050dle630-usb-jmicron-failing-smartctl-a.json');
    expect(v.grade).toBe('F');
    expect(v.reasons.map((r) => r.text)).toEqual(expect.arrayContaining(['the drive fails its own SMART health check (rule: SMART health check failed gives F)', '8 sector(s) the drive could not read are waiting to be replaced (rule: pending sectors (ATA 197) ≥ 1 gives F)', '1975 worn-out sector(s) have been replaced by spares (rule: reallocated sectors (ATA 5) ≥ 100 gives F)']));
  });

  it('a drive that passes its own SMART check but has a thousand bad sectors is still F', () => {
    const v = gradeOf('hgst-hus726060ala640-sata-hdd-smartctl.json');
    expect(v.grade).toBe('F');
    expect(v.reasons[0]?.grade).toBe('F');
  });

  it('the worn Samsung 840 (19,497 hours, 108 cable errors) is B: used, good, with both reasons', () => {
    const v = gradeOf('samsung-840-sata-ssd-smartctl-x-worn.json');
    expect(v).toMatchObject({ grade: 'B', label: 'used, good' });
    expect(v.reasons.map((r) => r.metric)).toEqual(['power_on_hours', 'crc_errors']);
  });

  it('an NVMe drive with media errors is C: worn; an HDD past 40,000 hours is C', () => {
    expect(gradeOf('samsung-970evo-nvme-smartctl-x.json').grade).toBe('C');
    expect(gradeOf('hgst-hms5c4040ble640-sata-hdd-smartctl.json').grade).toBe('C');
  });

  it('healthy young drives of every protocol are A: like new, with no reasons', () => {
    for (const name of ['wdc-wd140edfz-sata-hdd-smartctl-a.json', 'micron-9300-mtfdhal3t8tdp-nvme-smartctl-a.json', 'sabrent-rocket4-nvme-smartctl-a.json', 'seagate-st1200mm0088-sas-hdd-smartctl6.7-ja.json']) {
      expect(gradeOf(name), name).toEqual({ grade: 'A', label: 'like new', reasons: [] });
    }
  });

  it('errors that grew while the drive was erased make it F, naming the counters', () => {
    const before = smart('wdc-wd140edfz-sata-hdd-smartctl-a.json');
    const v = gradeHealth({ before, after: { ...before, reallocatedSectors: 3 } });
    expect(v.grade).toBe('F');
    expect(v.reasons.find((r) => r.metric === 'errors_rose_during_erase')?.text).toBe('errors grew while it was being erased (reallocated sectors 0 → 3) (rule: error counter rose during the erase gives F)');
  });

  it('a device smartctl could not open is no drive facts at all', () => {
    expect(parseSmartHealthText(fixtureText('smartctl', 'windows-smartctl-open-failed.json')).ok).toBe(false);
  });
});
