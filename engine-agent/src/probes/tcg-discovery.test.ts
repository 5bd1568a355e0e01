import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceDir } from '../../test/support/fixtures.js';
import type { ParseResult } from './parse-result.js';
import { describeSelfEncryption, parseNvmeSedDiscover, parseSedutilQuery, sedLocked, type TcgState } from './tcg-discovery.js';

const sed = (name: string) => readFileSync(join(workspaceDir, 'test', 'fixtures', 'sed', name), 'utf8');
const ok = <T>(r: ParseResult<T>): T => {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const tcg = (state: TcgState) => ({ kind: 'tcg' as const, tool: 'sedutil-cli --query' as const, ...state });

describe('sedutil-cli --query (real dumps)', () => {
  it('reads a locked Opal 1 SATA drive with its MBR shadow on (Samsung PM810 FDE)', () => {
    expect(ok(parseSedutilQuery(sed('sedutil-query-samsung-pm810-sata-opal1-locked.txt')))).toEqual({
      family: 'Opal 1', lockingSupported: true, lockingEnabled: true, locked: true, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false,
    });
  });

  it('reads an unlocked Opal 2 NVMe drive with locking on and the MBR shadow on (Samsung 960 EVO)', () => {
    expect(ok(parseSedutilQuery(sed('sedutil-query-samsung-960evo-nvme-opal2-unlocked-mbr.txt')))).toEqual({
      family: 'Opal 2', lockingSupported: true, lockingEnabled: true, locked: false, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false,
    });
  });

  it('reads an Opal 2 SATA drive whose locking was never set up (Crucial MX200)', () => {
    expect(ok(parseSedutilQuery(sed('sedutil-query-crucial-mx200-sata-opal2-not-enabled.txt')))).toMatchObject({ family: 'Opal 2', lockingEnabled: false, locked: false });
  });

  it('reads the locked Opal 2 dump and the one a PSID revert leaves', () => {
    expect(ok(parseSedutilQuery(sed('sedutil-query-sata-opal2-locked.DERIVED.txt')))).toMatchObject({ family: 'Opal 2', locked: true, lockingEnabled: true });
    expect(ok(parseSedutilQuery(sed('sedutil-query-sata-opal2-reverted.DERIVED.txt')))).toMatchObject({ family: 'Opal 2', locked: false, lockingEnabled: false });
  });

  it('reads a Locking line wrapped over two lines (as quoted in forensic guides)', () => {
    const wrapped = 'Locking function (0x0002)\n   Locked = Y, LockingEnabled = Y, LockingSupported = Y, MBRDone = N,\n   MBREnabled = Y, MediaEncrypt = Y\n';
    expect(ok(parseSedutilQuery(wrapped))).toMatchObject({ locked: true, mbrShadowEnabled: true });
  });

  it('says why an answer without a locking feature is not a TCG state', () => {
    expect(parseSedutilQuery('NVME Security Command Error:8194\n')).toEqual({ ok: false, reason: 'no "Locking function (0x0002)" block' });
  });
});

describe('nvme sed discover -v (nvme-cli printer format)', () => {
  it('reads a locked Opal 2 NVMe drive', () => {
    expect(ok(parseNvmeSedDiscover(sed('nvme-sed-discover-locked.DERIVED.txt')))).toEqual({
      family: 'Opal 2', lockingSupported: true, lockingEnabled: true, locked: true, mediaEncryption: true, mbrShadowEnabled: true, mbrDone: false,
    });
  });

  it('reads an unlocked and a never-set-up drive', () => {
    expect(ok(parseNvmeSedDiscover(sed('nvme-sed-discover-unlocked.DERIVED.txt')))).toMatchObject({ locked: false, lockingEnabled: true });
    expect(ok(parseNvmeSedDiscover(sed('nvme-sed-discover-not-enabled.DERIVED.txt')))).toMatchObject({ locked: false, lockingEnabled: false, mbrShadowEnabled: false });
  });

  it('does not read the tool\'s "does not support SED Opal" message as a state', () => {
    expect(parseNvmeSedDiscover(sed('nvme-sed-discover-no-opal.stderr.txt')).ok).toBe(false);
  });
});

describe('self-encryption in plain words', () => {
  it('names the family and the lock state: "self-encrypting (Opal 2, locked)"', () => {
    const locked = tcg(ok(parseNvmeSedDiscover(sed('nvme-sed-discover-locked.DERIVED.txt'))));
    expect(describeSelfEncryption(locked)).toBe('self-encrypting (Opal 2, locked)');
    expect(sedLocked(locked)).toBe(true);
    const unlocked = tcg(ok(parseSedutilQuery(sed('sedutil-query-samsung-960evo-nvme-opal2-unlocked-mbr.txt'))));
    expect(describeSelfEncryption(unlocked)).toBe('self-encrypting (Opal 2, unlocked)');
    expect(sedLocked(unlocked)).toBe(false);
    expect(describeSelfEncryption(tcg(ok(parseSedutilQuery(sed('sedutil-query-crucial-mx200-sata-opal2-not-enabled.txt')))))).toBe('self-encrypting (Opal 2, locking off)');
  });

  it('says "unknown: no tool" when no tool could ask, and nothing for a plain drive', () => {
    expect(describeSelfEncryption({ kind: 'unknown', reason: 'no tool' })).toBe('self-encryption unknown: no tool');
    expect(describeSelfEncryption({ kind: 'none', tool: 'nvme sed discover' })).toBeUndefined();
  });
});
