import { describe, expect, it } from 'vitest';
import { ataSanitize, ataSecureErase, restoreHpa } from '../../src/erase/ata.js';
import { nvmeFormat, nvmeSanitize, type FirmwareTiming } from '../../src/erase/nvme.js';
import { scsiSanitize } from '../../src/erase/scsi.js';
import { fakeRunner, noSleep } from '../support/fake-runner.js';
import { fixtureText, fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';

const fast: FirmwareTiming = { pollIntervalMs: 1, maxWaitMs: 50, commandTimeoutMs: 15_000 };
const NOT_FROZEN = 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt';
const FROZEN = 'hdparm/teamgroup-a400-2tb-sata-ssd-hdparm-I-frozen.txt';
const PW = 'erasure-test-pw';

// Variants of real captures, changed only in the security lines (no capture of these states exists).
const lockedText = () => fixtureText('hdparm', 'samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt').replace('\tnot\tenabled', '\t\tenabled').replace('\tnot\tlocked', '\t\tlocked');
const enabledText = () => fixtureText('hdparm', 'samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt').replace('\tnot\tenabled', '\t\tenabled');
const unfrozenSanitizeText = () => fixtureText('hdparm', 'tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt').replace(/^(\s+)frozen$/m, '        not     frozen');
// nvme-cli's sanitize-log JSON layout (nested under the controller name); values per the NVMe spec.
const sanitizeLog = (sstat: number, sprog: number) => JSON.stringify({ nvme0: { sprog, sstat, cdw10_info: 0, time_over_write: 0 } });
const sanitizeStatus = (state: string, extra = '') => `\n/dev/sda:\nIssuing SANITIZE_STATUS command\nSanitize status:\n    State:    ${state}\n${extra}`;

describe.skipIf(!fixturesPresent)(`erase drivers against fake tools replaying ${FIXTURES_SKIP_NOTE}`, () => {
  it('ATA enhanced security erase: set pass, erase, check security is disabled, password redacted in the evidence', async () => {
    const { run, calls } = fakeRunner({
      hdparm: [
        { match: '^-I /dev/sda$', fixture: NOT_FROZEN },
        { match: '--security-set-pass', fixture: 'hdparm/intel-ssdsc2cw240a3-hdparm-security-set-pass-and-erase-transcript.txt' },
        { match: '--security-erase-enhanced', stdout: ' Issuing SECURITY_ERASE command, password="x", user=user\n' },
      ],
    });
    const sut = await ataSecureErase({ run, sleep: noSleep }, '/dev/sda', true, fast, PW);
    expect(sut).toMatchObject({ ok: true });
    expect(calls().map((c) => c.slice(1).join(' '))).toEqual([
      '-I /dev/sda',
      `--user-master u --security-set-pass ${PW} /dev/sda`,
      `--user-master u --security-erase-enhanced ${PW} /dev/sda`,
      '-I /dev/sda',
    ]);
    expect(sut.commands.join('\n')).not.toContain(PW);
  });

  it('ATA security erase on a frozen drive issues no security command and says how to unfreeze', async () => {
    const { run, calls } = fakeRunner({ hdparm: [{ match: '^-I', fixture: FROZEN }] });
    const sut = await ataSecureErase({ run, sleep: noSleep }, '/dev/sdb', true, fast, PW);
    expect(sut).toMatchObject({ ok: false, code: 'frozen', reason: expect.stringMatching(/suspend/) });
    expect(calls()).toHaveLength(1);
  });

  it('ATA security erase on a locked drive is refused as locked', async () => {
    const { run } = fakeRunner({ hdparm: [{ match: '^-I', stdout: lockedText() }] });
    expect(await ataSecureErase({ run, sleep: noSleep }, '/dev/sdb', false, fast, PW)).toMatchObject({ ok: false, code: 'locked' });
  });

  it('ATA security erase that fails mid-erase reports the temporary password left on the drive', async () => {
    const { run } = fakeRunner({
      hdparm: [
        { match: '^-I', fixture: NOT_FROZEN, times: 1 },
        { match: '^-I', stdout: enabledText() },
        { match: '--security-set-pass', stdout: 'Issuing SECURITY_SET_PASS command\n' },
        { match: '--security-erase', stderr: 'SG_IO: bad/missing sense data, sb[]:  70 00 0b 00\n', exit: 5 },
      ],
    });
    const sut = await ataSecureErase({ run, sleep: noSleep }, '/dev/sdc', false, fast, PW);
    expect(sut).toMatchObject({ ok: false, code: 'erase_failed', reason: expect.stringContaining(PW) });
    expect(sut.ok === false && sut.reason).toMatch(/exit 5: .*bad\/missing sense data/);
  });

  it('ATA sanitize on a frozen drive (SANITIZE FREEZE LOCK) is refused before any sanitize command', async () => {
    const { run, calls } = fakeRunner({ hdparm: [{ match: '^-I', fixture: 'hdparm/tesla-2tb-sata-ssd-hdparm-I-frozen-sanitize.txt' }] });
    expect(await ataSanitize({ run, sleep: noSleep }, '/dev/sda', 'block', fast)).toMatchObject({ ok: false, code: 'frozen' });
    expect(calls().some((c) => c.includes('--sanitize-block-erase'))).toBe(false);
  });

  it('ATA sanitize block erase polls the status until SD0 "Completed Without Error" and reports progress', async () => {
    const { run, calls } = fakeRunner({
      hdparm: [
        { match: '^-I', stdout: unfrozenSanitizeText() },
        { match: '--yes-i-know-what-i-am-doing --sanitize-block-erase /dev/sda', stdout: 'Operation started in background\n' },
        { match: '--sanitize-status', stdout: sanitizeStatus('SD2 Sanitize operation In Process', '    Progress: 0x41c2 (25%)\n'), times: 2 },
        { match: '--sanitize-status', stdout: sanitizeStatus('SD0 Sanitize Idle', '    Last Sanitize Operation Completed Without Error\n') },
      ],
    });
    const seen: number[] = [];
    const sut = await ataSanitize({ run, sleep: noSleep, onPercent: (p) => seen.push(p) }, '/dev/sda', 'block', fast);
    expect(sut).toMatchObject({ ok: true });
    expect(seen).toEqual([25, 25]);
    expect(calls().filter((c) => c[1] === '--sanitize-status')).toHaveLength(3);
  });

  it('ATA sanitize on a drive without the feature set is unsupported', async () => {
    const { run } = fakeRunner({ hdparm: [{ match: '^-I', fixture: NOT_FROZEN }] });
    expect(await ataSanitize({ run, sleep: noSleep }, '/dev/sda', 'crypto', fast)).toMatchObject({ ok: false, code: 'unsupported' });
  });

  it('NVMe crypto sanitize polls the sanitize log until SSTAT reports completion', async () => {
    const { run, calls } = fakeRunner({
      nvme: [
        { match: '^sanitize /dev/nvme0n1 --sanact=4$', stdout: '' },
        { match: '^sanitize-log', stdout: sanitizeLog(2, 32768), times: 2 },
        { match: '^sanitize-log', stdout: sanitizeLog(0x101, 65535) },
      ],
    });
    const seen: number[] = [];
    const sut = await nvmeSanitize({ run, sleep: noSleep, onPercent: (p) => seen.push(p) }, '/dev/nvme0n1', 'crypto', fast);
    expect(sut).toMatchObject({ ok: true, detail: expect.stringMatching(/global data erased: yes/) });
    expect(seen).toEqual([50, 50]);
    expect(calls()).toHaveLength(4);
  });

  it('NVMe sanitize that fails mid-erase (SSTAT 3) is a failed erase', async () => {
    const { run } = fakeRunner({
      nvme: [
        { match: '^sanitize /dev', stdout: '' },
        { match: '^sanitize-log', stdout: sanitizeLog(2, 1000), times: 1 },
        { match: '^sanitize-log', stdout: sanitizeLog(3, 0) },
      ],
    });
    expect(await nvmeSanitize({ run, sleep: noSleep }, '/dev/nvme0n1', 'block', fast)).toMatchObject({ ok: false, code: 'erase_failed', reason: expect.stringMatching(/SSTAT 3/) });
  });

  it('NVMe sanitize the controller rejects is unsupported, and a sanitize that never ends times out', async () => {
    const refused = fakeRunner({ nvme: [{ match: '^sanitize', stderr: 'NVMe status: Invalid Field in Command: A reserved coded value or an unsupported value in a defined field(0x2)\n', exit: 2 }] });
    expect(await nvmeSanitize({ run: refused.run, sleep: noSleep }, '/dev/nvme0n1', 'crypto', fast)).toMatchObject({ ok: false, code: 'unsupported' });
    const stuck = fakeRunner({ nvme: [{ match: '^sanitize /dev', stdout: '' }, { match: '^sanitize-log', stdout: sanitizeLog(2, 10) }] });
    expect(await nvmeSanitize({ run: stuck.run, sleep: noSleep }, '/dev/nvme0n1', 'crypto', { ...fast, maxWaitMs: 3 })).toMatchObject({ ok: false, code: 'timeout' });
  });

  it('NVMe format always carries --ses=1 or --ses=2 and never runs with SES=0', async () => {
    const { run, calls } = fakeRunner({ nvme: [{ match: '^format /dev/nvme0n1 --ses=2 --force$', stdout: 'Success formatting namespace:1\n' }] });
    expect(await nvmeFormat({ run, sleep: noSleep }, '/dev/nvme0n1', 2, fast)).toMatchObject({ ok: true });
    expect(calls()).toEqual([['nvme', 'format', '/dev/nvme0n1', '--ses=2', '--force']]);
    await expect(nvmeFormat({ run, sleep: noSleep }, '/dev/nvme0n1', 0 as 1, fast)).rejects.toThrow(/ses=0/);
  });

  it('SCSI sanitize maps an unsupported service action and a success', async () => {
    const bad = fakeRunner({ sg_sanitize: [{ match: '--crypto', stderr: 'Sanitize command: Illegal request, Invalid opcode\n', exit: 9 }] });
    expect(await scsiSanitize({ run: bad.run, sleep: noSleep }, '/dev/sdb', 'crypto', fast)).toMatchObject({ ok: false, code: 'unsupported' });
    const good = fakeRunner({ sg_sanitize: [{ match: '^--block --quick /dev/sdb$', stdout: 'Sanitize in progress: 100% done\n' }] });
    expect(await scsiSanitize({ run: good.run, sleep: noSleep }, '/dev/sdb', 'block', fast)).toMatchObject({ ok: true });
  });

  it('HPA restore sets the native max permanently and checks it took effect', async () => {
    const { run, calls } = fakeRunner({
      hdparm: [
        { match: '^-N /dev/sdc$', fixture: 'hdparm/forensicswiki-hdparm-N-hpa-enabled.txt', times: 1 },
        { match: '^-N /dev/sdc$', stdout: '\n/dev/sdc:\n max sectors   = 586072368/586072368, HPA is disabled\n' },
        { match: '-N p586072368 /dev/sdc', stdout: ' setting max visible sectors to 586072368 (permanent)\n' },
      ],
    });
    expect(await restoreHpa({ run, sleep: noSleep }, '/dev/sdc', fast)).toMatchObject({ ok: true, detail: expect.stringMatching(/2113 hidden sectors/) });
    expect(calls()[1]).toEqual(['hdparm', '--yes-i-know-what-i-am-doing', '-N', 'p586072368', '/dev/sdc']);
  });

  it('a missing tool is a failure value, not a crash', async () => {
    const sut = await nvmeSanitize({ run: async (t) => { const { ToolSpawnError } = await import('../../src/adapters/runner.js'); throw new ToolSpawnError(t, 'ENOENT'); }, sleep: noSleep }, '/dev/nvme0n1', 'crypto', fast);
    expect(sut).toMatchObject({ ok: false, code: 'tool_missing' });
  });
});
