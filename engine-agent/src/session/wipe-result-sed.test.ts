import { describe, expect, it } from 'vitest';
import type { EraseOutcome } from '../erase/erase-drive.js';
import { sedJobField } from '../probes/tcg-discovery.js';
import type { DriveJob } from './types.js';
import { wipeResultBody } from './wipe-result.js';

const opal2 = { kind: 'tcg' as const, tool: 'nvme sed discover' as const, family: 'Opal 2' as const, lockingSupported: true, lockingEnabled: true, locked: false, mediaEncryption: true, mbrShadowEnabled: false, mbrDone: false };
const drive: DriveJob = { device: '/dev/nvme0n1', method: 'nvme-sanitize-crypto', preconditions: [], label: 'NIST 800-88 R2 Purge', technique: 'Cryptographic erase', ...sedJobField(opal2) };
const outcome: EraseOutcome = {
  device: '/dev/nvme0n1',
  method: 'nvme-sanitize-crypto',
  ok: true,
  refused: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:01:00.000Z',
  passes: 0,
  verification: 'All 256 markers are gone.',
  commands: ['nvme sanitize /dev/nvme0n1 --sanact=4'],
};

describe('the wipe result of a self-encrypting drive', () => {
  it('says the drive is self-encrypting in tool_components and verification_result, in plain words', () => {
    const sut = wipeResultBody(drive, outcome, 'job-0', 'erasure-agent 1.0');
    expect(sut.tool_components).toBe('erasure-agent 1.0; nvme sanitize /dev/nvme0n1 --sanact=4; drive: self-encrypting (Opal 2, unlocked)');
    expect(sut.verification_result).toBe('All 256 markers are gone. The drive is self-encrypting (Opal 2, unlocked).');
    // The spec fields keep their meaning: the method and technique are the erase's, not the encryption's.
    expect(sut).toMatchObject({ wipe_method: 'NIST 800-88 R2 Purge', technique: 'Cryptographic erase', wipe_status: 'completed' });
  });

  it('adds nothing for a drive not known to be self-encrypting ("unknown: no tool" stays off the report)', () => {
    expect(sedJobField({ kind: 'unknown', reason: 'no tool' })).toEqual({});
    const plain: DriveJob = { device: drive.device, method: drive.method, preconditions: [], label: drive.label, technique: drive.technique, ...sedJobField({ kind: 'unknown', reason: 'no tool' }) };
    expect(wipeResultBody(plain, outcome, 'job-0', 'erasure-agent 1.0').verification_result).toBe('All 256 markers are gone.');
  });

  it('reports a PSID revert before the erase as the cryptographic erase it is, then the method\'s own erase and proof', () => {
    const reverted: DriveJob = { ...drive, psidRevert: 'PSID revert: the drive discarded its media encryption key (a cryptographic erase) and is now self-encrypting (Opal 2, locking off)' };
    const sut = wipeResultBody(reverted, outcome, 'job-0', 'erasure-agent 1.0');
    expect(sut.tool_components).toBe('erasure-agent 1.0; PSID revert (TCG Revert with the PSID); nvme sanitize /dev/nvme0n1 --sanact=4; drive: self-encrypting (Opal 2, unlocked)');
    expect(sut.verification_result).toBe('Before the erase: PSID revert: the drive discarded its media encryption key (a cryptographic erase) and is now self-encrypting (Opal 2, locking off). All 256 markers are gone. The drive is self-encrypting (Opal 2, unlocked).');
    expect(sut).toMatchObject({ wipe_method: 'NIST 800-88 R2 Purge', technique: 'Cryptographic erase' });
  });
});
