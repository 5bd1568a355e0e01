import { describe, expect, it } from 'vitest';
import type { DriveCapabilities } from '../drives/capabilities.js';
import { planErase } from '../drives/plan-erase.js';
import type { SelfEncryption } from '../probes/tcg-discovery.js';
import { driveView } from './state-view.js';

const sata = (selfEncryption: SelfEncryption): DriveCapabilities => ({ device: '/dev/sda', transport: 'sata', viaUsbBridge: false, viaRaidController: false, rotational: false, sizeBytes: 250e9, selfEncryption });
const view = (caps: DriveCapabilities) => driveView({ device: caps.device, internal: true, capabilities: caps, plan: planErase(caps) });

describe('the drive row of the agent state', () => {
  it('carries a self-encrypting drive\'s words and whether it is locked', () => {
    const locked = sata({ kind: 'tcg', tool: 'sedutil-cli --query', family: 'Opal 1', lockingSupported: true, lockingEnabled: true, locked: true, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false });
    expect(view(locked).self_encryption).toEqual({ words: 'self-encrypting (Opal 1, locked)', locked: true });
  });

  it('leaves "unknown: no tool" and plain drives off the row', () => {
    expect(view(sata({ kind: 'unknown', reason: 'no tool' }))).not.toHaveProperty('self_encryption');
    expect(view(sata({ kind: 'none', tool: 'sedutil-cli --query' }))).not.toHaveProperty('self_encryption');
  });

  it('says a locked drive this image cannot revert (read by sg_raw, no sedutil-cli) is not reverted here: no PSID dialog', () => {
    const locked = sata({ kind: 'tcg', tool: 'sg_raw security protocol in', family: 'Opal 2', lockingSupported: true, lockingEnabled: true, locked: true, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false });
    expect(view(locked).self_encryption).toEqual({ words: 'self-encrypting (Opal 2, locked)', locked: true, revert_here: false });
    expect(view({ ...locked, selfEncryption: { ...locked.selfEncryption!, locked: false } as SelfEncryption }).self_encryption).toEqual({ words: 'self-encrypting (Opal 2, unlocked)', locked: false });
  });
});
