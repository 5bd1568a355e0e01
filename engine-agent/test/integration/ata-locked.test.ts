import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSystemView } from '../../src/adapters/system-view.js';
import { METHOD_INFO, type EraseMethod } from '../../src/drives/erase-methods.js';
import { nistLabel } from '../../src/drives/plan-erase.js';
import { MAX_ATTEMPTS, type AtaMasterPasswords } from '../../src/erase/ata-master-unlock.js';
import { eraseDrive, type EraseDeps, type EraseOutcome } from '../../src/erase/erase-drive.js';
import type { FirmwareTiming } from '../../src/erase/nvme.js';
import { wipeResultBody } from '../../src/session/wipe-result.js';
import { derivedHdparmSecurity, type DerivedSecurity } from '../support/derived-hdparm.js';
import { fakeRunner, noSleep, type FakeRule } from '../support/fake-runner.js';
import { fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';
import { loopSkipReason, loopWith, makeWorkDir, removeDir } from '../support/loop.js';

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
const work = loopSkipReason ? '' : makeWorkDir('ata-locked-');
afterAll(() => work && removeDir(work));

const fast: FirmwareTiming = { pollIntervalMs: 1, maxWaitMs: 2000, commandTimeoutMs: 15_000 };
const METHOD: EraseMethod = 'ata-secure-erase-enhanced';
// The drive after its erase: the real capture as published (security not enabled).
const NOT_ENABLED = 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** hdparm's output for a security command: it echoes the password (see the Intel transcript fixture). */
const issued = (device: string, command: string, password: string) =>
  `security_password: "${password}"\n\n${device}:\n Issuing ${command} command, password="${password}", user=master, mode=high\n`;

/** A drive's -I answers, in the order of its states: each answers until the file of the next state exists. */
function identifyRules(device: string, states: readonly { until?: string; security?: DerivedSecurity }[]): FakeRule[] {
  return states.map((s) => ({
    match: `^-I ${escape(device)}$`,
    ...(s.security ? { stdout: derivedHdparmSecurity(s.security) } : { fixture: NOT_ENABLED }),
    ...(s.until ? { untilFile: s.until } : {}),
  }));
}

/** A SECURITY UNLOCK the drive refuses, as hdparm reports it (EIO, exit 5). */
const refusedUnlock = (device: string, password?: string, touch?: string): FakeRule => ({
  match: `--user-master m --security-unlock ${password ? escape(password) : '.*'} ${escape(device)}$`,
  stdout: issued(device, 'SECURITY_UNLOCK', password ?? '?'),
  stderr: 'SECURITY_UNLOCK: Input/output error\n',
  exit: 5,
  ...(touch ? { touch } : {}),
});

const eraseLocked = (device: string, masters: AtaMasterPasswords, rules: FakeRule[]) => {
  const { run, calls } = fakeRunner({ hdparm: rules });
  const deps: EraseDeps = { run, sleep: noSleep, sys: nodeSystemView(), now: () => new Date(), firmwareTiming: fast, tuning: { chunkBytes: MiB, inFlight: 2 } };
  return { sut: eraseDrive({ device, method: METHOD, selected: [device], ataMasterPasswords: masters }, deps), calls };
};

const wireOf = (device: string, outcome: EraseOutcome) =>
  wipeResultBody({ device, method: METHOD, preconditions: [], label: nistLabel(METHOD_INFO[METHOD].category), technique: METHOD_INFO[METHOD].technique }, outcome, 'job-1', 'erasure-agent test');

/** No password in anything the agent keeps, shows or sends: the outcome (kiosk row, logs) and the wipe result. */
function expectNoPassword(device: string, outcome: EraseOutcome, passwords: readonly string[]) {
  const kept = `${JSON.stringify(outcome)}\n${JSON.stringify(wireOf(device, outcome))}`;
  for (const p of passwords) expect(kept).not.toContain(p);
}

const unlockCalls = (calls: string[][]) => calls.filter((c) => c.includes('--security-unlock'));

describe.skipIf(Boolean(loopSkipReason) || !fixturesPresent)(`ATA drives locked with an unknown user password, on loop devices with a fake hdparm replaying derived ${FIXTURES_SKIP_NOTE}`, () => {
  it('at security level high, the account master password that works unlocks the drive, which is then security-erased with it and proven by the markers', async () => {
    const disk = loopWith(work, 'master-works.img', randomBytes(SIZE));
    const unlocked = join(work, 'master-works.unlocked');
    const erased = join(work, 'master-works.erased');
    const right = 'FleetMaster-7';
    try {
      const { sut, calls } = eraseLocked(disk.device, { account: ['Old-Fleet-1', right], vendorDefaults: false }, [
        ...identifyRules(disk.device, [{ until: unlocked, security: { locked: true, level: 'high', masterRevision: 3 } }, { until: erased, security: { locked: false, level: 'high', masterRevision: 3 } }, {}]),
        { match: `--user-master m --security-unlock ${right} ${escape(disk.device)}$`, stdout: issued(disk.device, 'SECURITY_UNLOCK', right), touch: unlocked },
        refusedUnlock(disk.device),
        { match: `--user-master m --security-erase-enhanced ${right} ${escape(disk.device)}$`, stdout: issued(disk.device, 'SECURITY_ERASE', right), erase: { device: disk.device, bytes: SIZE, fill: 'zero' }, touch: erased },
      ]);
      const outcome = await sut;
      expect(outcome).toMatchObject({ ok: true, method: METHOD, passes: null });
      expect(outcome.verification).toMatch(/^256 of 256 test patterns written before the erase were gone after it/);
      expect(outcome.verification).toContain('security erase with the master password completed');
      expect(readFileSync(disk.file).equals(Buffer.alloc(SIZE))).toBe(true);
      expect(wireOf(disk.device, outcome)).toMatchObject({ wipe_method: 'NIST 800-88 R2 Purge', disposition: 'sanitized', wipe_status: 'completed' });
      // The wrong one first, then the right one; the drive got both, nothing the agent keeps has either.
      expect(unlockCalls(calls()).map((c) => c[4])).toEqual(['Old-Fleet-1', right]);
      expect(outcome.commands).toContain(`hdparm --user-master m --security-unlock <master-password> ${disk.device}`);
      expect(outcome.commands).toContain(`hdparm --user-master m --security-erase-enhanced <master-password> ${disk.device}`);
      expectNoPassword(disk.device, outcome, ['Old-Fleet-1', right]);
    } finally {
      disk.cleanup();
    }
  });

  it('when no master password works (the account one, then the make factory default), the drive is failed for review and nothing is written to it', async () => {
    const original = randomBytes(SIZE);
    const disk = loopWith(work, 'master-wrong.img', original);
    const samsungDefault = 't'.repeat(32);
    try {
      const { sut, calls } = eraseLocked(disk.device, { account: ['Nope-Master-1'], vendorDefaults: true }, [
        ...identifyRules(disk.device, [{ security: { locked: true, level: 'high' } }]),
        refusedUnlock(disk.device),
      ]);
      const outcome = await sut;
      expect(outcome).toMatchObject({ ok: false, failureCode: 'locked', disposition: 'review' });
      expect(outcome.verification).toContain("none of the 2 master passwords tried unlocked it (the account's master password 1, the Samsung factory master password)");
      expect(unlockCalls(calls()).map((c) => c[4])).toEqual(['Nope-Master-1', samsungDefault]);
      expect(calls().some((c) => c.some((a) => /--security-erase/.test(a)))).toBe(false);
      expect(readFileSync(disk.file).equals(original)).toBe(true);
      expect(wireOf(disk.device, outcome)).toMatchObject({ wipe_status: 'failed', disposition: 'review' });
      expectNoPassword(disk.device, outcome, ['Nope-Master-1', samsungDefault]);
    } finally {
      disk.cleanup();
    }
  });

  it('when the drive counts out the attempts (expired: security count), the agent stops trying and says the drive must be power-cycled', async () => {
    const disk = loopWith(work, 'expired.img', randomBytes(SIZE));
    const expired = join(work, 'expired.flag');
    try {
      // A BIOS spent three attempts before: the drive's fifth failure is the agent's second.
      const { sut, calls } = eraseLocked(disk.device, { account: ['Try-1', 'Try-2', 'Try-3'], vendorDefaults: false }, [
        ...identifyRules(disk.device, [{ until: expired, security: { locked: true, level: 'high' } }, { security: { locked: true, level: 'high', expired: true } }]),
        refusedUnlock(disk.device, 'Try-2', expired),
        refusedUnlock(disk.device),
      ]);
      const outcome = await sut;
      expect(existsSync(expired)).toBe(true);
      expect(outcome).toMatchObject({ ok: false, failureCode: 'locked', disposition: 'review' });
      expect(outcome.verification).toContain('the drive has counted out password attempts until it is power-cycled');
      expect(unlockCalls(calls()).map((c) => c[4])).toEqual(['Try-1', 'Try-2']);
      expectNoPassword(disk.device, outcome, ['Try-1', 'Try-2', 'Try-3']);
    } finally {
      disk.cleanup();
    }
  });

  it('a drive that already reports expired: security count is not sent a single password', async () => {
    const disk = loopWith(work, 'expired-before.img', randomBytes(SIZE));
    try {
      const { sut, calls } = eraseLocked(disk.device, { account: ['Try-1'], vendorDefaults: true }, [...identifyRules(disk.device, [{ security: { locked: true, level: 'high', expired: true } }]), refusedUnlock(disk.device)]);
      const outcome = await sut;
      expect(outcome.verification).toContain('the drive has counted out password attempts until it is power-cycled');
      expect(unlockCalls(calls())).toEqual([]);
    } finally {
      disk.cleanup();
    }
  });

  it(`with more master passwords than the attempt counter allows, the agent stops after ${MAX_ATTEMPTS} tries (one short of the drive's 5) and says how many are left`, async () => {
    const disk = loopWith(work, 'limit.img', randomBytes(SIZE));
    const many = ['M-1', 'M-2', 'M-3', 'M-4', 'M-5', 'M-6'];
    try {
      const { sut, calls } = eraseLocked(disk.device, { account: many, vendorDefaults: false }, [...identifyRules(disk.device, [{ security: { locked: true, level: 'high' } }]), refusedUnlock(disk.device)]);
      const outcome = await sut;
      expect(unlockCalls(calls()).map((c) => c[4])).toEqual(many.slice(0, MAX_ATTEMPTS));
      expect(outcome).toMatchObject({ ok: false, failureCode: 'locked', disposition: 'review' });
      expect(outcome.verification).toContain(`none of the ${MAX_ATTEMPTS} master passwords tried unlocked the drive, and 2 more were not tried`);
      expectNoPassword(disk.device, outcome, many);
    } finally {
      disk.cleanup();
    }
  });

  it('a drive that is not locked is erased as before with a temporary password: no master password is ever sent to it', async () => {
    const disk = loopWith(work, 'not-locked.img', randomBytes(SIZE));
    try {
      const { sut, calls } = eraseLocked(disk.device, { account: ['FleetMaster-7'], vendorDefaults: true }, [
        { match: `^-I ${escape(disk.device)}$`, fixture: NOT_ENABLED },
        { match: '--security-set-pass', fixture: 'hdparm/intel-ssdsc2cw240a3-hdparm-security-set-pass-and-erase-transcript.txt' },
        { match: '--user-master u --security-erase-enhanced', stdout: ' Issuing SECURITY_ERASE command, password="x", user=user\n', erase: { device: disk.device, bytes: SIZE, fill: 'zero' } },
      ]);
      const outcome = await sut;
      expect(outcome).toMatchObject({ ok: true, method: METHOD });
      expect(calls().flat()).not.toContain('FleetMaster-7');
      expect(calls().flat()).not.toContain('t'.repeat(32));
      expect(outcome.commands.filter((c) => c.startsWith('hdparm -I'))).toHaveLength(2);
    } finally {
      disk.cleanup();
    }
  });

  it('a drive locked at security level maximum with no known user password fails with disposition destroy, the reason in plain words, and no password sent', async () => {
    const original = randomBytes(SIZE);
    const disk = loopWith(work, 'maximum.img', original);
    try {
      const { sut, calls } = eraseLocked(disk.device, { account: ['FleetMaster-7'], vendorDefaults: true }, [...identifyRules(disk.device, [{ security: { locked: true, level: 'maximum' } }]), refusedUnlock(disk.device)]);
      const outcome = await sut;
      expect(outcome).toMatchObject({ ok: false, failureCode: 'locked', disposition: 'destroy' });
      expect(outcome.verification).toContain('security level "maximum": a master password cannot unlock it');
      expect(wireOf(disk.device, outcome)).toMatchObject({ wipe_status: 'failed', disposition: 'destroy', validation: 'rejected' });
      expect(unlockCalls(calls())).toEqual([]);
      expect(readFileSync(disk.file).equals(original)).toBe(true);
    } finally {
      disk.cleanup();
    }
  });
});
