import { describe, expect, it } from 'vitest';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../../test/support/fixtures.js';
import { dmiUuid, parseDmiSize, parseDmidecode, type DmiInfo } from './dmidecode.js';

const load = (name: string): DmiInfo => {
  const r = parseDmidecode(fixtureText('dmidecode', name));
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe('dmiUuid and parseDmiSize', () => {
  it.each([
    ['00000000-0000-0000-0000-000000000000', undefined],
    ['FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', undefined],
    ['03000200-0400-0500-0006-000700080009', undefined],
    ['Not Present', undefined],
    ['--', undefined],
    ['00000000-0000-0000-0000-d05099f030c4', '00000000-0000-0000-0000-d05099f030c4'],
    ['EC2F58AF-2DAD-C57E-88C0-A81CB6084290', 'ec2f58af-2dad-c57e-88c0-a81cb6084290'],
  ])('dmiUuid(%s) is %s', (raw, expected) => expect(dmiUuid(raw)).toBe(expected));

  it.each([
    ['8 GB', 8 * 1024 ** 3],
    ['16384 MB', 16 * 1024 ** 3],
    ['No Module Installed', undefined],
  ])('parseDmiSize(%s)', (raw, expected) => expect(parseDmiSize(raw)).toBe(expected));
});

describe.skipIf(!fixturesPresent)(`parseDmidecode over ${FIXTURES_SKIP_NOTE}`, () => {
  it('drops AMI placeholders and the shared placeholder UUID but keeps the real board', () => {
    const sut = load('asrockrack-e3c246d4i-nl-to-be-filled-by-oem-placeholder-uuid-dmidecode.txt');
    expect(sut.system).toEqual({});
    expect(sut.baseboard).toEqual({ manufacturer: 'ASRockRack', product: 'E3C246D4I-NL' });
    expect(sut.bios).toMatchObject({ vendor: 'American Megatrends Inc.', version: 'L2.09C', uefiSupported: true });
    expect(sut.smbiosVersion).toBe('3.2.0');
  });

  it('keeps a half-zero UUID, which is MAC-derived and unique', () => {
    const sut = load('asrockrack-e3c246d4i-nl-packet-c3small-half-zero-uuid-dmidecode.txt');
    expect(sut.system?.uuid).toBe('00000000-0000-0000-0000-d05099f030c4');
    expect(sut.system).toMatchObject({ manufacturer: 'Packet', product: 'c3.small.x86' });
    expect(sut.system?.sku).toBeUndefined();
  });

  it('reads the dmidecode 2.2 legacy layout with UUID Not Present and blank serials', () => {
    const sut = load('msi-ms6754-legacy-dmidecode2.2-format.txt');
    expect(sut.system).toEqual({ manufacturer: 'MICRO-STAR INTERNATIONAL CO., LTD', product: 'MS-6754' });
    expect(sut.bios?.vendor).toBe('Award Software International, Inc.');
    expect(sut.baseboard?.serial).toBeUndefined();
  });

  it('treats the VirtualBox serial "0" as missing', () => {
    expect(load('virtualbox-vm-serial-0-dmidecode.txt').system?.serial).toBeUndefined();
  });

  it('reads AWS Xen identity with a lower-case serial and upper-case UUID', () => {
    const sut = load('aws-xen-hvm-domu-dmidecode.txt');
    expect(sut.system).toMatchObject({
      manufacturer: 'Xen',
      product: 'HVM domU',
      serial: 'ec2f58af-2dad-c57e-88c0-a81cb6084290',
      uuid: 'ec2f58af-2dad-c57e-88c0-a81cb6084290',
    });
  });

  it('sums memory devices on a Dell Latitude 7490', () => {
    const sut = load('dell-latitude-7490-laptop-dmidecode.txt');
    expect(sut.system?.manufacturer).toBe('Dell Inc.');
    expect(sut.memoryDevices.filter((d) => d.sizeBytes).map((d) => [d.locator, d.partNumber, d.speedMts])).toEqual([
      ['DIMM A', 'HMA81GS6AFR8N-UH', 2400],
      ['DIMM B', 'M471A1K43CB1-CTD', 2667],
    ]);
    expect(sut.memoryTotalBytes).toBe(16 * 1024 ** 3);
  });

  it('reads power supplies from a single-type dump behind the newer-SMBIOS warning', () => {
    const sut = load('dell-poweredge-r6515-dmidecode-t39-psu.txt');
    expect(sut.system).toBeUndefined();
    expect(sut.powerSupplies[0]).toEqual({
      name: 'PWR SPLY,550W,RDNT,DELTA',
      manufacturer: 'DELL',
      serial: 'CNDED0009S4FFK',
      modelPartNumber: '06V43GA00',
      maxPowerWatts: 550,
    });
  });

  it('reports a machine without SMBIOS as unparsable', () => {
    const r = parseDmidecode(fixtureText('dmidecode', 'no-smbios-entry-point-dmidecode-failure.txt'));
    expect(r).toEqual({ ok: false, reason: 'dmidecode found no SMBIOS/DMI table' });
  });
});
