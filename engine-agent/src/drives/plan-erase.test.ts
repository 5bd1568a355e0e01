import { describe, expect, it } from 'vitest';
import type { DriveCapabilities } from './capabilities.js';
import { ERASE_METHODS } from './erase-methods.js';
import { DISCARD_AFTER_OVERWRITE, FIRMWARE_PROVEN_BY_MARKERS, planErase, type ErasePlan, type ErasePolicy } from './plan-erase.js';

const nvme: DriveCapabilities = {
  device: '/dev/nvme0n1',
  transport: 'nvme',
  viaUsbBridge: false,
  viaRaidController: false,
  rotational: false,
  sizeBytes: 512e9,
  nvme: { sanitize: { crypto: true, block: true, overwrite: false }, formatSupported: true, formatCryptoErase: true, formatAllNamespaces: false, namespaceCount: 1 },
};
const sata: DriveCapabilities = {
  device: '/dev/sda',
  transport: 'sata',
  viaUsbBridge: false,
  viaRaidController: false,
  rotational: false,
  sizeBytes: 2e12,
  ataSecurity: { supported: true, enabled: false, locked: false, frozen: false, countExpired: false, enhancedErase: true, eraseMinutes: 2, enhancedEraseMinutes: 8 },
};
const hdd: DriveCapabilities = { device: '/dev/sdb', transport: 'sata', viaUsbBridge: false, viaRaidController: false, rotational: true, sizeBytes: 9e11 };

type Row = { name: string; caps: DriveCapabilities; policy?: ErasePolicy; method: string; category: string; rejected?: Record<string, RegExp> };

const rows: Row[] = [
  { name: 'NVMe with crypto sanitize', caps: nvme, method: 'nvme-sanitize-crypto', category: 'Purge', rejected: { 'nvme-sanitize-block': /ranks stronger/, 'nvme-sanitize-overwrite': /SANICAP bit 2/ } },
  {
    name: 'NVMe with block erase only and no format crypto (T-Force TM8FPL500G)',
    caps: { ...nvme, nvme: { sanitize: { crypto: false, block: true, overwrite: false }, formatSupported: true, formatCryptoErase: false, formatAllNamespaces: false, namespaceCount: 1 } },
    method: 'nvme-sanitize-block',
    category: 'Purge',
    rejected: { 'nvme-sanitize-crypto': /SANICAP bit 0/, 'nvme-format-crypto': /FNA bit 2/ },
  },
  {
    name: 'NVMe without sanitize and without crypto format (Optane M10)',
    caps: { ...nvme, nvme: { sanitize: { crypto: false, block: false, overwrite: false }, formatSupported: true, formatCryptoErase: false, formatAllNamespaces: true, namespaceCount: 1 } },
    method: 'nvme-format-user-data',
    category: 'Purge',
  },
  {
    name: 'NVMe with two namespaces refuses sanitize unless allowed',
    caps: { ...nvme, nvme: { ...nvme.nvme!, namespaceCount: 2, formatAllNamespaces: true } },
    method: 'overwrite',
    category: 'Clear',
    rejected: { 'nvme-sanitize-crypto': /all 2 namespaces/, 'nvme-format-crypto': /all 2 would be erased/ },
  },
  { name: 'the same NVMe when the operator accepts every namespace', caps: { ...nvme, nvme: { ...nvme.nvme!, namespaceCount: 2 } }, policy: { allowAllNamespaces: true }, method: 'nvme-sanitize-crypto', category: 'Purge' },
  { name: 'SATA SSD not frozen: enhanced security erase', caps: sata, method: 'ata-secure-erase-enhanced', category: 'Purge', rejected: { 'ata-sanitize-crypto': /SANITIZE feature set not supported/ } },
  {
    name: 'SATA SSD frozen with sanitize block erase',
    caps: { ...sata, ataSecurity: { ...sata.ataSecurity!, frozen: true }, ataSanitize: { crypto: false, block: true, overwrite: false } },
    method: 'overwrite',
    category: 'Clear',
    rejected: { 'ata-sanitize-block': /frozen/, 'ata-secure-erase-enhanced': /frozen/ },
  },
  { name: 'SATA SSD not frozen with sanitize block erase', caps: { ...sata, ataSanitize: { crypto: false, block: true, overwrite: false } }, method: 'ata-sanitize-block', category: 'Purge' },
  { name: 'password already set', caps: { ...sata, ataSecurity: { ...sata.ataSecurity!, enabled: true } }, method: 'overwrite', category: 'Clear', rejected: { 'ata-secure-erase': /password is already set/ } },
  { name: 'enhanced erase unsupported falls back to normal SE', caps: { ...sata, ataSecurity: { ...sata.ataSecurity!, enhancedErase: false } }, method: 'ata-secure-erase', category: 'Purge', rejected: { 'ata-secure-erase-enhanced': /enhanced security erase not supported/ } },
  {
    name: 'SATA drive behind a USB bridge',
    caps: { ...sata, transport: 'usb', viaUsbBridge: true },
    method: 'overwrite',
    category: 'Clear',
    rejected: { 'ata-secure-erase-enhanced': /USB bridge/, 'nvme-sanitize-crypto': /USB bridge/ },
  },
  { name: 'disk behind MegaRAID', caps: { ...hdd, viaRaidController: true, ataSecurity: sata.ataSecurity! }, method: 'overwrite', category: 'Clear', rejected: { 'ata-secure-erase': /RAID controller/ } },
  { name: 'SAS disk with probed SANITIZE', caps: { ...hdd, transport: 'sas', scsiSanitize: { crypto: false, block: false, overwrite: true } }, method: 'scsi-sanitize-overwrite', category: 'Purge' },
  { name: 'SAS disk without a SANITIZE probe', caps: { ...hdd, transport: 'sas' }, method: 'overwrite', category: 'Clear', rejected: { 'scsi-sanitize-crypto': /not probed/ } },
  { name: 'operator forces overwrite on a Purge-capable NVMe', caps: nvme, policy: { forceMethod: 'overwrite' }, method: 'overwrite', category: 'Clear', rejected: { 'nvme-sanitize-crypto': /forced overwrite/ } },
];

describe('planErase', () => {
  it.each(rows)('$name -> $method', ({ caps, policy, method, category, rejected }) => {
    const sut = planErase(caps, policy);
    expect(sut.ok).toBe(true);
    const plan = sut as ErasePlan;
    expect(plan.method).toBe(method);
    expect(plan.category).toBe(category);
    expect(plan.label).toBe(`NIST 800-88 R2 ${category}`);
    // Every method not chosen carries a reason.
    expect(plan.rejected.map((r) => r.method).sort()).toEqual(ERASE_METHODS.filter((m) => m !== method).sort());
    for (const r of plan.rejected) expect(r.reason.length).toBeGreaterThan(5);
    for (const [m, pattern] of Object.entries(rejected ?? {})) {
      expect(plan.rejected.find((r) => r.method === m)?.reason).toMatch(pattern);
    }
  });

  it('fails closed when a forced method cannot run', () => {
    const sut = planErase({ ...sata, ataSecurity: { ...sata.ataSecurity!, frozen: true } }, { forceMethod: 'ata-secure-erase-enhanced' });
    expect(sut).toMatchObject({ ok: false, reason: expect.stringMatching(/^forced method ata-secure-erase-enhanced cannot run: drive is frozen/) });
    expect(sut.rejected.length).toBeGreaterThan(0);
  });

  it('uses the drive\'s own SE estimate and estimates overwrite time from size, written and read back', () => {
    expect(planErase(sata)).toMatchObject({ expectedMinutes: 8, durationSource: 'drive' });
    // 900 GB written and read back at an HDD's typical 150 MB/s.
    expect(planErase(hdd)).toMatchObject({ method: 'overwrite', expectedMinutes: 200, durationSource: 'estimate', why: expect.stringMatching(/Clear by overwrite/) });
    // A measured rate takes the place of the typical one.
    expect(planErase(hdd, { overwriteBytesPerSecond: 300e6 })).toMatchObject({ expectedMinutes: 100 });
  });

  it('estimates an overwrite from the drive\'s size and its media type\'s typical rate, to the second', () => {
    // 6 GB written and read back (12 GB of work) at a hard disk's 150 MB/s is 80 s, at a SATA SSD's
    // 450 MB/s 27 s (rounded up to the second): not a constant "about 1 min".
    expect(planErase({ ...hdd, sizeBytes: 6e9 })).toMatchObject({ method: 'overwrite', expectedMinutes: 80 / 60, durationSource: 'estimate' });
    expect(planErase({ ...hdd, rotational: false, sizeBytes: 6e9 })).toMatchObject({ method: 'overwrite', expectedMinutes: 27 / 60 });
  });

  it('requires HPA/DCO removal first, or flags the result as not fully sanitized', () => {
    const hidden = { ...sata, hpaHiddenSectors: 2113, dcoHiddenSectors: 10 };
    expect(planErase(hidden)).toMatchObject({ preconditions: ['restore-hpa', 'restore-dco'], fullySanitized: true });
    const kept = planErase(hidden, { restoreHiddenAreas: false }) as ErasePlan;
    expect(kept.fullySanitized).toBe(false);
    expect(kept.preconditions).toEqual([]);
    expect(kept.warnings).toContain('not fully sanitized: a Host Protected Area hides 2113 sectors that are left untouched');
  });

  it('warns that sanitize takes every namespace and that flash overwrite is Clear only', () => {
    expect((planErase(nvme) as ErasePlan).warnings).toContain('sanitize erases every namespace of the NVM subsystem');
    expect((planErase({ ...nvme, nvme: undefined }) as ErasePlan).warnings[0]).toMatch(/Clear only/);
  });
});

describe('what the plan says about proof and discard', () => {
  const plan = (caps: DriveCapabilities) => planErase(caps) as ErasePlan;

  it('says a firmware erase is proven by test patterns and falls back to overwrite (Clear) when one survives', () => {
    expect(plan(nvme).warnings).toContain(FIRMWARE_PROVEN_BY_MARKERS);
    expect(plan(hdd).warnings).not.toContain(FIRMWARE_PROVEN_BY_MARKERS);
  });

  it('says an overwritten drive that takes discards is discarded afterwards, not as the sanitization and never as a Purge', () => {
    const sut = plan({ ...hdd, rotational: false, discard: true });
    expect(sut).toMatchObject({ method: 'overwrite', category: 'Clear', label: 'NIST 800-88 R2 Clear' });
    expect(sut.warnings).toContain(DISCARD_AFTER_OVERWRITE);
    expect(DISCARD_AFTER_OVERWRITE).toMatch(/not part of the sanitization.*secure discard.*never used as a Purge/);
  });

  it('says nothing of a discard for a drive that takes none', () => {
    expect(plan({ ...hdd, discard: false }).warnings).not.toContain(DISCARD_AFTER_OVERWRITE);
    expect(plan(hdd).warnings).not.toContain(DISCARD_AFTER_OVERWRITE);
  });
});
