import { describe, expect, it } from 'vitest';
import type { TcgState } from '../probes/tcg-discovery.js';
import type { DriveCapabilities } from './capabilities.js';
import { planErase } from './plan-erase.js';
import { PSID_ELSEWHERE_STEP, PSID_PATTERN, psidReverter } from './sed-lock.js';

const opal2 = (locked: boolean): TcgState => ({ family: 'Opal 2', lockingSupported: true, lockingEnabled: true, locked, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false });
const nvme = (locked: boolean): DriveCapabilities => ({
  device: '/dev/nvme0n1',
  transport: 'nvme',
  viaUsbBridge: false,
  viaRaidController: false,
  rotational: false,
  sizeBytes: 512e9,
  nvme: { sanitize: { crypto: true, block: true, overwrite: false }, formatSupported: true, formatCryptoErase: true, formatAllNamespaces: false, namespaceCount: 1 },
  selfEncryption: { kind: 'tcg', tool: 'nvme sed discover', ...opal2(locked) },
});

describe('erase plan of a self-encrypting drive', () => {
  it('plans no erase over a locked locking range, and says a PSID revert is the way out', () => {
    const plan = planErase(nvme(true));
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.reason).toMatch(/^the drive is self-encrypting \(Opal 2, locked\): its data cannot be read or written until it is unlocked; a PSID revert/);
    expect(plan.rejected.every((r) => r.reason === plan.reason)).toBe(true);
    // The same rule holds when the account names a method.
    const named = planErase(nvme(true), { methodId: 'nist-800-88-purge' });
    expect(named).toMatchObject({ ok: false, reason: expect.stringContaining('self-encrypting (Opal 2, locked)') });
  });

  it('erases an unlocked self-encrypting drive by the method, as any drive', () => {
    expect(planErase(nvme(false))).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto' });
  });

  it('takes a PSID of 32 capitals and digits only', () => {
    expect(PSID_PATTERN.test('3CZDYPNDD49EHVXRB8K0JX068A000000')).toBe(true);
    expect(PSID_PATTERN.test('3czdypndd49ehvxrb8k0jx068a000000')).toBe(false);
    expect(PSID_PATTERN.test('3CZDYPNDD49EHVXRB8K0JX068A')).toBe(false);
    expect(PSID_PATTERN.test('3CZDY-PNDD49EHVXRB8K0JX068A00000')).toBe(false);
  });
});

describe('a locked SATA or SAS self-encrypting drive and the tools of the image', () => {
  const sata = (tool: 'sedutil-cli --query' | 'sg_raw security protocol in'): DriveCapabilities => ({
    device: '/dev/sdb',
    transport: 'sata',
    viaUsbBridge: false,
    viaRaidController: false,
    rotational: false,
    sizeBytes: 250e9,
    selfEncryption: { kind: 'tcg', tool, ...opal2(true) },
  });

  it('read by sg_raw (the image has no sedutil-cli): no plan, and the reason says to PSID-revert it on another computer, with the tool and the label', () => {
    const plan = planErase(sata('sg_raw security protocol in'));
    expect(plan).toMatchObject({ ok: false });
    expect(plan.ok ? '' : plan.reason).toBe(
      `the drive is self-encrypting (Opal 2, locked): its data cannot be read or written until it is unlocked, and this image has no tool that can PSID-revert a SATA or SAS drive (sedutil-cli): it needs a PSID revert on another computer, with the 32-character PSID printed on its label. ${PSID_ELSEWHERE_STEP}`,
    );
    // Review, not destroy: the drive is fine once reverted.
    expect(plan.ok ? undefined : plan.disposition).toBeUndefined();
    expect(psidReverter(sata('sg_raw security protocol in').selfEncryption)).toBe('none');
  });

  it('read by sedutil-cli: the revert is offered here', () => {
    expect(psidReverter(sata('sedutil-cli --query').selfEncryption)).toBe('sedutil-cli');
    expect(psidReverter(nvme(true).selfEncryption)).toBe('nvme');
    const plan = planErase(sata('sedutil-cli --query'));
    expect(plan.ok ? '' : plan.reason).toMatch(/; a PSID revert with the 32-character PSID printed on its label erases it and unlocks it$/);
  });
});
