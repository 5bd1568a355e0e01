import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDrives, type PrepareDeps } from '../../src/boot-prep/prepare-drives.js';
import type { ErasePlan, NoErasePlan } from '../../src/drives/plan-erase.js';
import { storageEntry } from '../../src/fingerprint/storage.js';
import { discoverDrives } from '../../src/probes/discover-drives.js';
import type { SysfsReader } from '../../src/probes/sysfs-block.js';
import { fakeRunner, type FakeRule } from '../support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';

const work = mkdtempSync(join(tmpdir(), 'boot-prep-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LSBLK = 'lsblk/laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json'; // sda (SATA) and nvme0n1
const FROZEN_SANITIZE = 'hdparm/tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt';
const SN730 = 'nvme/wdc-pc-sn730-nvme-id-ctrl-nvmecli1x.json'; // SANICAP: crypto erase
// The real Tesla capture with only its "frozen" line changed: how it reads once a resume unfroze it.
const unfrozen = () => fixtureText('hdparm', 'tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt').replace(/^(\s+)frozen$/m, '        not     frozen');
// hdparm 9.65's --sanitize-status layout (its own strings); no capture exists.
const sanitizeStatus = (state: string, extra = '') => `\n/dev/sda:\nIssuing SANITIZE_STATUS command\nSanitize status:\n    State:    ${state}\n${extra}`;
const IDLE = { match: '^--sanitize-status', stdout: sanitizeStatus('SD0 Sanitize Idle', '    Last Sanitize Operation Completed Without Error\n') };
// nvme-cli's sanitize-log JSON layout; cdw10_info is the SCDW10 field (bits 2:0 SANACT, bit 3 AUSE).
const sanitizeLog = (sstat: number, sprog: number, cdw10: number) => JSON.stringify({ nvme0: { sprog, sstat, cdw10_info: cdw10, time_over_write: 0 } });
// util-linux 2.38 rtcwake's own strings ("%s: wakeup from \"%s\" using %s at %s"); no capture exists.
const RTC_OK = { match: '^-m mem -s 5$', stdout: 'rtcwake: wakeup from "mem" using /dev/rtc0 at Thu Nov 26 05:40:05 2026\n' };
const RTC_FAILS = { match: '^-m mem -s 5$', stderr: 'rtcwake: /dev/rtc0 not enabled for wakeup events\n', exit: 1 };

const sataRules = (identify: FakeRule[]): FakeRule[] => [
  ...identify,
  { match: '^-N /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-N-hpa-disabled.txt' },
  { match: '^--dco-identify /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-dco-identify.txt' },
  IDLE,
];

let n = 0;
function setUp(scenario: Record<string, FakeRule[]>, over: Partial<PrepareDeps> = {}) {
  const { run, calls } = fakeRunner({ lsblk: [{ match: '^-J -b -O$', fixture: LSBLK }], ...scenario });
  const lines: string[] = [];
  const events: string[] = [];
  const sys: SysfsReader = { listDir: async () => [], realPath: async () => undefined, readText: async (p) => (p === '/proc/sys/kernel/random/boot_id' ? 'boot-1\n' : undefined) };
  const deps: PrepareDeps = {
    run,
    sys,
    now: () => new Date('2026-11-26T05:40:05.000Z'),
    dataDir: join(work, `data-${++n}`),
    unfreeze: { mode: 'auto', source: 'erasure.unfreeze=auto' },
    list: (policy) => discoverDrives(run, policy),
    say: (line) => lines.push(line),
    beforeSuspend: async () => void events.push(`told the kiosk after ${calls().filter((c) => c[0] === 'rtcwake').length} suspends`),
    ...over,
  };
  return { deps, calls, lines, events, rtcwakes: () => calls().filter((c) => c[0] === 'rtcwake') };
}
const planOf = (drives: Awaited<ReturnType<typeof prepareDrives>>['drives'], device: string): ErasePlan | NoErasePlan => {
  const d = drives.find((x) => x.device === device);
  if (!d) throw new Error(`${device} not found`);
  return d.plan;
};

describe.skipIf(!fixturesPresent)(`freeze lock removal at boot, fake tools replaying ${FIXTURES_SKIP_NOTE}`, () => {
  it('suspends once with an RTC wake-up, and a drive found unfrozen after the re-probe gets the firmware method', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', fixture: FROZEN_SANITIZE, times: 1 }, { match: '^-I /dev/sda$', stdout: unfrozen() }]), rtcwake: [RTC_OK] });
    const sut = await prepareDrives(t.deps);
    expect(t.rtcwakes()).toEqual([['rtcwake', '-m', 'mem', '-s', '5']]);
    expect(t.events).toEqual(['told the kiosk after 0 suspends']);
    expect(sut.unfreeze).toEqual({ kind: 'resumed', at: '2026-11-26T05:40:05.000Z' });
    expect(planOf(sut.drives, '/dev/sda')).toMatchObject({ ok: true, method: 'ata-sanitize-block', category: 'Purge' });
    expect(t.lines.join('\n')).toMatch(/the screen goes dark for a few seconds/);
  });

  it('happens once per boot: a second preparation in the same boot does not suspend again', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', fixture: FROZEN_SANITIZE }]), rtcwake: [RTC_OK] });
    await prepareDrives(t.deps);
    const again = await prepareDrives(t.deps);
    expect(t.rtcwakes()).toHaveLength(1);
    expect(planOf(again.drives, '/dev/sda')).toMatchObject({ ok: true, method: 'overwrite' });
  });

  it('a drive still frozen after the resume falls back to overwrite, and its plan says why', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', fixture: FROZEN_SANITIZE }]), rtcwake: [RTC_OK] });
    const plan = planOf((await prepareDrives(t.deps)).drives, '/dev/sda');
    expect(t.rtcwakes()).toHaveLength(1);
    expect(plan).toMatchObject({ ok: true, method: 'overwrite', category: 'Clear' });
    expect(plan.ok && plan.why).toBe("the drive is frozen by the BIOS (freeze lock) and it was frozen again after this boot's suspend and resume at 2026-11-26T05:40:05.000Z (the BIOS froze it on resume), so Clear by overwrite");
  });

  it('a failed suspend falls back to overwrite with rtcwake\'s complaint in the plan', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', fixture: FROZEN_SANITIZE }]), rtcwake: [RTC_FAILS] });
    const sut = await prepareDrives(t.deps);
    expect(sut.unfreeze).toMatchObject({ kind: 'failed' });
    const plan = planOf(sut.drives, '/dev/sda');
    expect(plan.ok && plan.why).toMatch(/the suspend and resume to unfreeze it failed: rtcwake -m mem -s 5: exit 1: rtcwake: \/dev\/rtc0 not enabled for wakeup events, so Clear by overwrite$/);
  });

  it('erasure.unfreeze=off never suspends, and the plan says the removal is off', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', fixture: FROZEN_SANITIZE }]), rtcwake: [RTC_OK] }, { unfreeze: { mode: 'off', source: 'erasure.unfreeze=off' } });
    const plan = planOf((await prepareDrives(t.deps)).drives, '/dev/sda');
    expect(t.rtcwakes()).toHaveLength(0);
    expect(plan.ok && plan.why).toMatch(/freeze lock removal is off \(erasure\.unfreeze=off\)/);
  });

  it('never suspends while a drive is being written', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', fixture: FROZEN_SANITIZE }]), rtcwake: [RTC_OK] }, { writing: () => true });
    const sut = await prepareDrives(t.deps);
    expect(t.rtcwakes()).toHaveLength(0);
    expect(sut.unfreeze).toMatchObject({ kind: 'skipped' });
  });

  it('erasure.unfreeze=always (test rigs) suspends once even with no frozen drive', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', stdout: unfrozen() }]), rtcwake: [RTC_OK] }, { unfreeze: { mode: 'always', source: 'erasure.unfreeze=always' } });
    await prepareDrives(t.deps);
    await prepareDrives(t.deps);
    expect(t.rtcwakes()).toEqual([['rtcwake', '-m', 'mem', '-s', '5']]);
    expect(t.lines[0]).toMatch(/^no drive is frozen, but erasure\.unfreeze=always asks for the suspend; the machine sleeps 5 s/);
  });

  it('does not suspend when no frozen drive would get a firmware erase', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', stdout: unfrozen() }]), rtcwake: [RTC_OK] });
    const sut = await prepareDrives(t.deps);
    expect(t.rtcwakes()).toHaveLength(0);
    expect(sut.unfreeze).toBeUndefined();
  });
});

describe.skipIf(!fixturesPresent)(`a sanitize that outlived a reboot, fake tools replaying ${FIXTURES_SKIP_NOTE}`, () => {
  const nvme = (log: string, extra: FakeRule[] = []): FakeRule[] => [{ match: '^id-ctrl /dev/nvme0n1 -o json$', fixture: SN730 }, { match: '^sanitize-log /dev/nvme0n1 -o json$', stdout: log }, ...extra];
  const sata = sataRules([{ match: '^-I /dev/sda$', stdout: unfrozen() }]);

  it('an NVMe sanitize still in progress is shown, reported with the asset, and no erase is planned over it', async () => {
    const t = setUp({ hdparm: sata, nvme: nvme(sanitizeLog(2, 32768, 4)) });
    const sut = await prepareDrives(t.deps);
    const plan = planOf(sut.drives, '/dev/nvme0n1');
    expect(plan).toMatchObject({ ok: false, reason: expect.stringMatching(/^a sanitize is still running on the drive \(50% done\).*no other erase is started over it$/) });
    expect(t.lines).toContain('/dev/nvme0n1: a sanitize is still running on the drive (50% done), started before this boot; it continues on its own and nothing else is started over it');
    const drive = sut.drives.find((d) => d.device === '/dev/nvme0n1');
    expect(drive && storageEntry(drive)).toMatchObject({ sanitize: { state: 'in_progress', percent: 50 } });
    expect(t.calls().some((c) => c[0] === 'nvme' && c[1] === 'sanitize')).toBe(false);
  });

  it('an ATA sanitize still in process (SD2) refuses any other erase', async () => {
    const t = setUp({ hdparm: sataRules([{ match: '^-I /dev/sda$', stdout: unfrozen() }]).map((r) => (r === IDLE ? { match: '^--sanitize-status', stdout: sanitizeStatus('SD2 Sanitize operation In Process', '    Progress: 0x41c2 (25%)\n') } : r)) });
    const plan = planOf((await prepareDrives(t.deps)).drives, '/dev/sda');
    expect(plan).toMatchObject({ ok: false, reason: expect.stringMatching(/still running on the drive \(25% done\)/) });
  });

  it('a failed NVMe sanitize in unrestricted completion mode (AUSE=1) leaves failure mode once, and only a new sanitize is planned', async () => {
    // SCDW10 0x0c: SANACT=4 (crypto erase) with AUSE set.
    const t = setUp({ hdparm: sata, nvme: nvme(sanitizeLog(3, 0, 0x0c), [{ match: '^sanitize /dev/nvme0n1 --sanact=1$', stdout: '' }]) });
    const sut = await prepareDrives(t.deps);
    await prepareDrives(t.deps);
    expect(t.calls().filter((c) => c[0] === 'nvme' && c[1] === 'sanitize')).toEqual([['nvme', 'sanitize', '/dev/nvme0n1', '--sanact=1']]);
    expect(t.lines).toContain('/dev/nvme0n1: left sanitize failure mode (nvme sanitize --sanact=1, Exit Failure Mode); the drive still needs a new erase');
    const plan = planOf(sut.drives, '/dev/nvme0n1');
    expect(plan).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto' });
    expect(plan.rejected.find((r) => r.method === 'overwrite')?.reason).toMatch(/sanitize failure mode/);
  });

  it('a failed NVMe sanitize in restricted completion mode (AUSE=0) is not taken out of failure mode: only a new sanitize may run', async () => {
    const t = setUp({ hdparm: sata, nvme: nvme(sanitizeLog(3, 0, 0x04)) });
    const sut = await prepareDrives(t.deps);
    expect(t.calls().some((c) => c[0] === 'nvme' && c[1] === 'sanitize')).toBe(false);
    expect(t.lines).toContain("/dev/nvme0n1: the drive's last sanitize failed (it is in sanitize failure mode); only a new sanitize that completes ends it");
    expect(planOf(sut.drives, '/dev/nvme0n1')).toMatchObject({ ok: true, method: 'nvme-sanitize-crypto', warnings: expect.arrayContaining([expect.stringMatching(/last sanitize failed/)]) });
  });
});
