import { describe, expect, it } from 'vitest';
import { vendorDefaultMaster } from '../erase/ata-master-unlock.js';
import type { DriveCapabilities } from './capabilities.js';
import { checkMethod } from './erase-methods.js';
import { planErase } from './plan-erase.js';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';

const locked = (level: 'high' | 'maximum', countExpired = false): DriveCapabilities => ({
  device: '/dev/sda',
  transport: 'sata',
  viaUsbBridge: false,
  viaRaidController: false,
  rotational: false,
  sizeBytes: 2e12,
  ataSecurity: { supported: true, enabled: true, locked: true, frozen: false, countExpired, enhancedErase: true, eraseMinutes: 2, enhancedEraseMinutes: 8, level },
});

describe('a drive locked with an unknown ATA user password', () => {
  it('is refused for Security Erase when the account has no master passwords', () => {
    expect(checkMethod('ata-secure-erase-enhanced', locked('high'))).toMatchObject({ usable: false, reason: expect.stringMatching(/locked with an unknown password/) });
  });

  it("is planned for Enhanced Security Erase when the account has master passwords: the erase step tries them", () => {
    const plan = planErase(locked('high'), { ataMasterPasswords: true });
    expect(plan).toMatchObject({ ok: true, method: 'ata-secure-erase-enhanced' });
    expect(checkMethod('ata-secure-erase', locked('high'), { ataMasterPasswords: true }).usable).toBe(true);
  });

  it('at level maximum still goes to the erase step, which gives it its exact result (destroy)', () => {
    expect(checkMethod('ata-secure-erase-enhanced', locked('maximum'), { ataMasterPasswords: true }).usable).toBe(true);
  });

  it.each([
    ['without master passwords', {}],
    ['with master passwords', { ataMasterPasswords: true }],
    ["under the account's policy (NIST Purge)", { erasure: DEFAULT_ERASURE_POLICY }],
    ["under the account's policy, DoD 3-pass", { erasure: DEFAULT_ERASURE_POLICY, methodId: 'dod-5220.22-m-3' }],
  ] as const)('at level maximum gets no erase plan %s: failed, disposition destroy, the reason in plain words (no overwrite it cannot take)', (_how, policy) => {
    const plan = planErase(locked('maximum'), policy);
    expect(plan).toMatchObject({ ok: false, disposition: 'destroy', reason: expect.stringMatching(/security level "maximum": a master password cannot unlock it.*Destroy it\.$/) });
  });

  it('at level high without master passwords keeps no destroy disposition (a master password may still open it elsewhere)', () => {
    expect(planErase(locked('high'))).not.toHaveProperty('disposition');
  });

  // A locked drive aborts every write: an overwrite would only fail with I/O errors nobody can act on.
  it('at level high without master passwords gets no plan, never an overwrite, saying how the master passwords are set', () => {
    expect(planErase(locked('high'))).toMatchObject({ ok: false, reason: expect.stringMatching(/^the drive is locked with a user password nobody here knows: nothing can be written to it until it is unlocked\. An admin can set the fleet's ATA master passwords/) });
  });

  it('with master passwords is planned for its security erase, and an overwrite forced on it is refused', () => {
    expect(planErase(locked('high'), { ataMasterPasswords: true })).toMatchObject({ ok: true, method: expect.stringMatching(/^ata-secure-erase/) });
    expect(planErase(locked('high'), { ataMasterPasswords: true, forceMethod: 'overwrite' })).toMatchObject({ ok: false, reason: expect.stringMatching(/an overwrite cannot write to it/) });
  });

  it('whose attempt count expired gets no plan until it is power-cycled', () => {
    expect(planErase(locked('high', true), { ataMasterPasswords: true })).toMatchObject({ ok: false, reason: expect.stringMatching(/counted out its unlock attempts/) });
  });

  it('whose attempt count expired is refused until it is power-cycled, master passwords or not', () => {
    expect(checkMethod('ata-secure-erase-enhanced', locked('high', true), { ataMasterPasswords: true }).usable).toBe(false);
  });
});

describe('vendor default master passwords, by the drive make', () => {
  it.each([
    ['ST2000LM015-2E8174', 'Seagate', `Seagate${' '.repeat(25)}`],
    ['WDC WD10EFRX-68PJCN0', 'Western Digital', `${'WDC'.repeat(10)}  `],
    ['Samsung SSD 850 EVO 2TB', 'Samsung', 't'.repeat(32)],
    ['HGST HUS726060ALA640', 'Hitachi/HGST/IBM', ' '.repeat(32)],
  ])('%s: the %s factory master password, 32 bytes', (model, make, password) => {
    expect(vendorDefaultMaster(model)).toEqual({ make, password });
    expect(password).toHaveLength(32);
  });

  it('an unknown make has none', () => {
    expect(vendorDefaultMaster('TEAM T253X2512G')).toBeUndefined();
    expect(vendorDefaultMaster(undefined)).toBeUndefined();
  });
});
