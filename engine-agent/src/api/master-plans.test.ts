import { describe, expect, it } from 'vitest';
import { DEFAULT_ERASURE_POLICY } from '@erasure/shared';
import type { DriveCapabilities } from '../drives/capabilities.js';
import { planErase } from '../drives/plan-erase.js';
import { acceptPolicy } from '../session/erasure-policy.js';
import { withMasterPlans } from './master-plans.js';

const lockedHigh: DriveCapabilities = {
  device: '/dev/sda',
  transport: 'sata',
  viaUsbBridge: false,
  viaRaidController: false,
  rotational: false,
  sizeBytes: 2e12,
  ataSecurity: { supported: true, enabled: true, locked: true, frozen: false, countExpired: false, enhancedErase: true, eraseMinutes: 2, enhancedEraseMinutes: 8, level: 'high' },
};
const listed = [{ device: '/dev/sda', internal: false, capabilities: lockedHigh, plan: planErase(lockedHigh, {}) }];
const granted = { erasure_policy: DEFAULT_ERASURE_POLICY, source: 'account' as const };

describe('the kiosk’s drive list under the account’s ATA master passwords', () => {
  it('a drive locked with an unknown user password, listed with no plan (it takes no write), gets its Security Erase plan once the policy carries master passwords', () => {
    expect(listed[0]?.plan).toMatchObject({ ok: false, reason: expect.stringMatching(/^the drive is locked with a user password nobody here knows/) });
    const [drive] = withMasterPlans(listed, acceptPolicy({ ...granted, ata_master_passwords: { passwords: ['Fleet-Master-2019'], factory_defaults: false } }), {});
    expect(drive?.plan).toMatchObject({ ok: true, method: 'ata-secure-erase-enhanced' });
  });

  it('keeps its listed plan when the policy has no master passwords', () => {
    expect(withMasterPlans(listed, acceptPolicy(granted), {})[0]?.plan).toMatchObject({ ok: false });
  });
});
