import { describe, expect, it } from 'vitest';
import type { TcgState } from '../probes/tcg-discovery.js';
import type { DriveCapabilities } from './capabilities.js';
import { planErase } from './plan-erase.js';
import { PSID_PATTERN } from './sed-lock.js';

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
