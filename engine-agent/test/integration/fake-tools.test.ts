import { describe, expect, it } from 'vitest';
import { buildCapabilities } from '../../src/drives/capabilities.js';
import { planErase } from '../../src/drives/plan-erase.js';
import { parseDmidecode } from '../../src/probes/dmidecode.js';
import { parseHdparmHpa, parseHdparmIdentify } from '../../src/probes/hdparm.js';
import { parseLsblkJson } from '../../src/probes/lsblk.js';
import { parseNvmeIdCtrlText } from '../../src/probes/nvme-id.js';
import { parseJsonText } from '../../src/probes/parse-result.js';
import { parseSmartctlJsonText } from '../../src/probes/smartctl-json.js';
import { fakeRunner } from '../support/fake-runner.js';
import { fixturesPresent, FIXTURES_SKIP_NOTE } from '../support/fixtures.js';

const T = { timeoutMs: 15_000 };

describe.skipIf(!fixturesPresent)(`fake tools on PATH replaying ${FIXTURES_SKIP_NOTE}`, () => {
  it('probes a SATA SSD and an NVMe drive end to end through the real runner and parsers', async () => {
    const { run, calls } = fakeRunner({
      lsblk: [{ match: '-J -b -O', fixture: 'lsblk/laptop-micron-sata-samsung-nvme-lvm-loops-lsblk-J-b-O.json' }],
      hdparm: [
        { match: '^-I /dev/sda$', fixture: 'hdparm/samsung-850evo-2tb-sata-ssd-hdparm-I-not-frozen.txt' },
        { match: '^-N /dev/sda$', fixture: 'hdparm/forensicswiki-hdparm-N-hpa-disabled.txt' },
      ],
      nvme: [{ match: '^id-ctrl -H /dev/nvme0n1$', fixture: 'nvme/teamgroup-tforce-tm8fpl500g-nvme-id-ctrl-H.txt' }],
    });
    const lsblk = await run('lsblk', ['-J', '-b', '-O'], T);
    const json = parseJsonText(lsblk.stdout);
    const devices = json.ok ? parseLsblkJson(json.value) : json;
    expect(devices.ok).toBe(true);
    const disks = devices.ok ? devices.value.filter((d) => d.type === 'disk') : [];
    expect(disks.map((d) => d.name)).toEqual(['sda', 'nvme0n1']);

    const identify = parseHdparmIdentify((await run('hdparm', ['-I', '/dev/sda'], T)).stdout);
    const hpa = parseHdparmHpa((await run('hdparm', ['-N', '/dev/sda'], T)).stdout);
    const idCtrl = parseNvmeIdCtrlText((await run('nvme', ['id-ctrl', '-H', '/dev/nvme0n1'], T)).stdout);
    if (!identify.ok || !hpa.ok || !idCtrl.ok) throw new Error('fixture replay did not parse');

    const sata = buildCapabilities({ device: '/dev/sda', lsblk: disks[0], hdparm: identify.value, hpa: hpa.value });
    const nvme = buildCapabilities({ device: '/dev/nvme0n1', lsblk: disks[1], nvmeIdCtrl: idCtrl.value });
    expect(planErase(sata)).toMatchObject({ method: 'ata-secure-erase-enhanced', preconditions: [], fullySanitized: true });
    expect(planErase(nvme)).toMatchObject({ method: 'nvme-sanitize-block', label: 'NIST 800-88 R2 Purge' });
    expect(calls().map((c) => c[0])).toEqual(['lsblk', 'hdparm', 'hdparm', 'nvme']);
  });

  it('replays real failure outputs with their exit codes', async () => {
    const { run } = fakeRunner({
      dmidecode: [{ match: '.*', fixture: 'dmidecode/no-smbios-entry-point-dmidecode-failure.txt', exit: 0 }],
      smartctl: [{ match: '/dev/sda', fixture: 'smartctl/windows-smartctl-open-failed.json', exit: 2 }],
      sg_sanitize: [{ match: '--crypto', stderr: 'simulated failure (not a captured output)\n', exit: 9 }],
    });
    const dmi = await run('dmidecode', [], T);
    expect(parseDmidecode(dmi.stdout)).toEqual({ ok: false, reason: 'dmidecode found no SMBIOS/DMI table' });

    const smart = await run('smartctl', ['--json', '-a', '/dev/sda'], T);
    expect(smart.exitCode).toBe(2);
    expect(parseSmartctlJsonText(smart.stdout)).toMatchObject({ ok: false, reason: expect.stringMatching(/Open failed/) });

    const sg = await run('sg_sanitize', ['--crypto', '/dev/sdb'], T);
    expect(sg).toMatchObject({ exitCode: 9, stderr: 'simulated failure (not a captured output)\n' });
  });

  it('exits 2 with a message for an argument list the scenario does not cover', async () => {
    const { run } = fakeRunner({ nvme: [] });
    const r = await run('nvme', ['format', '/dev/nvme0n1'], T);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('fake nvme: no scenario rule for "format /dev/nvme0n1"\n');
  });
});
