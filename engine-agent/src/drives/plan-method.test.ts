import { DEFAULT_ERASURE_POLICY, type ErasurePolicy } from '@erasure/shared';
import { describe, expect, it } from 'vitest';
import type { DriveCapabilities } from './capabilities.js';
import { planErase } from './plan-erase.js';

const nvme: DriveCapabilities = {
  device: '/dev/nvme0n1',
  transport: 'nvme',
  viaUsbBridge: false,
  viaRaidController: false,
  rotational: false,
  sizeBytes: 512e9,
  nvme: { sanitize: { crypto: true, block: true, overwrite: false }, formatSupported: true, formatCryptoErase: true, formatAllNamespaces: false, namespaceCount: 1 },
};
const hdd: DriveCapabilities = { device: '/dev/sdb', transport: 'sata', viaUsbBridge: false, viaRaidController: false, rotational: true, sizeBytes: 9e11 };
const dodOnly: ErasurePolicy = { default_method: 'dod-5220.22-m-3', verification: { sample: 10 }, allowed_methods: ['dod-5220.22-m-3'] };

describe('planning the method an account or operator chose (issue 29)', () => {
  it('with no policy and no method plans exactly as before: the strongest Purge, no method fields', () => {
    const plan = planErase(nvme);
    expect(plan).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto', label: 'NIST 800-88 R2 Purge' });
    expect(plan).not.toHaveProperty('methodId');
    expect(plan).not.toHaveProperty('verification');
  });

  it('the default policy plans the same erase as no policy, at full verification', () => {
    const plain = planErase(nvme);
    const plan = planErase(nvme, { erasure: DEFAULT_ERASURE_POLICY });
    expect(plan).toEqual({ ...plain, methodId: 'nist-800-88-purge', verification: 'full' });
  });

  it('plans DoD 5220.22-M (3 passes) on a disk as an overwrite of exactly its passes, named as contracts write it', () => {
    const plan = planErase(hdd, { erasure: dodOnly });
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan).toMatchObject({ method: 'overwrite', methodId: 'dod-5220.22-m-3', label: 'DoD 5220.22-M (3 passes)', category: 'Clear', verification: { sample: 10 } });
    expect(plan.overwritePasses?.map((p) => p.pattern.kind)).toEqual(['zero', 'complement', 'prng']);
    expect(plan.technique).toMatch(/^IEEE 2883 Clear, overwrite through the write path: 3 passes \(0x00, complement, random\)/);
    // Three passes written and a tenth read back take longer than one pass and one full read.
    const one = planErase(hdd);
    expect(plan.ok && one.ok && (plan.expectedMinutes ?? 0) > (one.expectedMinutes ?? 0)).toBe(true);
  });

  it('refuses a method outside the policy with a clear message, so nothing is written', () => {
    const plan = planErase(hdd, { erasure: dodOnly, methodId: 'gutmann' });
    expect(plan).toMatchObject({ ok: false, reason: "Gutmann (35 passes) is not allowed by this account's erasure policy (allowed: DoD 5220.22-M (3 passes)); nothing was written" });
  });

  it('refuses a method id the catalogue does not know', () => {
    const plan = planErase(hdd, { methodId: 'dod-9-passes' });
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.reason).toMatch(/^"dod-9-passes" is not an erasure method this engine knows/);
  });

  it('plans a multi-pass overwrite of an SSD as Clear only, and says why', () => {
    const plan = planErase(nvme, { methodId: 'dod-5220.22-m-ece-7' });
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan).toMatchObject({ method: 'overwrite', category: 'Clear', label: 'DoD 5220.22-M ECE (7 passes)' });
    expect(plan.why).toMatch(/on flash media a multi-pass overwrite is Clear only .*spare and remapped blocks/);
  });

  it('refuses a named overwrite for a drive whose hidden area it could not reach, with the reason', () => {
    const plan = planErase({ ...hdd, hpaHiddenSectors: 2048 }, { methodId: 'hmg-is5-enhanced', restoreHiddenAreas: false });
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.reason).toBe('HMG IS5 Enhanced cannot reach every user-addressable sector of this drive: not fully sanitized: a Host Protected Area hides 2048 sectors that are left untouched');
  });

  it('keeps the NIST names on the wire for NIST Clear, and the policy level for NIST Purge', () => {
    const clear = planErase(nvme, { methodId: 'nist-800-88-clear' });
    expect(clear).toMatchObject({ ok: true, method: 'overwrite', label: 'NIST 800-88 R2 Clear', methodId: 'nist-800-88-clear' });
    const purge = planErase(nvme, { erasure: { ...DEFAULT_ERASURE_POLICY, verification: 'every-pass' } });
    expect(purge).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto', label: 'NIST 800-88 R2 Purge', verification: 'every-pass' });
  });

  it('plans BSI-GS as its overwrite then the firmware Purge, and refuses it on a drive without a firmware erase', () => {
    const plan = planErase(nvme, { methodId: 'bsi-gs' });
    expect(plan).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto', label: 'BSI-GS', category: 'Purge' });
    expect(plan.ok && plan.passesBeforeFirmware?.length).toBe(1);
    const none = planErase(hdd, { methodId: 'bsi-gs' });
    expect(none.ok).toBe(false);
    expect(!none.ok && none.reason).toMatch(/^BSI-GS needs a firmware erase after its overwrite, and none can run on this drive/);
  });
});
